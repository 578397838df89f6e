// The query string of a request, parsed by a pure function over bytes (no I/O, no allocation
// beyond the result) so that unit tests and a fuzz target can call it directly.
//
// Grammar (application/x-www-form-urlencoded, WHATWG URL §5.1): pairs separated by '&' (';' is
// not a separator), `name=value` or a bare `name` (value ""), '+' is a space, %XX a byte. Empty
// pairs ("a=1&&b=2") are skipped. The decoded bytes must be valid UTF-8 without control
// characters (tab excepted): the values become catalog names and command-line arguments.
//
// Limits (a request that exceeds one is refused, never truncated): at most kMaxQueryParams
// pairs, names of at most kMaxParamNameBytes and values of at most kMaxParamValueBytes after
// decoding.
#ifndef FITRANK_CLI_SERVE_QUERY_H_
#define FITRANK_CLI_SERVE_QUERY_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fitrank::cli::serve {

inline constexpr size_t kMaxQueryParams = 32;
inline constexpr size_t kMaxParamNameBytes = 32;
inline constexpr size_t kMaxParamValueBytes = 200;

struct QueryParam {
  std::string name;
  std::string value;
  bool operator==(const QueryParam&) const = default;
};

// The pairs of `query` (the part after '?', without it), in order; repeated names stay
// repeated. InvalidArgument naming the problem ("bad percent escape `%G1` at byte 4") for a
// malformed escape, bytes that are not UTF-8, a control character or a limit exceeded.
absl::StatusOr<std::vector<QueryParam>> ParseQuery(absl::string_view query);

// One path segment ("RTX%204090" -> "RTX 4090"): %XX decoded, '+' kept as is. Same checks as
// the values of ParseQuery, and a decoded '/' is refused.
absl::StatusOr<std::string> DecodePathSegment(absl::string_view segment);

// Percent-encodes everything but unreserved characters (A-Z a-z 0-9 - . _ ~): for query values
// and path segments in the links the pages write.
std::string UrlEncode(absl::string_view s);

// The last value of `name`, if any; every value of `name`, in order.
std::optional<std::string> Last(const std::vector<QueryParam>& q, absl::string_view name);
std::vector<std::string> All(const std::vector<QueryParam>& q, absl::string_view name);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_QUERY_H_
