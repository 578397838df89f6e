#include "engine/report/policy.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "base/yaml_reader.h"

namespace fitrank {

namespace {

// A source key must name an entry of `sources:`: a policy nobody can trace is not shipped.
void CheckSource(MapReader& r, const ReportPolicy& p, std::string* out) {
  std::string key;
  if (!r.Required("source", &key)) return;
  if (!p.sources.count(key)) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : p.sources) keys.push_back(k);
    r.diags()->Error("unknown-source", r.WhereOf("source"),
                     absl::StrCat("source `", key, "` is not declared under `sources:`"),
                     DidYouMean(ClosestMatches(key, keys, 1)));
  }
  if (out) *out = key;
}

void ReadIntList(MapReader& r, absl::string_view key, std::vector<int>* out) {
  std::vector<std::string> words;
  if (!r.Optional(key, &words)) return;
  std::vector<int> v;
  for (const std::string& w : words) {
    int n = 0;
    if (!absl::SimpleAtoi(w, &n) || n <= 0) {
      r.diags()->Error("wrong-type", r.WhereOf(key),
                       absl::StrCat("`", key, "` must be a list of positive whole numbers"));
      return;
    }
    v.push_back(n);
  }
  if (v.empty()) {
    r.diags()->Error("out-of-range", r.WhereOf(key), absl::StrCat("`", key, "` is empty"));
    return;
  }
  *out = v;
}

// Every note a report writes, and the values it passes (NoteArg names).
struct NoteSpec {
  absl::string_view id;
  std::vector<absl::string_view> args;
};
const std::vector<NoteSpec>& NoteSpecs() {
  static const auto* kSpecs = new std::vector<NoteSpec>{
      {"recommend.no-pick", {"workload", "setup", "min_grade", "capability"}},
      {"recommend.no-pick.min-grade", {"grade"}},
      {"recommend.no-pick.capability", {"capability"}},
      {"installed.where", {"places"}},
      {"installed.ollama", {"name"}},
      {"installed.hf-cache", {"name"}},
      {"installed.at-quant", {"quant"}},
      {"installed.other-quant", {"quant", "installed"}},
      {"installed.file", {"path"}},
      {"installed.none-qualifies", {"workload"}},
      {"installed.none-found", {}},
      {"installed.unmapped", {"names"}},
      {"upgrade.none-in-budget", {}},
      {"upgrade.none", {}},
      {"upgrade.counting", {"quant", "workload", "phrase", "decode_target_tok_s"}},
      {"upgrade.no-gain", {"count", "phrase"}},
      {"upgrade.no-gain.one", {"count", "phrase"}},
      {"upgrade.cross-platform", {"count"}},
      {"upgrade.cross-platform.one", {"count"}},
      {"upgrade.unpriced", {"count", "names"}},
      {"upgrade.unpriced.one", {"count", "names"}},
      {"upgrade.unpriced.budget", {"count", "names"}},
      {"upgrade.unpriced.budget.one", {"count", "names"}},
      {"upgrade.action.replace", {"gpu"}},
      {"upgrade.action.unified", {"gpu"}},
      {"upgrade.action.add-same", {"count", "gpu", "total"}},
      {"upgrade.action.add-different", {"article", "gpu"}},
      {"upgrade.action.host-ram", {"gb"}},
      {"upgrade.price.socket-ram", {"gb", "usd_per_gb"}},
      {"upgrade.price.host-ram", {"usd_per_gb", "source"}},
      {"upgrade.runtime.add-different", {"platform"}},
      {"upgrade.step-why", {"count", "best", "usd_each"}},
      {"upgrade.step-why.one", {"count", "best", "usd_each"}},
      {"upgrade.step-why.best", {"model"}},
      {"fit.usable-share", {"runtime", "share_pct", "usable", "setup_usable"}},
      {"fit.quant-no-runtime", {}},
      {"fit.quant-cannot-run", {}},
      {"fit.quant-needs-precision", {"precision"}},
      {"grade.capped", {"grade", "rule"}},
      {"gpu.top-models", {"runs_well", "top_n", "min_grade", "workload"}},
      {"gpu.itinerary-step", {"action", "price_usd", "why"}},
      {"gpu.mode.weight", {"set", "factor"}},
      {"gpu.mode.concurrency", {"count"}},
      {"gpu.mode.decode-target", {"factor"}},
      {"gpu.mode.ttft-target", {"factor"}},
      {"gpu.mode.context", {"factor"}},
      {"gpu.mode.gpu-counts", {"counts"}},
      {"gpu.mode.parallelism", {"parallelism"}},
      {"gpu.capability.no-model", {}},
      {"gpu.capability.cannot-run", {"quant"}},
      {"gpu.capability.llm-native", {"decode_tok_s", "needs", "usable"}},
      {"gpu.capability.llm-offload", {"decode_tok_s", "offload_pct"}},
      {"gpu.capability.too-big", {"needs", "usable"}},
      {"gpu.capability.image", {"per_image", "width", "height", "steps"}},
      {"gpu.capability.video", {"per_frame", "width", "height", "frames"}},
      {"gpu.capability.with-offload", {}},
      {"gpu.diffusion-basis", {}},
      {"gpu.scaling-basis", {"quant", "workload", "model"}},
      {"gpu.scaling-basis.any-model", {}},
      {"gpu.scaling-basis.single", {}},
      {"compare.cost-basis",
       {"model", "quant", "concurrency", "lifetime_years", "utilization_pct", "usd_per_kwh",
        "source"}},
      {"compare.cost-basis.any-model", {}},
      {"fit.summary",
       {"model", "needs", "quant", "workload", "context", "setup", "usable", "verdict", "speed",
        "grade"}},
      {"fit.summary.speed", {"decode_tok_s"}},
      {"fit.summary.grade", {"grade", "workload"}},
      {"fit.verdict.native-comfortable", {"headroom_pct"}},
      {"fit.verdict.native-tight", {"headroom_pct"}},
      {"fit.verdict.offload", {"offload_pct", "host_ram"}},
      {"fit.verdict.no-fit", {}},
      {"fit.run-note", {"quant", "fit", "decode_tok_s"}},
      {"fit.advice.does-not-fit", {"needs", "usable", "host_ram"}},
      {"fit.advice.offload-active", {"offload_pct", "offloaded", "decode_tok_s"}},
      {"fit.advice.little-headroom", {"headroom_pct"}},
      {"fit.advice.smaller-quant.title", {"quant"}},
      {"fit.advice.smaller-quant", {"quant", "quality_pct", "needs", "decode_tok_s"}},
      {"fit.advice.remove-offload", {"missing"}},
      {"fit.advice.add-host-ram", {"offloaded", "os_reserve", "total", "host_ram"}},
      {"fit.advice.context-limited", {"safe_context", "workload", "context"}},
      {"fit.advice.slow-for-workload",
       {"decode_tok_s", "decode_min_tok_s", "workload", "decode_target_tok_s"}},
  };
  return *kSpecs;
}

// Calls f(name, decimals, begin, end) for each placeholder of `text` ({name} has decimals -1);
// false at the first malformed one (`*bad` gets its offset).
template <class F>
bool ForEachPlaceholder(absl::string_view text, F f, size_t* bad = nullptr) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{') continue;
    const size_t close = text.find('}', i);
    if (close == absl::string_view::npos) {
      if (bad) *bad = i;
      return false;
    }
    absl::string_view inner = text.substr(i + 1, close - i - 1);
    int decimals = -1;
    const size_t colon = inner.find(':');
    if (colon != absl::string_view::npos) {
      absl::string_view spec = inner.substr(colon + 1);
      if (spec.size() != 3 || spec[0] != '.' || spec[1] < '0' || spec[1] > '6' || spec[2] != 'f') {
        if (bad) *bad = i;
        return false;
      }
      decimals = spec[1] - '0';
      inner = inner.substr(0, colon);
    }
    if (inner.empty()) {
      if (bad) *bad = i;
      return false;
    }
    f(inner, decimals, i, close + 1);
    i = close;
  }
  return true;
}

// The name at `key` and where it is; resolved later (ResolveReportPolicy).
template <class T>
void ReadRef(MapReader& r, absl::string_view key, bool required, PolicyRef<T>* out) {
  const bool found = required ? r.Required(key, &out->id) : r.Optional(key, &out->id);
  if (found) out->where = r.WhereOf(key);
}

template <class F>
void ForEachItem(MapReader& parent, absl::string_view key, const std::string& file,
                 Diagnostics* diags, F f) {
  YamlNode list = parent.Child(key);
  if (!list.IsDefined()) {
    diags->Error("missing-field", parent.Where(), absl::StrCat("no `", key, "` list"));
    return;
  }
  if (!list.IsSequence()) {
    diags->Error("wrong-type", list.Where(file), absl::StrCat("`", key, "` must be a list"));
    return;
  }
  int i = 0;
  for (YamlNode item : list) {
    MapReader r(item, file, diags, absl::StrCat(key, "[", i++, "]"));
    f(r);
    r.CheckUnknownKeys();
  }
}

}  // namespace

const VerdictLevel& ReportPolicy::VerdictFor(int runs_well, int count) const {
  static const VerdictLevel kNone{"not-recommended", 0, "Not recommended for local AI"};
  if (verdicts.empty()) return kNone;
  double share = count > 0 ? static_cast<double>(runs_well) / count : 0;
  for (const VerdictLevel& v : verdicts) {
    if (share >= v.min_share) return v;
  }
  return verdicts.back();
}

std::string ReportPolicy::QualityLabelFor(double retention) const {
  for (const QualityLabel& l : quality_labels) {
    if (retention >= l.min) return l.text;
  }
  return quality_labels.empty() ? "" : quality_labels.back().text;
}

const AdviceText* ReportPolicy::AdviceFor(const std::string& id) const {
  for (const AdviceText& a : advice) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

std::string ReportPolicy::SourceText(const std::string& key) const {
  auto it = sources.find(key);
  return it == sources.end() ? key : it->second;
}

std::optional<ReportPolicy> ParseReportPolicy(const std::string& content, const std::string& file,
                                              Diagnostics* diags) {
  int errors_before = diags->error_count();
  std::unique_ptr<YamlTree> tree = ParseYaml(content, file, diags);
  if (tree == nullptr) return std::nullopt;
  ReportPolicy p;
  MapReader top(tree->root(), file, diags, "reports.yaml");
  std::string schema;
  if (top.Required("schema", &schema) && schema != "fitrank.reports/v1") {
    diags->Error("unknown-schema", top.WhereOf("schema"),
                 absl::StrCat("unsupported schema `", schema, "`"), "use `fitrank.reports/v1`");
  }
  YamlNode sources = top.Child("sources");
  if (sources.IsMap()) {
    for (size_t i = 0; i < sources.size(); ++i) {
      p.sources[std::string(sources.Key(i).Scalar())] = std::string(sources.Value(i).Scalar());
    }
  } else {
    diags->Error("missing-field", top.Where(), "no `sources:` map");
  }

  {
    MapReader r(top.Child("top_models"), file, diags, "top_models");
    CheckSource(r, p, nullptr);
    r.Required("count", &p.top_models_count, 1, 10000);
    ReadRef(r, "workload", true, &p.top_models_workload);
    ReadRef(r, "min_grade", true, &p.top_models_min_grade);
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("verdicts"), file, diags, "verdicts");
    CheckSource(r, p, nullptr);
    ForEachItem(r, "levels", file, diags, [&](MapReader& l) {
      VerdictLevel v;
      l.Required("id", &v.id);
      l.Required("min_share", &v.min_share, 0, 1);
      l.Required("text", &v.text);
      p.verdicts.push_back(v);
    });
    for (size_t i = 1; i < p.verdicts.size(); ++i) {
      if (p.verdicts[i].min_share > p.verdicts[i - 1].min_share) {
        diags->Error("out-of-order", r.WhereOf("levels"),
                     "verdict levels must go from the highest min_share to the lowest");
        break;
      }
    }
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("quality_labels"), file, diags, "quality_labels");
    CheckSource(r, p, nullptr);
    ForEachItem(r, "levels", file, diags, [&](MapReader& l) {
      QualityLabel q;
      l.Required("min", &q.min, 0, 1);
      l.Required("text", &q.text);
      p.quality_labels.push_back(q);
    });
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("capability_matrix"), file, diags, "capability_matrix");
    CheckSource(r, p, nullptr);
    ForEachItem(r, "rows", file, diags, [&](MapReader& row) {
      CapabilitySpec c;
      row.Required("id", &c.id);
      row.Required("label", &c.label);
      const std::vector<std::string> kinds = {"llm", "image", "video"};  // CapabilityKind order
      std::string kind;
      if (row.Enum("kind", kinds, &kind, true)) {
        c.kind = static_cast<CapabilityKind>(std::find(kinds.begin(), kinds.end(), kind) -
                                             kinds.begin());
      }
      ReadRef(row, "workload", false, &c.workload);
      ReadRef(row, "quant", false, &c.quant);
      row.Optional("frames", &c.frames, 1, 100000);
      if (!row.Optional("models", &c.models) || c.models.empty()) {
        diags->Error("missing-field", row.Where(), absl::StrCat("row `", c.id, "` lists no models"));
      }
      if (c.kind == CapabilityKind::kLlm && (c.workload.id.empty() || c.quant.id.empty())) {
        diags->Error("missing-field", row.Where(),
                     absl::StrCat("LLM row `", c.id, "` needs `workload` and `quant`"));
      }
      p.capability_rows.push_back(c);
    });
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("gpu_page"), file, diags, "gpu_page");
    CheckSource(r, p, nullptr);
    r.Required("picks_per_workload", &p.picks_per_workload, 1, 50);
    r.Required("out_of_reach_count", &p.out_of_reach_count, 0, 50);
    ReadIntList(r, "scale_out_counts", &p.scale_out_counts);
    ReadRef(r, "count_workload", true, &p.count_workload);
    ReadRef(r, "count_quant", true, &p.count_quant);
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("compare"), file, diags, "compare");
    CheckSource(r, p, nullptr);
    ForEachItem(r, "reference_models", file, diags, [&](MapReader& row) {
      ReferenceModelSpec m;
      row.Required("label", &m.label);
      if (!row.Optional("models", &m.models) || m.models.empty()) {
        diags->Error("missing-field", row.Where(), "a reference model row lists no models");
      }
      p.reference_models.push_back(m);
    });
    MapReader c(r.Child("cost"), file, diags, "compare.cost");
    CheckSource(c, p, &p.cost_source);
    c.Required("lifetime_years", &p.cost_lifetime_years, 0.25, 20);
    c.Required("utilization", &p.cost_utilization, 0.01, 1);
    c.Required("usd_per_kwh", &p.cost_usd_per_kwh, 0, 5);
    c.Required("concurrency", &p.cost_concurrency, 1, 4096);
    c.Required("model_row", &p.cost_model_row, 0, 100);
    c.CheckUnknownKeys();
    if (!p.reference_models.empty() &&
        p.cost_model_row >= static_cast<int>(p.reference_models.size())) {
      diags->Error("out-of-range", c.WhereOf("model_row"),
                   "`model_row` is past the end of `reference_models`");
    }
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("upgrade"), file, diags, "upgrade");
    CheckSource(r, p, nullptr);
    ReadIntList(r, "host_ram_steps_gb", &p.host_ram_steps_gb);
    r.Required("host_ram_usd_per_gb", &p.host_ram_usd_per_gb, 0, 1000);
    std::string ram_src;
    if (r.Required("host_ram_price_source", &ram_src)) p.host_ram_price_source = p.SourceText(ram_src);
    r.Required("max_gpus_same", &p.max_gpus_same, 1, 64);
    const bool have_max = r.Required("max_options", &p.max_upgrade_options, 1, 100);
    if (r.Required("gpu_page_options", &p.gpu_page_upgrade_options, 1, 100) && have_max &&
        p.gpu_page_upgrade_options > p.max_upgrade_options) {
      diags->Error("out-of-range", r.WhereOf("gpu_page_options"),
                   absl::StrCat("`gpu_page_options` is ", p.gpu_page_upgrade_options,
                                ", more than the ", p.max_upgrade_options,
                                " options `max_options` lists"),
                   "the GPU page lists the first of the upgrade report's options: make it at most "
                   "`max_options`");
    }
    r.Required("itinerary_steps", &p.itinerary_steps, 1, 10);
    r.CheckUnknownKeys();
  }
  if (top.Child("advice").IsDefined()) {
    MapReader r(top.Child("advice"), file, diags, "advice");
    CheckSource(r, p, nullptr);
    ForEachItem(r, "items", file, diags, [&](MapReader& item) {
      AdviceText a;
      item.Required("id", &a.id);
      item.Required("title", &a.title);
      item.Optional("detail", &a.detail);
      item.Optional("covered_by", &a.covered_by);
      p.advice.push_back(a);
    });
    r.CheckUnknownKeys();
  }
  {
    MapReader r(top.Child("notes"), file, diags, "notes");
    CheckSource(r, p, nullptr);
    std::vector<std::string> ids;
    for (const NoteSpec& spec : NoteSpecs()) ids.emplace_back(spec.id);
    ForEachItem(r, "items", file, diags, [&](MapReader& item) {
      NoteText n;
      item.Required("id", &n.id);
      item.Required("text", &n.text);
      item.Optional("min_gap_gb", &n.min_gap_gb, 0, 1000);
      item.Optional("max_names", &n.max_names, 1, 1000);
      item.CheckUnknownKeys();
      const NoteSpec* spec = nullptr;
      for (const NoteSpec& s : NoteSpecs()) {
        if (s.id == n.id) spec = &s;
      }
      if (spec == nullptr) {
        if (!n.id.empty()) {
          diags->Error("unknown-note", item.WhereOf("id"),
                       absl::StrCat("no report writes a note `", n.id, "`"),
                       DidYouMean(ClosestMatches(n.id, ids, 1)));
        }
        return;
      }
      std::vector<std::string> args(spec->args.begin(), spec->args.end());
      size_t bad = 0;
      const bool ok = ForEachPlaceholder(
          n.text,
          [&](absl::string_view name, int, size_t, size_t) {
            if (std::find(args.begin(), args.end(), name) != args.end()) return;
            std::string hint = DidYouMean(ClosestMatches(std::string(name), args, 1));
            if (hint.empty()) {
              hint = args.empty() ? "this note takes no values"
                                  : absl::StrCat("it may use ", QuotedList(args));
            }
            diags->Error("bad-template", item.WhereOf("text"),
                         absl::StrCat("note `", n.id, "` has no value `", name, "`"), hint);
          },
          &bad);
      if (!ok) {
        diags->Error("bad-template", item.WhereOf("text"),
                     absl::StrCat("note `", n.id, "`: malformed placeholder at character ",
                                  bad + 1),
                     "write {name} for text or {name:.1f} for a number with 1 decimal");
      }
      p.notes.push_back(n);
    });
    for (const NoteSpec& spec : NoteSpecs()) {
      if (p.NoteFor(spec.id) == nullptr && top.Child("notes").IsDefined()) {
        diags->Error("missing-field", r.Where(),
                     absl::StrCat("no note `", spec.id, "`: a report writes it"));
      }
    }
    r.CheckUnknownKeys();
  }
  top.CheckUnknownKeys();
  if (diags->error_count() > errors_before) return std::nullopt;
  p.cost_source = p.SourceText(p.cost_source);
  return p;
}

const NoteText* ReportPolicy::NoteFor(absl::string_view id) const {
  for (const NoteText& n : notes) {
    if (n.id == id) return &n;
  }
  return nullptr;
}

std::string ReportPolicy::Note(absl::string_view id, std::initializer_list<NoteArg> args) const {
  const NoteText* note = NoteFor(id);
  if (note == nullptr) return "";
  const absl::string_view text = note->text;
  std::string out;
  size_t done = 0;
  ForEachPlaceholder(text, [&](absl::string_view name, int decimals, size_t begin, size_t end) {
    const NoteArg* arg = nullptr;
    for (const NoteArg& a : args) {
      if (a.name == name) arg = &a;
    }
    if (arg == nullptr) return;  // left as written
    absl::StrAppend(&out, text.substr(done, begin - done));
    if (!arg->is_number) {
      absl::StrAppend(&out, arg->text);
    } else {
      AppendFixed(&out, arg->number, decimals < 0 ? 0 : decimals);
    }
    done = end;
  });
  absl::StrAppend(&out, text.substr(done));
  return out;
}

namespace {

// Error `code` at `ref` when `found` is null: "<what> `id` is not in <where>", with the closest names.
template <class T>
bool Resolved(const PolicyRef<T>& ref, const char* code, absl::string_view what,
              absl::string_view known_in, const std::vector<std::string>& names,
              Diagnostics* diags) {
  if (ref.found != nullptr) return true;
  diags->Error(code, ref.where,
               absl::StrCat(what, " `", ref.id, "` is not in ", known_in),
               DidYouMean(ClosestMatches(ref.id, names, 1)));
  return false;
}

}  // namespace

bool ResolveReportPolicy(const Profiles& profiles, const Catalog& catalog, ReportPolicy* p,
                         Diagnostics* diags) {
  std::vector<std::string> workload_ids, letters, quant_ids;
  for (const Workload& w : profiles.workloads()) workload_ids.push_back(w.id);
  for (const Grade& g : profiles.grades().grades) letters.push_back(g.letter);
  for (const Quant& q : catalog.quants()) quant_ids.push_back(q.id);
  bool ok = true;
  auto workload = [&](PolicyRef<Workload>* ref) {
    ref->found = profiles.FindWorkload(ref->id).found;
    ok &= Resolved(*ref, "unknown-workload", "workload", "the profiles (profiles/workloads.yaml)", workload_ids, diags);
  };
  auto quant = [&](PolicyRef<Quant>* ref) {
    ref->found = catalog.QuantById(ref->id);
    ok &= Resolved(*ref, "unknown-quant", "quantization", "the catalog", quant_ids, diags);
  };
  workload(&p->top_models_workload);
  workload(&p->count_workload);
  quant(&p->count_quant);
  for (CapabilitySpec& row : p->capability_rows) {
    if (row.kind != CapabilityKind::kLlm) continue;
    workload(&row.workload);
    quant(&row.quant);
  }
  const GradeScale& scale = profiles.grades();
  p->top_models_min_grade_index = scale.IndexOf(p->top_models_min_grade.id);
  if (p->top_models_min_grade_index >= 0) {
    p->top_models_min_grade.found = &scale.grades[p->top_models_min_grade_index];
  }
  ok &= Resolved(p->top_models_min_grade, "unknown-grade", "grade", "the grade scale (profiles/grades.yaml)",
                 letters, diags);
  return ok;
}

std::optional<ReportPolicy> LoadReportPolicy(const FileSource& source, Diagnostics* diags) {
  const std::string path = "engine/report/reports.yaml";
  absl::StatusOr<std::string> content = source.Read(path);
  if (!content.ok()) {
    diags->Error("missing-file", Location{path, 0, 0},
                 absl::StrCat("cannot read ", path, ": ", content.status().message()));
    return std::nullopt;
  }
  return ParseReportPolicy(*content, source.DisplayName(path), diags);
}

}  // namespace fitrank
