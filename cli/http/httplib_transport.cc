// libfitrank_http.so: cli/http/transport.h on cpp-httplib. Nothing else of fitrank is linked
// in; the binary opens it with LoadTransport().
#include <algorithm>
#include <chrono>

#include "cli/http/transport.h"
#include "httplib.h"

namespace fitrank::cli::http {

namespace {

bool IsLoopback(const std::string& addr) {
  return addr.rfind("127.", 0) == 0 || addr == "::1" || addr.rfind("::ffff:127.", 0) == 0;
}

thread_local std::chrono::steady_clock::time_point t_request_start;

class HttplibListener : public Listener {
 public:
  HttplibListener(const ListenerOptions& o, Handler handler, AccessLog log)
      : handler_(std::move(handler)), log_(std::move(log)) {
    const int threads = o.threads;
    http_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http_.set_payload_max_length(o.max_body_bytes);
    http_.set_read_timeout(o.read_timeout_s, 0);
    http_.set_write_timeout(o.write_timeout_s, 0);
    http_.set_keep_alive_max_count(o.keep_alive_max_count);
    http_.set_keep_alive_timeout(o.keep_alive_timeout_s);
    http_.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
      t_request_start = std::chrono::steady_clock::now();
      return httplib::Server::HandlerResponse::Unhandled;
    });
    auto handle = [this](const httplib::Request& req, httplib::Response& res) {
      Response out = handler_(ToRequest(req));
      res.status = out.status;
      for (auto& [k, v] : out.headers) res.set_header(k, v);
      res.set_content(std::move(out.body), out.content_type.c_str());
    };
    http_.Get(R"(/.*)", handle);
    http_.Post(R"(/.*)", handle);
    http_.Put(R"(/.*)", handle);
    http_.Delete(R"(/.*)", handle);
    http_.Patch(R"(/.*)", handle);
    http_.Options(R"(/.*)", handle);
    if (log_) {
      http_.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
        const double ms = std::chrono::duration<double, std::milli>(
                              std::chrono::steady_clock::now() - t_request_start)
                              .count();
        log_(ToRequest(req), res.status, ms);
      });
    }
  }

  int Bind(const std::string& host, int port) override {
    if (port == 0) {
      const int bound = http_.bind_to_any_port(host);
      return bound > 0 ? bound : -1;
    }
    return http_.bind_to_port(host, port) ? port : -1;
  }
  void Serve() override { http_.listen_after_bind(); }
  void Stop() override { http_.stop(); }

 private:
  static Request ToRequest(const httplib::Request& req) {
    return Request{req.method, req.target, IsLoopback(req.remote_addr),
                   req.get_header_value("Host")};
  }

  httplib::Server http_;
  Handler handler_;
  AccessLog log_;
};

std::unique_ptr<Listener> Listen(const ListenerOptions& options, Handler handler,
                                 AccessLog log) {
  return std::make_unique<HttplibListener>(options, std::move(handler), std::move(log));
}

GetResult Get(const std::string& host_port, const std::string& path, int timeout_ms,
              size_t max_body_bytes) {
  httplib::Client client("http://" + host_port);
  const time_t sec = timeout_ms / 1000, usec = (timeout_ms % 1000) * 1000;
  client.set_connection_timeout(sec, usec);
  client.set_read_timeout(sec, usec);
  client.set_write_timeout(sec, usec);
  GetResult out;
  httplib::Result r = client.Get(path, [&](const char* data, size_t len) {
    out.body.append(data, std::min(len, max_body_bytes - out.body.size()));
    return out.body.size() < max_body_bytes;
  });
  if (!r) {
    switch (r.error()) {
      case httplib::Error::Canceled: out.error = GetResult::Error::kTooLarge; break;
      case httplib::Error::Read:
      case httplib::Error::Write: out.error = GetResult::Error::kTimeout; break;
      case httplib::Error::Connection: out.error = GetResult::Error::kConnect; break;
      default: out.error = GetResult::Error::kOther; break;
    }
    return out;
  }
  out.status = r->status;
  return out;
}

}  // namespace

}  // namespace fitrank::cli::http

extern "C" __attribute__((visibility("default"))) const fitrank::cli::http::Transport*
fitrank_http_transport() {
  static const fitrank::cli::http::Transport kTransport{
      fitrank::cli::http::kTransportAbi, FITRANK_VERSION, &fitrank::cli::http::Listen,
      &fitrank::cli::http::Get};
  return &kTransport;
}
