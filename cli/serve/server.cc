#include "cli/serve/server.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "httplib.h"

namespace fitrank::cli::serve {

namespace {

// Signals set flags; a watcher thread acts on them (nothing unsafe runs in a handler).
std::atomic<int> g_reload_requests{0};
std::atomic<bool> g_stop_requested{false};

extern "C" void OnSighup(int) { g_reload_requests.fetch_add(1); }
extern "C" void OnStop(int) { g_stop_requested.store(true); }

thread_local std::chrono::steady_clock::time_point t_request_start;

bool IsLoopback(const std::string& addr) {
  return addr == "127.0.0.1" || addr.rfind("127.", 0) == 0 || addr == "::1" ||
         addr == "::ffff:127.0.0.1";
}

}  // namespace

struct Server::Impl {
  httplib::Server http;
  std::mutex log_mu;
  std::thread watcher;
  std::atomic<bool> done{false};
};

Server::Server(App* app, ServerOptions options, std::ostream* log)
    : app_(app), options_(std::move(options)), log_(log), impl_(new Impl) {
  httplib::Server& s = impl_->http;
  const int threads = options_.threads;
  s.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  s.set_payload_max_length(kMaxBodyBytes);
  s.set_read_timeout(5, 0);
  s.set_write_timeout(5, 0);
  // cpp-httplib holds a worker for each open connection: keep-alive connections are short so
  // that more clients than workers still take turns.
  s.set_keep_alive_max_count(20);
  s.set_keep_alive_timeout(2);
  s.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
    t_request_start = std::chrono::steady_clock::now();
    return httplib::Server::HandlerResponse::Unhandled;
  });
  auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    HttpRequest r{req.method, req.target, IsLoopback(req.remote_addr),
                  req.get_header_value("Host")};
    HttpResponse out = app_->Handle(r);
    res.status = out.status;
    for (auto& [k, v] : out.headers) res.set_header(k, v);
    res.set_content(std::move(out.body), out.content_type.c_str());
  };
  s.Get(R"(/.*)", handle);
  s.Post(R"(/.*)", handle);
  s.Put(R"(/.*)", handle);
  s.Delete(R"(/.*)", handle);
  s.Patch(R"(/.*)", handle);
  s.Options(R"(/.*)", handle);
  s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content("{\"error\": {\"code\": \"internal\", \"message\": \"internal error\", "
                    "\"hint\": \"\", \"candidates\": []}}\n",
                    "application/json; charset=utf-8");
  });
  if (!options_.quiet) {
    s.set_logger([this](const httplib::Request& req, const httplib::Response& res) {
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() -
                                                            t_request_start)
                      .count();
      std::string path = req.target.substr(0, std::min<size_t>(req.target.size(), 200));
      std::string line = absl::StrCat(req.method, " ", path, " ", res.status, " ",
                                      static_cast<int>(ms * 10) / 10.0, "ms\n");
      std::lock_guard<std::mutex> lock(impl_->log_mu);
      *log_ << line << std::flush;
    });
  }
}

Server::~Server() {
  Stop();
  if (impl_->watcher.joinable()) impl_->watcher.join();
  delete impl_;
}

bool Server::Bind() {
  if (options_.port == 0) {
    port_ = impl_->http.bind_to_any_port(options_.host);
    if (port_ <= 0) {
      *log_ << "fitrank serve: error: cannot bind " << options_.host << "\n";
      return false;
    }
    return true;
  }
  if (!impl_->http.bind_to_port(options_.host, options_.port)) {
    *log_ << "fitrank serve: error: cannot bind " << options_.host << ":" << options_.port
          << " (in use, or not an address of this machine)\n";
    return false;
  }
  port_ = options_.port;
  return true;
}

void Server::Run() {
  if (options_.handle_signals) {
    signal(SIGHUP, OnSighup);
    signal(SIGINT, OnStop);
    signal(SIGTERM, OnStop);
    signal(SIGPIPE, SIG_IGN);
    impl_->watcher = std::thread([this] {
      int handled = 0;
      while (!impl_->done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        if (g_stop_requested.load()) {
          impl_->http.stop();
          return;
        }
        int n = g_reload_requests.load();
        if (n != handled) {
          handled = n;
          std::string diags;
          bool ok = app_->Reload(&diags);
          std::lock_guard<std::mutex> lock(impl_->log_mu);
          if (ok) {
            *log_ << "fitrank serve: reloaded (SIGHUP) at " << app_->Current()->loaded_at << "\n";
          } else {
            *log_ << "fitrank serve: reload failed; the old snapshot stays in service\n" << diags;
          }
          *log_ << std::flush;
        }
      }
    });
  }
  impl_->http.listen_after_bind();
  impl_->done.store(true);
}

void Server::Stop() {
  impl_->done.store(true);
  impl_->http.stop();
}

}  // namespace fitrank::cli::serve
