// A bounded load client for `fitrank serve`, on 127.0.0.1: starts the server (or targets a
// running one with --url), runs --clients keep-alive clients for --requests requests in total
// over every page and endpoint, reloads the snapshot in the middle (SIGHUP and POST
// /api/v1/reload), and checks that every response had its expected status, the server never
// died, and it stops cleanly on SIGTERM. Prints latency percentiles. Exit 0 only with 0 errors.
//
// CTest runs it with a small count (tests/CMakeLists.txt); the README's numbers come from a
// large one: serve_load --fitrank build/fitrank --clients 32 --requests 20000.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "httplib.h"

extern char** environ;

namespace {

struct Target {
  const char* method;
  const char* path;
  int status;
};

// Every page and endpoint, with good and bad input.
const Target kTargets[] = {
    {"GET", "/", 200},
    {"GET", "/gpu/RTX%204090", 200},
    {"GET", "/gpu/RTX%204090?mode=interactive", 200},
    {"GET", "/gpu/mi325x?mode=scale-out", 200},
    {"GET", "/fit/llama%203.1%208b/4090", 200},
    {"GET", "/fit/llama%203.3%2070b/4090?quant=Q4_K_M&workload=coding", 200},
    {"GET", "/compare?gpu=RTX%204090&gpu=RTX%203090", 200},
    {"GET", "/upgrade?gpu=RTX%203060%2012GB&budget=2000", 200},
    {"GET", "/recommend?gpu=4090&gpu=3090&ram=128&workload=all&top=3", 200},
    {"GET", "/embed/fit/qwen3-30b-a3b/4090", 200},
    {"GET", "/badge/fit/qwen3-30b-a3b/4090.svg", 200},
    {"GET", "/static/style.css", 200},
    {"GET", "/static/app.js", 200},
    {"GET", "/api/v1/openapi.json", 200},
    {"GET", "/api/v1/recommend?gpu=RTX%204090&workload=coding&mode=interactive", 200},
    {"GET", "/api/v1/gpu/4090", 200},
    {"GET", "/api/v1/fit?model=llama%203.1%208b&gpu=4090", 200},
    {"GET", "/api/v1/compare?gpu=4090&gpu=5090", 200},
    {"GET", "/api/v1/upgrade?gpu=RTX%203060%2012GB", 200},
    {"GET", "/api/v1/estimate?gpu=4090&model=llama%203.1%208b&quant=Q4_K_M", 200},
    {"GET", "/api/v1/catalog/gpus?filter=geforce%2040", 200},
    {"GET", "/api/v1/catalog/models?filter=qwen3", 200},
    {"GET", "/api/v1/catalog/diffusion", 200},
    {"GET", "/api/v1/catalog/quants", 200},
    {"GET", "/api/v1/catalog/runtimes", 200},
    {"GET", "/api/v1/catalog/show?name=4090", 200},
    {"GET", "/api/v1/gpu/4090x", 400},
    {"GET", "/api/v1/fit?model=llama&gpu=4090", 400},
    {"GET", "/api/v1/recommend?gpu=4090&ram=-1", 400},
    {"GET", "/api/v1/recommend?gpu=%ZZ", 400},
    {"GET", "/api/v1/nope", 404},
    {"GET", "/gpu/nosuchgpu", 404},
    {"GET", "/healthz", 200},
};
constexpr int kTargetCount = sizeof(kTargets) / sizeof(kTargets[0]);

struct Options {
  std::string fitrank;  // spawn this binary, or
  std::string url;      // use this server
  int clients = 4;
  int requests = 400;
  int threads = 32;
};

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--fitrank") o->fitrank = next();
    else if (a == "--url") o->url = next();
    else if (a == "--clients") o->clients = std::atoi(next().c_str());
    else if (a == "--requests") o->requests = std::atoi(next().c_str());
    else if (a == "--threads") o->threads = std::atoi(next().c_str());
    else return false;
  }
  return (!o->fitrank.empty() || !o->url.empty()) && o->clients >= 1 && o->clients <= 256 &&
         o->requests >= 1 && o->requests <= 10000000;
}

struct Spawned {
  pid_t pid = -1;
  int port = 0;
  std::thread drain;
  std::mutex mu;
  std::string log;
};

// Starts `fitrank serve --port 0 --quiet` and reads the port from its first stderr line.
bool Spawn(const Options& o, Spawned* s) {
  int fds[2];
  if (pipe(fds) != 0) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  std::string threads = std::to_string(o.threads);
  std::vector<const char*> args = {o.fitrank.c_str(), "serve", "--port", "0", "--quiet",
                                   "--threads", threads.c_str(), nullptr};
  int rc = posix_spawn(&s->pid, o.fitrank.c_str(), &fa, nullptr,
                       const_cast<char* const*>(args.data()), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) return false;
  std::string first;
  char c;
  while (read(fds[0], &c, 1) == 1 && c != '\n') first.push_back(c);
  size_t colon = first.rfind(':', first.find(" (") == std::string::npos ? std::string::npos
                                                                          : first.find(" ("));
  if (first.find("listening on http://") == std::string::npos || colon == std::string::npos) {
    std::cerr << "serve_load: the server did not start: " << first << "\n";
    return false;
  }
  s->port = std::atoi(first.c_str() + colon + 1);
  s->drain = std::thread([s, fd = fds[0]] {
    char buf[4096];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
      std::lock_guard<std::mutex> lock(s->mu);
      s->log.append(buf, n);
    }
    close(fd);
  });
  return s->port > 0;
}

double Percentile(std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  size_t k = std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * v.size()));
  std::nth_element(v.begin(), v.begin() + k, v.end());
  return v[k];
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!ParseArgs(argc, argv, &o)) {
    std::cerr << "usage: serve_load (--fitrank PATH | --url http://127.0.0.1:PORT) [--clients N] "
                 "[--requests N] [--threads N]\n";
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  Spawned server;
  std::string host = "127.0.0.1";
  int port = 0;
  if (!o.fitrank.empty()) {
    if (!Spawn(o, &server)) return 1;
    port = server.port;
  } else {
    std::string u = o.url.substr(o.url.find("//") + 2);
    host = u.substr(0, u.rfind(':'));
    port = std::atoi(u.substr(u.rfind(':') + 1).c_str());
  }

  std::atomic<int> next{0};
  std::atomic<int> errors{0};
  std::atomic<bool> reloaded{false};
  std::mutex mu;
  std::vector<double> latencies_ms;
  std::map<std::string, int> error_kinds;
  auto client = [&] {
    httplib::Client cli(host, port);
    cli.set_keep_alive(true);
    cli.set_connection_timeout(5, 0);
    cli.set_read_timeout(30, 0);
    std::vector<double> mine;
    for (int i = next.fetch_add(1); i < o.requests; i = next.fetch_add(1)) {
      if (i == o.requests / 2 && !reloaded.exchange(true)) {
        // Mid-run: both reload paths, while the other clients keep going.
        if (server.pid > 0) kill(server.pid, SIGHUP);
        auto r = cli.Post("/api/v1/reload");
        if (!r || r->status != 200) {
          errors.fetch_add(1);
          std::lock_guard<std::mutex> lock(mu);
          ++error_kinds[r ? "POST /api/v1/reload -> " + std::to_string(r->status)
                          : "POST /api/v1/reload: " + httplib::to_string(r.error())];
        }
      }
      const Target& t = kTargets[i % kTargetCount];
      auto start = std::chrono::steady_clock::now();
      auto r = cli.Get(t.path);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                      .count();
      mine.push_back(ms);
      if (!r || r->status != t.status || r->body.empty()) {
        errors.fetch_add(1);
        std::lock_guard<std::mutex> lock(mu);
        ++error_kinds[std::string(t.path) + " -> " +
                      (r ? std::to_string(r->status) : httplib::to_string(r.error()))];
      }
    }
    std::lock_guard<std::mutex> lock(mu);
    latencies_ms.insert(latencies_ms.end(), mine.begin(), mine.end());
  };
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> clients;
  for (int i = 0; i < o.clients; ++i) clients.emplace_back(client);
  for (std::thread& t : clients) t.join();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  int exit_code = 0;
  if (server.pid > 0) {
    int status = 0;
    if (waitpid(server.pid, &status, WNOHANG) != 0) {
      std::cerr << "serve_load: the server died during the run\n";
      errors.fetch_add(1);
    } else {
      kill(server.pid, SIGTERM);
      waitpid(server.pid, &status, 0);
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::cerr << "serve_load: the server did not stop cleanly on SIGTERM (status " << status
                  << ")\n";
        errors.fetch_add(1);
      }
    }
    server.drain.join();
    if (server.log.find("reloaded (SIGHUP)") == std::string::npos) {
      std::cerr << "serve_load: the server did not log the SIGHUP reload:\n" << server.log;
      errors.fetch_add(1);
    }
  }

  std::vector<double>& v = latencies_ms;
  std::printf("serve_load: %zu requests, %d clients, %d endpoints, %.1f s, %.0f req/s, %d errors\n",
              v.size(), o.clients, kTargetCount, seconds, v.size() / seconds, errors.load());
  std::printf("latency ms: p50 %.2f  p90 %.2f  p99 %.2f  max %.2f\n", Percentile(v, 50),
              Percentile(v, 90), Percentile(v, 99), Percentile(v, 100));
  for (const auto& [k, n] : error_kinds) std::printf("  error x%d: %s\n", n, k.c_str());
  if (errors.load() != 0) exit_code = 1;
  return exit_code;
}
