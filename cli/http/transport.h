// HTTP for `fitrank serve` and the local Ollama client, loaded only by the commands that use it.
//
// cpp-httplib (Debian's libcpp-httplib) brings OpenSSL, zlib and brotli with it; linked into
// the fitrank binary they cost every command ~1.7 ms and ~250 page faults of start-up on this
// project's machine (dynamic linking and OpenSSL's initialisation), ~40% of `fitrank fit`.
// So they live in a plugin, libfitrank_http.so (cli/http/httplib_transport.cc), that
// LoadTransport() opens the first time a command needs HTTP.
//
// The plugin's side is the table of functions below, built from this header with the same
// compiler and flags as the binary (both come from one build; `abi` and `version` refuse any
// other). Only standard-library types cross it.
#ifndef FITRANK_CLI_HTTP_TRANSPORT_H_
#define FITRANK_CLI_HTTP_TRANSPORT_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace fitrank::cli::http {

struct Request {
  std::string method;  // "GET", "POST", ...
  std::string target;  // raw request target: "/gpu/RTX%204090?mode=interactive"
  bool from_loopback = true;
  std::string host;  // the Host header ("127.0.0.1:8080"), for absolute URLs in embed snippets
};

struct Response {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type
};

using Handler = std::function<Response(const Request&)>;
// Called once a response is written: the request, its status and the time spent on it.
using AccessLog = std::function<void(const Request&, int status, double ms)>;

struct ListenerOptions {
  int threads = 32;  // workers; cpp-httplib gives each open connection one
  size_t max_body_bytes = 64 * 1024;
  int read_timeout_s = 5;
  int write_timeout_s = 5;
  int keep_alive_max_count = 20;  // requests per keep-alive connection
  int keep_alive_timeout_s = 2;   // idle seconds before a keep-alive connection is closed
};

// A bound HTTP server answering every method and path with one Handler, which must not throw
// (the plugin may have a C++ runtime of its own: no exception crosses).
class Listener {
 public:
  virtual ~Listener() = default;
  // Binds host:port (port 0: any free one); the bound port, or -1 if it cannot be bound.
  virtual int Bind(const std::string& host, int port) = 0;
  // Serves until Stop(). Blocks.
  virtual void Serve() = 0;
  // Thread-safe; Serve() returns once the requests in flight are answered.
  virtual void Stop() = 0;
};

struct GetResult {
  enum class Error {
    kNone,
    kConnect,   // nothing listening, or the connection was refused
    kTimeout,   // connected, but reading or writing took longer than the timeout
    kTooLarge,  // the body passed max_body_bytes (the read stopped there)
    kOther,
  };
  Error error = Error::kNone;
  int status = 0;  // the HTTP status when error == kNone
  std::string body;
};

inline constexpr int kTransportAbi = 1;

// What the plugin exports (through `fitrank_http_transport`).
struct Transport {
  int abi = kTransportAbi;
  const char* version = "";  // the fitrank version it was built with
  std::unique_ptr<Listener> (*listen)(const ListenerOptions& options, Handler handler,
                                      AccessLog log) = nullptr;
  // One GET of http://host_port/path with `timeout_ms` for connecting, reading and writing.
  GetResult (*get)(const std::string& host_port, const std::string& path, int timeout_ms,
                   size_t max_body_bytes) = nullptr;
};

// The plugin, opened once per process (thread-safe). Looked for in this order: already loaded
// into the process (a test binary linked with it), beside the executable
// (build/libfitrank_http.so), and in ../lib/fitrank/ from it (an installed /usr/bin/fitrank).
// nullptr, with *error (one line) saying where it looked and why it failed, when none is
// usable.
const Transport* LoadTransport(std::string* error);

}  // namespace fitrank::cli::http

// The plugin's one exported symbol.
extern "C" const fitrank::cli::http::Transport* fitrank_http_transport();

#endif  // FITRANK_CLI_HTTP_TRANSPORT_H_
