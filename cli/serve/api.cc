#include "cli/serve/api.h"

#include <algorithm>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/text.h"

namespace fitrank::cli::serve {

namespace {

// Flags no request may set: they read files, or change what the response is, or describe the
// machine the server runs on (detection and installed models are the visitor's business on
// their own machine, not the server's: they would spawn its GPU tools per request and disclose
// its hardware and files).
bool Denied(absl::string_view flag) {
  static const char* const kDenied[] = {"data",      "rules",         "model-config",
                                        "format",    "json",          "help",
                                        "model-gguf", "installed",    "free-memory",
                                        "sysroot",   "probe-timeout-ms"};
  for (const char* d : kDenied) {
    if (flag == d) return true;
  }
  return false;
}

const Command* FindCommand(absl::string_view name) {
  for (const Command& c : Commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

ApiResult Refusal(int status, absl::string_view code, absl::string_view message,
                absl::string_view hint, const std::vector<std::string>& candidates = {}) {
  ApiResult r;
  r.status = status;
  r.body = ErrorBody(code, message, hint, candidates);
  r.json = nlohmann::ordered_json::parse(r.body);
  return r;
}

// The first line of what the command printed to stderr, without the "fitrank CMD: " prefix.
std::string FirstErrorLine(const std::string& err) {
  std::string line = err.substr(0, err.find('\n'));
  if (size_t colon = line.find(": "); absl::StartsWith(line, "fitrank") &&
                                      colon != std::string::npos) {
    line = line.substr(colon + 2);
  }
  return line;
}

// Matches `path` against the endpoint's pattern; fills `arg` with the raw path parameter.
bool MatchPath(const Endpoint& e, absl::string_view path, std::string* arg) {
  size_t brace = e.path.find('{');
  if (brace == std::string::npos) return path == e.path;
  absl::string_view prefix = absl::string_view(e.path).substr(0, brace);
  if (!absl::StartsWith(path, prefix) || path.size() == prefix.size()) return false;
  absl::string_view rest = path.substr(prefix.size());
  if (rest.find('/') != absl::string_view::npos) return false;
  *arg = std::string(rest);
  return true;
}

}  // namespace

const std::vector<Endpoint>& Endpoints() {
  static const auto* kEndpoints = new std::vector<Endpoint>{
      {"recommend", "Ranked model picks for a GPU setup, workload and mode", {"recommend"}, "", "",
       false, false, {}, {"setup", "mode", "workload", "picks", "candidates", "notes"},
       "recommend", "gpu=RTX%204090&workload=coding&top=3"},
      {"gpu/{id}", "The GPU page: specs, picks per workload, capability, scaling, buying advice",
       {"gpu"}, "id", "a GPU name or id, as `fitrank gpu NAME` takes it", true, false, {},
       {"specs", "setup", "mode", "capability_matrix", "recommendations", "out_of_reach",
        "diffusion", "multi_gpu", "strengths", "considerations", "buying_advice", "upgrades"},
       "gpu/RTX%204090", "mode=interactive"},
      {"fit", "One model on a GPU setup: memory, fit, speed, every quantization, run commands",
       {"fit"}, "model", "a model name or id", true, false, {},
       {"setup", "model", "memory", "fit", "decode_tok_s", "ttft_ms", "grade", "workloads",
        "quants", "run_commands"},
       "fit", "model=llama%203.1%208b&gpu=RTX%204090"},
      {"compare", "GPUs side by side: models that fit, speed, cost per token, when to pick which",
       {"compare"}, "gpu", "a GPU name or id; give two or more", true, true, {},
       {"workload", "mode", "gpus", "reference_models", "decisions"}, "compare",
       "gpu=RTX%204090&gpu=RTX%203090"},
      {"upgrade", "Upgrade paths from a setup: what each purchase unlocks and at what cost",
       {"upgrade"}, "", "", false, false, {},
       {"current", "workload", "mode", "options", "itinerary", "notes"}, "upgrade",
       "gpu=RTX%203060%2012GB&budget=2000"},
      {"estimate", "The estimator's raw numbers for one model on one setup", {"estimate"}, "", "",
       false, false, {},
       {"model", "quant", "runtime", "setup", "decode_tok_s", "prefill_tok_s", "ttft_ms", "memory",
        "fit", "safe_context", "basis"},
       "estimate", "gpu=RTX%204090&model=llama%203.1%208b&quant=Q4_K_M"},
      {"catalog/gpus", "The catalog's GPUs and accelerators", {"catalog", "gpus"}, "", "", false,
       false, {"filter"}, {}, "catalog/gpus", "filter=geforce%2040"},
      {"catalog/models", "The catalog's language models", {"catalog", "models"}, "", "", false,
       false, {"filter"}, {}, "catalog/models", "filter=qwen3"},
      {"catalog/diffusion", "The catalog's image and video models", {"catalog", "diffusion"}, "",
       "", false, false, {"filter"}, {}, "catalog/diffusion", ""},
      {"catalog/quants", "The catalog's quantizations", {"catalog", "quants"}, "", "", false,
       false, {"filter"}, {}, "catalog/quants", ""},
      {"catalog/runtimes", "The catalog's runtimes", {"catalog", "runtimes"}, "", "", false, false,
       {"filter"}, {}, "catalog/runtimes", ""},
      {"catalog/show", "One catalog entry by name", {"catalog", "show"}, "name",
       "a GPU, model, diffusion model, quantization or runtime name", true, false, {"kind"},
       {"kind", "entry"}, "catalog/show", "name=4090"},
  };
  return *kEndpoints;
}

std::vector<FlagSpec> EndpointFlags(const Endpoint& e) {
  std::vector<FlagSpec> out;
  const Command* c = FindCommand(e.words[0]);
  if (c == nullptr) return out;
  for (const FlagSpec& f : c->flags) {
    if (Denied(f.name) || f.name == e.positional) continue;
    if (!e.only_flags.empty() &&
        std::find(e.only_flags.begin(), e.only_flags.end(), f.name) == e.only_flags.end()) {
      continue;
    }
    out.push_back(f);
  }
  return out;
}

bool NeedsGpuParam(const Endpoint& e) {
  if (e.positional == "gpu" || e.path.find('{') != std::string::npos) return false;
  for (const FlagSpec& f : EndpointFlags(e)) {
    if (f.name == "gpu") return true;
  }
  return false;
}

std::string ErrorBody(absl::string_view code, absl::string_view message, absl::string_view hint,
                      const std::vector<std::string>& candidates) {
  nlohmann::ordered_json j;
  j["error"] = {{"code", std::string(code)},
                {"message", std::string(message)},
                {"hint", std::string(hint)},
                {"candidates", candidates}};
  return j.dump(2) + "\n";
}

ApiResult CallApi(const CliRunner& run, absl::string_view path,
                  const std::vector<QueryParam>& params) {
  const Endpoint* e = nullptr;
  std::string raw_arg;
  for (const Endpoint& x : Endpoints()) {
    if (MatchPath(x, path, &raw_arg)) {
      e = &x;
      break;
    }
  }
  if (e == nullptr) {
    std::vector<std::string> paths;
    for (const Endpoint& x : Endpoints()) paths.push_back("/api/v1/" + x.path);
    std::vector<std::string> close = ClosestMatches(absl::StrCat("/api/v1/", path), paths);
    std::string hint = DidYouMean(close);
    return Refusal(404, "not_found", absl::StrCat("no endpoint /api/v1/", path),
                 hint.empty() ? "GET /api/v1/openapi.json lists the endpoints" : hint, close);
  }
  std::vector<std::string> argv = {"fitrank"};
  argv.insert(argv.end(), e->words.begin(), e->words.end());
  std::vector<FlagSpec> flags = EndpointFlags(*e);
  std::vector<std::string> positional;
  if (!raw_arg.empty()) {
    absl::StatusOr<std::string> arg = DecodePathSegment(raw_arg);
    if (!arg.ok()) return Refusal(400, "bad_request", arg.status().message(), "");
    positional.push_back(*arg);
  }
  for (const QueryParam& p : params) {
    if (!e->positional.empty() && p.name == e->positional && raw_arg.empty()) {
      if (!e->positional_repeated && !positional.empty()) {
        return Refusal(400, "bad_input", absl::StrCat("`", p.name, "` given twice"),
                     "give it once");
      }
      positional.push_back(p.value);
      continue;
    }
    auto f = std::find_if(flags.begin(), flags.end(),
                          [&](const FlagSpec& s) { return s.name == p.name; });
    if (f == flags.end()) {
      std::vector<std::string> names;
      if (!e->positional.empty() && raw_arg.empty()) names.push_back(e->positional);
      for (const FlagSpec& s : flags) names.push_back(s.name);
      std::vector<std::string> close = ClosestMatches(p.name, names);
      std::string hint = DidYouMean(close);
      return Refusal(400, "unknown_parameter",
                   absl::StrCat("/api/v1/", e->path, " takes no parameter `", p.name, "`"),
                   hint.empty() ? absl::StrCat("it takes ", QuotedList(names, " and ")) : hint,
                   close);
    }
    argv.push_back(f->value_name.empty()
                       ? absl::StrCat("--", f->name)
                       : absl::StrCat("--", f->name, "=", p.value));
  }
  if (e->positional_required && positional.empty()) {
    return Refusal(400, "missing_parameter",
                 absl::StrCat("/api/v1/", e->path, " needs `", e->positional, "`: ",
                              e->positional_help),
                 absl::StrCat("e.g. /api/v1/", e->example_path, "?", e->example_query));
  }
  // The commands fall back to the detected setup without a GPU (or with `auto`); a server
  // answers for the GPUs it is asked about, never for its own.
  if (NeedsGpuParam(*e)) {
    bool named = false;
    for (const QueryParam& p : params) {
      if (p.name != "gpu") continue;
      if (absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(p.value), "auto")) {
        return Refusal(400, "bad_input",
                       "`gpu=auto` means the GPUs of the machine the command runs on; the "
                       "server answers for the GPUs you name",
                       absl::StrCat("e.g. /api/v1/", e->example_path, "?", e->example_query));
      }
      named = true;
    }
    if (!named) {
      return Refusal(400, "missing_parameter",
                     absl::StrCat("/api/v1/", e->path, " needs `gpu`: a GPU name or id, "
                                  "repeated for a mixed rig"),
                     absl::StrCat("e.g. /api/v1/", e->example_path, "?", e->example_query));
    }
  }
  argv.push_back("--json");
  argv.push_back("--");
  argv.insert(argv.end(), positional.begin(), positional.end());

  std::ostringstream out, err;
  UsageProblem problem;
  problem.code = "";
  int code = run(argv, out, err, &problem);
  if (code == 0) {
    ApiResult r;
    r.body = out.str();
    r.json = nlohmann::ordered_json::parse(r.body, nullptr, /*allow_exceptions=*/false);
    if (r.json.is_discarded()) {
      return Refusal(500, "internal", "the command's JSON did not parse", "");
    }
    return r;
  }
  if (code == 2 && !problem.code.empty()) {
    return Refusal(400, problem.code, problem.message, problem.hint, problem.candidates);
  }
  if (code == 2) return Refusal(400, "bad_input", FirstErrorLine(err.str()), "");
  if (code == 1) return Refusal(422, "no_answer", FirstErrorLine(err.str()), "");
  return Refusal(500, "internal", FirstErrorLine(err.str()), "");
}

}  // namespace fitrank::cli::serve
