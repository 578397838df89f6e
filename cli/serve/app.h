// The server's request handling without sockets: a request (method, raw target, whether it
// came from loopback) in, a response out. server.cc adapts it to cpp-httplib; tests call it
// directly.
//
// Routes (GET unless said):
//   /                                  search form
//   /gpu/{id}  /fit/{model}/{gpu}      GPU page, model-on-GPU page
//   /compare /upgrade /recommend       pages over the query string
//   /embed/fit/{model}/{gpu}           the card for an <iframe> (~400x180)
//   /badge/fit/{model}/{gpu}.svg       a small SVG badge
//   /static/{style.css|app.js}         embedded assets (a fixed table, never a file path)
//   /api/v1/...                        the JSON API (api.h), /api/v1/openapi.json
//   POST /api/v1/reload                rebuild the snapshot (loopback only)
//   /healthz                           "ok"
//
// Thread safety: Handle() may run on any number of threads at once; Reload() swaps the
// snapshot atomically, and a request holds the snapshot it started with until it ends.
#ifndef FITRANK_CLI_SERVE_APP_H_
#define FITRANK_CLI_SERVE_APP_H_

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cli/http/transport.h"
#include "cli/serve/api.h"
#include "cli/serve/snapshot.h"

namespace fitrank::cli::serve {

// The transport's request and response (cli/http/transport.h).
using HttpRequest = http::Request;
using HttpResponse = http::Response;

// Builds a new snapshot; on failure returns null and fills *diagnostics with the located
// problems (file:line:col ...).
using SnapshotLoader = std::function<std::shared_ptr<const Snapshot>(std::string* diagnostics)>;

class App {
 public:
  // Loads the first snapshot with `loader`; ok() is false if that failed (see diagnostics()).
  explicit App(SnapshotLoader loader);

  bool ok() const { return Current() != nullptr; }
  const std::string& diagnostics() const { return first_diagnostics_; }

  HttpResponse Handle(const HttpRequest& req) const;

  // Rebuilds the snapshot. On success swaps it in and returns true; on failure keeps the old
  // one, returns false and fills *diagnostics.
  bool Reload(std::string* diagnostics);

  std::shared_ptr<const Snapshot> Current() const;

 private:
  HttpResponse Route(const HttpRequest& req, const Snapshot& snap) const;

  SnapshotLoader loader_;
  std::string first_diagnostics_;
  mutable std::mutex mu_;  // guards snapshot_ (the pointer, not the snapshot)
  std::shared_ptr<const Snapshot> snapshot_;
  std::mutex reload_mu_;   // one reload at a time
};

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_APP_H_
