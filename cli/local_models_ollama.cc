// ListOllama: one GET /api/tags on a loopback address (cli/local_models.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "cli/local_models.h"
#include "httplib.h"

namespace fitrank::cli {

std::vector<LocalModel> ListOllama(const Catalog& catalog, const std::string& host_port,
                                   int timeout_ms, std::vector<std::string>* notes) {
  if (host_port.empty()) return {};
  httplib::Client client(absl::StrCat("http://", host_port));
  const time_t sec = timeout_ms / 1000, usec = (timeout_ms % 1000) * 1000;
  client.set_connection_timeout(sec, usec);
  client.set_read_timeout(sec, usec);
  client.set_write_timeout(sec, usec);
  // The body is read with a cap: a local server is trusted no more than a file.
  constexpr size_t kMaxBody = 16 << 20;
  std::string body;
  httplib::Result r = client.Get("/api/tags", [&](const char* data, size_t len) {
    body.append(data, std::min(len, kMaxBody - body.size()));
    return body.size() < kMaxBody;
  });
  if (!r && r.error() == httplib::Error::Canceled) {
    notes->push_back(
        absl::StrCat("ollama: ", host_port, "'s /api/tags is longer than 16 MiB: ignored"));
    return {};
  }
  if (!r) {
    // Nothing listening (the usual case without Ollama) is silent; a server that stalls is not.
    if (r.error() == httplib::Error::Read || r.error() == httplib::Error::Write) {
      notes->push_back(
          absl::StrCat("ollama: ", host_port, " did not answer /api/tags in ", timeout_ms, " ms"));
    }
    return {};
  }
  if (r->status != 200) {
    notes->push_back(
        absl::StrCat("ollama: ", host_port, " answered /api/tags with HTTP ", r->status));
    return {};
  }
  return ParseOllamaTags(catalog, body, notes);
}

}  // namespace fitrank::cli
