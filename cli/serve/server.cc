#include "cli/serve/server.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "cli/http/transport.h"
#include "cli/serve/api.h"

namespace fitrank::cli::serve {

namespace {

// Signals set flags; a watcher thread acts on them (nothing unsafe runs in a handler).
std::atomic<int> g_reload_requests{0};
std::atomic<bool> g_stop_requested{false};

extern "C" void OnSighup(int) { g_reload_requests.fetch_add(1); }
extern "C" void OnStop(int) { g_stop_requested.store(true); }

// What every API error looks like (api.h), for an exception that escaped the app.
http::Response InternalError() {
  http::Response r;
  r.status = 500;
  r.content_type = "application/json; charset=utf-8";
  r.body = ErrorBody("internal", "internal error", "");
  return r;
}

}  // namespace

struct Server::Impl {
  std::unique_ptr<http::Listener> listener;
  std::mutex log_mu;
  std::thread watcher;
  std::atomic<bool> done{false};
};

Server::Server(App* app, ServerOptions options, std::ostream* log)
    : app_(app), options_(std::move(options)), log_(log), impl_(new Impl) {}

Server::~Server() {
  Stop();
  if (impl_->watcher.joinable()) impl_->watcher.join();
  delete impl_;
}

bool Server::Bind() {
  std::string error;
  const http::Transport* transport = http::LoadTransport(&error);
  if (transport == nullptr) {
    *log_ << "fitrank serve: error: " << error << "\n";
    return false;
  }
  http::ListenerOptions lo;
  lo.threads = options_.threads;
  lo.max_body_bytes = kMaxBodyBytes;
  http::AccessLog access_log;
  if (!options_.quiet) {
    access_log = [this](const http::Request& req, int status, double ms) {
      std::string path = req.target.substr(0, std::min<size_t>(req.target.size(), 200));
      std::string line = absl::StrCat(req.method, " ", path, " ", status, " ",
                                      static_cast<int>(ms * 10) / 10.0, "ms\n");
      std::lock_guard<std::mutex> lock(impl_->log_mu);
      *log_ << line << std::flush;
    };
  }
  // No exception crosses into the plugin (it has its own C++ runtime when the binary links
  // libstdc++ statically): one escaping the app becomes a 500 with a JSON error body.
  auto handle = [this](const http::Request& req) {
    try {
      return app_->Handle(req);
    } catch (...) {
      return InternalError();
    }
  };
  impl_->listener = transport->listen(lo, handle, access_log);
  port_ = impl_->listener->Bind(options_.host, options_.port);
  if (port_ > 0) return true;
  if (options_.port == 0) {
    *log_ << "fitrank serve: error: cannot bind " << options_.host << "\n";
  } else {
    *log_ << "fitrank serve: error: cannot bind " << options_.host << ":" << options_.port
          << " (in use, or not an address of this machine)\n";
  }
  impl_->listener.reset();
  return false;
}

void Server::Run() {
  if (impl_->listener == nullptr) return;
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
          impl_->listener->Stop();
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
  impl_->listener->Serve();
  impl_->done.store(true);
}

void Server::Stop() {
  impl_->done.store(true);
  if (impl_->listener != nullptr) impl_->listener->Stop();
}

}  // namespace fitrank::cli::serve
