// `fitrank serve`: the App (app.h) on the HTTP transport (cli/http/transport.h, cpp-httplib).
//
// Binds `host` (loopback by default), answers with a pool of `threads` workers, logs one line
// per request to `log` (method, path, status, ms) unless `quiet`. Limits: request line and
// headers 8 KiB each (cpp-httplib's compile-time limits), bodies 64 KiB, 5 s to read a request
// and to write a response, 20 requests per keep-alive connection and 2 s idle.
//
// SIGHUP reloads the snapshot (as POST /api/v1/reload does); SIGINT and SIGTERM stop the
// server after the requests in flight.
#ifndef FITRANK_CLI_SERVE_SERVER_H_
#define FITRANK_CLI_SERVE_SERVER_H_

#include <functional>
#include <ostream>
#include <string>

#include "cli/serve/app.h"

namespace fitrank::cli::serve {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8080;  // 0: any free port (the chosen one is reported to `on_listen`)
  int threads = 32;  // workers; cpp-httplib gives each open connection one
  bool quiet = false;
  bool handle_signals = true;  // install SIGHUP/SIGINT/SIGTERM handlers (off in tests)
};

inline constexpr size_t kMaxBodyBytes = 64 * 1024;

class Server {
 public:
  Server(App* app, ServerOptions options, std::ostream* log);
  ~Server();

  // Loads the HTTP transport and binds; false (and a message on the log) if the transport
  // cannot be loaded or the address cannot be bound.
  bool Bind();
  int port() const { return port_; }
  // Serves until Stop() (or a signal, if handled). Blocks.
  void Run();
  // Thread-safe; Run() returns once the requests in flight are answered.
  void Stop();

 private:
  struct Impl;
  App* app_;
  ServerOptions options_;
  std::ostream* log_;
  int port_ = 0;
  Impl* impl_;
};

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_SERVER_H_
