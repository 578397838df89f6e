// fitrank sweep: every GPU x workload x mode (x model x quantization) ranked, streamed as JSON
// lines or CSV for spreadsheets and dashboards. One row per model that runs, at its best
// quantization, in rank order.
#include <algorithm>
#include <cstring>
#include <memory>
#include <ostream>
#include <thread>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_map.h"
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

// The rows' bytes, written in place: a row reserves the most it can take once, then its pieces
// are copied and its numbers formatted straight into the buffer (WriteFixed), with no check of
// room per piece.
class RowBuffer {
 public:
  // Room for `n` more bytes at the returned pointer; Commit(end) keeps what was written.
  char* Reserve(size_t n) {
    if (size_ + n > capacity_) {
      capacity_ = std::max(2 * capacity_, size_ + n);
      std::unique_ptr<char[]> bigger(new char[capacity_]);
      if (size_ > 0) std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
    }
    return data_.get() + size_;
  }
  void Commit(const char* end) { size_ = static_cast<size_t>(end - data_.get()); }
  void Append(absl::string_view s) { Commit(Put(Reserve(s.size()), s)); }
  static char* Put(char* p, absl::string_view s) {
    std::memcpy(p, s.data(), s.size());
    return p + s.size();
  }
  size_t size() const { return size_; }
  // Writes the bytes to `out` and empties the buffer.
  void Flush(std::ostream& out) {
    out.write(data_.get(), static_cast<std::streamsize>(size_));
    size_ = 0;
  }

 private:
  std::unique_ptr<char[]> data_;
  size_t size_ = 0, capacity_ = 0;
};

// Writes the rows. Most of a row repeats: the cell's GPU, workload and mode on every row of
// the cell, a model's id, name and size on every row of that model, and a few dozen quant,
// grade, fit and runtime names. Those pieces are encoded once (with the separators and JSON keys
// around them) and appended whole; only the numbers are formatted per row.
class RowWriter {
 public:
  RowWriter(bool json, const GradeScale& grades) : json_(json), grades_(grades) {
    for (size_t i = 0; i < kColumnCount; ++i) {
      const absl::string_view separator = i > 0 ? "," : json_ ? "{" : "";
      lead_[i] = json_ ? absl::StrCat(separator, "\"", kColumns[i], "\":") : std::string(separator);
      max_lead_ = std::max(max_lead_, lead_[i].size());
    }
  }

  void Header(RowBuffer* out) const {
    if (json_) return;
    for (size_t i = 0; i < kColumnCount; ++i) {
      if (i > 0) out->Append(",");
      out->Append(kColumns[i]);
    }
    out->Append("\n");
  }

  void Row(const SweepCell& cell, int rank, const CandidateEval& c, RowBuffer* buffer) {
    if (cell.gpu != gpu_ || cell.workload != workload_ || cell.mode != mode_) {
      gpu_ = cell.gpu;
      workload_ = cell.workload;
      mode_ = cell.mode;
      cell_prefix_.clear();
      Text(&cell_prefix_, kGpuId, cell.gpu->id);
      Text(&cell_prefix_, kGpu, cell.gpu->name);
      Text(&cell_prefix_, kWorkload, cell.workload->id);
      Text(&cell_prefix_, kMode, cell.mode->id);
      cell_prefix_.append(lead_[kRank]);
    }
    std::string& model = models_[c.model];
    if (model.empty()) {
      Text(&model, kModelId, c.model->id);
      Text(&model, kModel, c.model->name);
      Num(&model, kParamsB, c.model->params_b, 2);
    }
    const std::string& quant = Cached(kQuant, c.quant->id);
    const std::string& grade = Cached(kGrade, grades_.grades[c.score.grade].letter);
    const std::string& fit = Cached(kFit, FitKindName(c.estimate.fit.kind));
    const std::string& runtime =
        Cached(kRuntime, c.runtime != nullptr ? absl::string_view(c.runtime->id)
                                              : absl::string_view());
    // Room for the pieces, the twelve numbers (the rank and eleven columns) with their leads,
    // and the row's end.
    constexpr size_t kNumbers = 12;
    char* p = buffer->Reserve(cell_prefix_.size() + model.size() + quant.size() + grade.size() +
                              fit.size() + runtime.size() +
                              kNumbers * (max_lead_ + kMaxFixedChars) + 2);
    p = RowBuffer::Put(p, cell_prefix_);
    p = WriteFixed(p, rank, 0);
    p = RowBuffer::Put(p, model);
    p = RowBuffer::Put(p, quant);
    p = RowBuffer::Put(p, grade);
    p = Num(p, kScore, c.score.score, 2);
    p = Num(p, kQuality, c.quality, 2);
    p = Num(p, kDecodeTokS, c.estimate.decode_tok_s, 1);
    p = Num(p, kUserTokS, c.user_tok_s, 1);
    p = Num(p, kTtftMs, c.estimate.ttft_ms, 0);
    p = Num(p, kContext, c.context, 0);
    p = RowBuffer::Put(p, fit);
    p = Num(p, kHeadroomPct, c.estimate.fit.headroom_pct, 1);
    p = Num(p, kOffloadPct, c.estimate.fit.offload_pct, 1);
    p = Num(p, kMemoryGb, c.estimate.memory.total_gb, 2);
    p = Num(p, kUsableGb, c.estimate.memory.usable_gb, 2);
    p = RowBuffer::Put(p, runtime);
    p = Num(p, kGpus, c.gpus(), 0);
    p = RowBuffer::Put(p, json_ ? "}\n" : "\n");
    buffer->Commit(p);
  }

 private:
  // Column indexes into kColumns.
  enum Column : size_t {
    kGpuId, kGpu, kWorkload, kMode, kRank, kModelId, kModel, kParamsB, kQuant, kGrade, kScore,
    kQuality, kDecodeTokS, kUserTokS, kTtftMs, kContext, kFit, kHeadroomPct, kOffloadPct,
    kMemoryGb, kUsableGb, kRuntime, kGpus, kColumnCount
  };
  static_assert(kColumnCount == std::size(kColumns));

  void Text(std::string* out, Column col, absl::string_view s) const {
    out->append(lead_[col]);
    AppendText(out, s, json_);
  }
  void Num(std::string* out, Column col, double v, int decimals) const {
    out->append(lead_[col]);
    AppendFixed(out, v, decimals);
  }
  char* Num(char* p, Column col, double v, int decimals) const {
    return WriteFixed(RowBuffer::Put(p, lead_[col]), v, decimals);
  }
  // Text(col, s) encoded once: `s` must be a catalog, profile or static string (its address
  // and size name it for the whole sweep).
  const std::string& Cached(Column col, absl::string_view s) {
    std::string& piece = texts_[{col, s.data(), s.size()}];
    if (piece.empty()) Text(&piece, col, s);
    return piece;
  }

  bool json_;
  const GradeScale& grades_;
  std::string lead_[kColumnCount];  // what precedes each column's value: separator, JSON key
  size_t max_lead_ = 0;
  const Gpu* gpu_ = nullptr;         // the cell cell_prefix_ is for
  const Workload* workload_ = nullptr;
  const Mode* mode_ = nullptr;
  std::string cell_prefix_;          // the columns up to the rank's value
  absl::flat_hash_map<const Model*, std::string> models_;  // model id, name, params_b
  // A node map: Row holds several of its pieces at once while Cached may add more, so the
  // pieces must stay where they are when the map grows (a flat map moves them).
  absl::node_hash_map<std::tuple<Column, const char*, size_t>, std::string> texts_;
};

int RunSweepCommand(Context& ctx) {
  const ReportEnv& env = LoadReportEnv(ctx, /*trait_books=*/false);
  if (!ctx.args.positional().empty()) {
    throw UsageError(absl::StrCat("unexpected argument `", ctx.args.positional()[0], "`"),
                     "choose GPUs with --gpu NAME");
  }
  const bool json = ctx.format != OutputFormat::kCsv;  // table and json: JSON lines too
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
  RowBuffer buffer;
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
    if (buffer.size() > (1 << 20)) buffer.Flush(out);
  };
  auto progress = [&](int done, int total) {
    if (ctx.tty) *ctx.err << "\rsweep: " << done << "/" << total << " GPUs" << std::flush;
  };
  RunSweep(*eval, plan, emit, progress);
  buffer.Flush(out);
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
          RunSweepCommand,
          kEveryFormat & ~FormatBit(OutputFormat::kMarkdown)};
}

}  // namespace fitrank::cli
