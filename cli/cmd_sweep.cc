// fitrank sweep: every GPU x workload x mode (x model x quantization) ranked, streamed as JSON
// lines or CSV for spreadsheets and dashboards. One row per model that runs, at its best
// quantization, in rank order.
#include <thread>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "cli/commands.h"
#include "cli/report_context.h"
#include "cli/resolve.h"
#include "cli/rules_env.h"
#include "engine/scoring/sweep.h"

namespace fitrank::cli {
namespace {

constexpr const char* kColumns[] = {
    "gpu_id",       "gpu",        "workload",     "mode",       "rank",        "model_id",
    "model",        "params_b",   "quant",        "grade",      "score",       "quality",
    "decode_tok_s", "user_tok_s", "ttft_ms",      "context",    "fit",         "headroom_pct",
    "offload_pct",  "memory_gb",  "usable_gb",    "runtime",    "gpus"};

// A text cell: CSV quotes when needed; JSON escapes.
void AppendText(std::string* out, absl::string_view s, bool json) {
  if (json) {
    out->push_back('"');
    size_t plain = 0;  // bytes from here on that need no escape, appended in one go
    for (size_t i = 0; i < s.size(); ++i) {
      const char ch = s[i];
      if (ch != '"' && ch != '\\' && static_cast<unsigned char>(ch) >= 0x20) continue;
      out->append(s.data() + plain, i - plain);
      plain = i + 1;
      if (ch == '"' || ch == '\\') {
        out->push_back('\\');
        out->push_back(ch);
      } else {
        absl::StrAppend(out, "\\u00", ch < 16 ? "0" : "", absl::Hex(ch));
      }
    }
    out->append(s.data() + plain, s.size() - plain);
    out->push_back('"');
    return;
  }
  if (s.find_first_of(",\"\n") == absl::string_view::npos) {
    out->append(s.data(), s.size());
    return;
  }
  out->push_back('"');
  for (char ch : s) {
    if (ch == '"') out->push_back('"');
    out->push_back(ch);
  }
  out->push_back('"');
}

class RowWriter {
 public:
  RowWriter(bool json, const GradeScale& grades) : json_(json), grades_(grades) {}

  void Header(std::string* out) const {
    if (json_) return;
    for (size_t i = 0; i < std::size(kColumns); ++i) {
      if (i > 0) out->push_back(',');
      out->append(kColumns[i]);
    }
    out->push_back('\n');
  }

  void Row(const SweepCell& cell, int rank, const CandidateEval& c, std::string* out) {
    col_ = 0;
    if (json_) out->push_back('{');
    Text(out, cell.gpu->id);
    Text(out, cell.gpu->name);
    Text(out, cell.workload->id);
    Text(out, cell.mode->id);
    Num(out, rank, 0);
    Text(out, c.model->id);
    Text(out, c.model->name);
    Num(out, c.model->params_b, 2);
    Text(out, c.quant->id);
    Text(out, grades_.grades[c.score.grade].letter);
    Num(out, c.score.score, 2);
    Num(out, c.quality, 2);
    Num(out, c.estimate.decode_tok_s, 1);
    Num(out, c.user_tok_s, 1);
    Num(out, c.estimate.ttft_ms, 0);
    Num(out, c.context, 0);
    Text(out, FitKindName(c.estimate.fit.kind));
    Num(out, c.estimate.fit.headroom_pct, 1);
    Num(out, c.estimate.fit.offload_pct, 1);
    Num(out, c.estimate.memory.total_gb, 2);
    Num(out, c.estimate.memory.usable_gb, 2);
    Text(out, c.runtime != nullptr ? absl::string_view(c.runtime->id) : absl::string_view());
    Num(out, c.gpus(), 0);
    out->append(json_ ? "}\n" : "\n");
  }

 private:
  void Key(std::string* out) {
    if (col_ > 0) out->push_back(',');
    if (json_) {
      out->push_back('"');
      out->append(kColumns[col_]);
      out->append("\":");
    }
    ++col_;
  }
  void Text(std::string* out, absl::string_view s) {
    Key(out);
    AppendText(out, s, json_);
  }
  void Num(std::string* out, double v, int decimals) {
    Key(out);
    AppendFixed(out, v, decimals);
  }

  bool json_;
  const GradeScale& grades_;
  size_t col_ = 0;
};

int RunSweepCommand(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx, /*trait_books=*/false);
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "choose GPUs with --gpu NAME");
  }
  bool json = true;
  if (ctx.format == OutputFormat::kCsv) {
    json = false;
  } else if (ctx.format != OutputFormat::kJsonl && ctx.format != OutputFormat::kJson &&
             ctx.format != OutputFormat::kTable) {
    throw UsageError("sweep writes --format jsonl (the default) or csv");
  }
  SweepPlan plan;
  for (const std::string& g : ctx.args.GetAll("gpu")) plan.gpus.push_back(&ResolveGpu(*env.catalog, g));
  for (const std::string& w : ctx.args.GetAll("workload")) {
    plan.workloads.push_back(&ResolveWorkload(env, w));
  }
  for (const std::string& m : ctx.args.GetAll("mode")) {
    ProfileLookup<Mode> r = env.profiles->FindMode(m);
    if (r.found == nullptr) {
      throw UsageError(absl::StrCat("unknown mode `", m, "`"), DidYouMean(r.suggestions));
    }
    plan.modes.push_back(r.found);
  }
  plan.top = ctx.args.GetInt("top", 1, 100000, "picks").value_or(0);
  int hw = static_cast<int>(std::thread::hardware_concurrency());
  plan.threads = ctx.args.GetInt("threads", 1, 64, "threads").value_or(std::max(1, std::min(hw, 2)));

  std::shared_ptr<const FileSource> local = LocalRulesSource(ctx);
  const Evaluator* eval = &LoadEvaluator(env);
  RowWriter writer(json, env.profiles->grades());
  std::string buffer;
  writer.Header(&buffer);
  std::ostream& out = *ctx.out;
  long long rows = 0;
  auto emit = [&](const SweepCell& cell) {
    if (!cell.error.empty()) {
      *ctx.err << "fitrank sweep: " << cell.gpu->name << " / " << cell.workload->id << " / "
               << cell.mode->id << ": " << cell.error << "\n";
      return;
    }
    int rank = 0;
    for (const CandidateEval& c : cell.ranking.ranked) {
      writer.Row(cell, ++rank, c, &buffer);
      ++rows;
    }
    if (buffer.size() > (1 << 20)) {
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  };
  auto progress = [&](int done, int total) {
    if (ctx.tty) *ctx.err << "\rsweep: " << done << "/" << total << " GPUs" << std::flush;
  };
  RunSweep(*eval, plan, emit, progress);
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  out.flush();
  if (ctx.tty) *ctx.err << "\rsweep: done, " << rows << " rows\n";
  return rows > 0 ? 0 : 1;
}

}  // namespace

Command SweepCommand() {
  return {"sweep",
          "rank every GPU x workload x mode and stream the rows (JSON lines or CSV)",
          "fitrank sweep [--gpu NAME ...] [--workload W ...] [--mode M ...] [--format jsonl|csv] "
          "[--top K]",
          {{"gpu", "NAME", "only this GPU (default: every GPU in the catalog)", true},
           {"workload", "W", "only this workload (default: all)", true},
           {"mode", "M", "only this mode (default: all)", true},
           {"top", "K", "keep the top K models of each ranking (default: every model that runs)"},
           {"threads", "N", "worker threads (default: 2, or 1 on a single core)"},
           RulesFlag()},
          RunSweepCommand};
}

}  // namespace fitrank::cli
