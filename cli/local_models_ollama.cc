// ListOllama: one GET /api/tags on a loopback address (cli/local_models.h).
#include "absl/strings/str_cat.h"
#include "cli/http/transport.h"
#include "cli/local_models.h"

namespace fitrank::cli {

std::vector<LocalModel> ListOllama(const Catalog& catalog, const std::string& host_port,
                                   int timeout_ms, std::vector<std::string>* notes) {
  if (host_port.empty()) return {};
  std::string error;
  const http::Transport* transport = http::LoadTransport(&error);
  if (transport == nullptr) {
    notes->push_back(absl::StrCat("ollama: not asked: ", error));
    return {};
  }
  // The body is read with a cap: a local server is trusted no more than a file.
  constexpr size_t kMaxBody = 16 << 20;
  http::GetResult r = transport->get(host_port, "/api/tags", timeout_ms, kMaxBody);
  switch (r.error) {
    case http::GetResult::Error::kNone: break;
    case http::GetResult::Error::kTooLarge:
      notes->push_back(
          absl::StrCat("ollama: ", host_port, "'s /api/tags is longer than 16 MiB: ignored"));
      return {};
    case http::GetResult::Error::kTimeout:
      // Nothing listening (the usual case without Ollama) is silent; a server that stalls is not.
      notes->push_back(
          absl::StrCat("ollama: ", host_port, " did not answer /api/tags in ", timeout_ms, " ms"));
      return {};
    case http::GetResult::Error::kConnect:
    case http::GetResult::Error::kOther: return {};
  }
  if (r.status != 200) {
    notes->push_back(
        absl::StrCat("ollama: ", host_port, " answered /api/tags with HTTP ", r.status));
    return {};
  }
  return ParseOllamaTags(catalog, r.body, notes);
}

}  // namespace fitrank::cli
