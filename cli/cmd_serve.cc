// fitrank serve: the web pages, the JSON API and the embeddable fit card (cli/serve/).
#include <iostream>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/rules_env.h"
#include "cli/serve/app.h"
#include "cli/serve/server.h"
#include "cli/serve/snapshot.h"

namespace fitrank::cli {

namespace {

int RunServe(Context& ctx) {
  serve::ServerOptions opt;
  opt.host = ctx.args.GetOr("host", "127.0.0.1");
  opt.port = ctx.args.GetInt("port", 0, 65535).value_or(8080);
  opt.threads = ctx.args.GetInt("threads", 1, 256).value_or(32);
  opt.quiet = ctx.args.Has("quiet");
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "fitrank serve [--host H] [--port N] [--data DIR] [--rules DIR]");
  }
  const std::string data_dir = ctx.args.GetOr("data", "");
  const std::string rules_dir = LocalRulesDir(ctx);
  const std::string host_in_url =
      opt.host.find(':') != std::string::npos ? absl::StrCat("[", opt.host, "]") : opt.host;
  std::string public_url = ctx.args.GetOr("public-url", "");
  serve::App app([&](std::string* diagnostics) -> std::shared_ptr<const serve::Snapshot> {
    std::shared_ptr<const serve::Snapshot> s = serve::LoadSnapshot(data_dir, rules_dir, diagnostics);
    if (s == nullptr) return nullptr;
    auto copy = std::make_shared<serve::Snapshot>(*s);
    copy->public_url = public_url;
    return copy;
  });
  if (!app.ok()) {
    *ctx.err << app.diagnostics();
    *ctx.err << "fitrank serve: error: the data did not load; nothing is served\n";
    return 2;
  }
  serve::Server server(&app, opt, ctx.err);
  if (!server.Bind()) return 2;
  // Always printed, --quiet or not: with --port 0 it is how a caller learns the port.
  *ctx.err << "fitrank serve: listening on http://" << host_in_url << ":" << server.port()
           << " (" << opt.threads << " threads; SIGHUP or POST /api/v1/reload reloads the data)\n"
           << std::flush;
  server.Run();
  return 0;
}

}  // namespace

Command ServeCommand() {
  return {"serve",
          "the web pages, the JSON API (/api/v1) and the embeddable fit card, over HTTP",
          "fitrank serve [--host 127.0.0.1] [--port 8080] [--data DIR] [--rules DIR] "
          "[--threads N] [--quiet]",
          {{"host", "ADDR", "address to bind (default 127.0.0.1: this machine only)"},
           {"port", "N", "port (default 8080; 0 picks a free one)"},
           {"threads", "N", "worker threads, one per open connection (default 32)"},
           {"quiet", "", "no request log on stderr"},
           {"public-url", "URL", "the server's URL as others reach it, for embed snippets"},
           RulesFlag()},
          RunServe};
}

}  // namespace fitrank::cli
