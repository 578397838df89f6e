#include "profiles/profiles.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/numbers.h"
#include "base/text.h"
#include "base/yaml_reader.h"

namespace fitrank {
namespace {

constexpr absl::string_view kSchema = "fitrank.profiles/v1";
// Plausible bounds: they catch a unit or sign slip, not a judgement call.
constexpr double kMaxWeight = 100;
constexpr int kMaxTokens = 10'000'000;

// Reads the frame every profiles file shares (schema, kind, sources) and returns the list
// under `list_key`, or an undefined node after reporting why.
YamlNode ReadFrame(MapReader& top, absl::string_view kind, absl::string_view list_key) {
  std::string schema, file_kind;
  if (top.Required("schema", &schema) && schema != kSchema) {
    top.diags()->Error("unknown-schema", top.WhereOf("schema"),
                       absl::StrCat("unknown schema `", schema, "`"),
                       absl::StrCat("this version of fitrank reads `", kSchema, "`"));
  }
  if (top.Required("kind", &file_kind) && file_kind != kind) {
    top.diags()->Error("wrong-kind", top.WhereOf("kind"),
                       absl::StrCat("this file must have `kind: ", kind, "`, not `", file_kind, "`"));
  }
  YamlNode sources = top.Child("sources");
  if (sources.IsDefined() && !sources.IsNull() && !sources.IsMap()) {
    top.diags()->Error("wrong-type", sources.Where(top.file()),
                       "`sources` must be a map of `key: where the numbers come from`");
  }
  YamlNode list = top.Child(list_key);
  if (!list.IsDefined() || list.IsNull()) {
    top.diags()->Error("missing-field", top.Where(), absl::StrCat("the file has no `", list_key, "`"),
                       absl::StrCat("add `", list_key, ":` with a list of entries"));
    return {};
  }
  if (!list.IsSequence()) {
    top.diags()->Error("wrong-type", list.Where(top.file()),
                       absl::StrCat("`", list_key, "` must be a list (`- id: ...` entries)"));
    return {};
  }
  return list;
}

// Reads `key: {set: number, ...}` into `out`.
void ReadSetMap(MapReader& r, absl::string_view key, double max, std::vector<SetWeight>* out) {
  YamlNode m = r.Child(key);
  if (!m.IsDefined() || m.IsNull()) return;
  if (!m.IsMap()) {
    r.diags()->Error("wrong-type", m.Where(r.file()),
                     absl::StrCat("`", key, "` must be a map like {quality: 0.4, fit: 0.2}"));
    return;
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < m.size(); ++i) {
    Location where = m.Key(i).Where(r.file());
    std::string set(m.Key(i).Scalar());
    if (set.empty()) {
      r.diags()->Error("wrong-type", where, absl::StrCat("`", key, "` keys must be rule set names"));
      continue;
    }
    if (!seen.insert(set).second) {
      r.diags()->Error("duplicate-key", where, absl::StrCat("set `", set, "` is listed twice"));
      continue;
    }
    MapReader one(m, r.file(), r.diags(), absl::StrCat("`", key, "`"));
    double v = 0;
    if (!one.Optional(set, &v, 0, max)) continue;
    out->push_back({set, v, where});
  }
}

// Registers `id` and `aliases` under their normalised names; reports clashes.
void CheckNames(const std::string& id, const std::vector<std::string>& aliases,
                const Location& where, absl::string_view what,
                std::map<std::string, std::string>* names, Diagnostics* diags) {
  std::vector<std::string> all = {id};
  all.insert(all.end(), aliases.begin(), aliases.end());
  for (const std::string& n : all) {
    std::string key = NormalizeName(n);
    auto [it, fresh] = names->emplace(key, id);
    if (!fresh && !(it->second == id && n != id)) {
      diags->Error("duplicate-id", where,
                   absl::StrCat(what, " name `", n, "` is already used by `", it->second, "`"),
                   "ids and aliases must be unique after ignoring case, spaces, '-' and '_'");
    }
  }
}

void ReadWorkloads(YamlNode list, const std::string& file, Diagnostics* diags,
                   std::vector<Workload>* out) {
  std::map<std::string, std::string> names;
  for (YamlNode item : list) {
    Workload w;
    w.where = item.Where(file);
    std::string label = "workload";
    if (item.Get("id").IsScalar()) {
      label = absl::StrCat("workload `", item.Get("id").Scalar(), "`");
    }
    MapReader r(item, file, diags, label);
    if (!r.ok()) continue;
    int before = diags->error_count();
    r.Required("id", &w.id);
    r.Required("name", &w.name);
    r.Required("phrase", &w.phrase);
    r.Optional("aliases", &w.aliases);
    r.Optional("description", &w.description);
    r.Required("context_tokens", &w.context_tokens, 256, kMaxTokens);
    r.Required("prompt_tokens", &w.prompt_tokens, 1, kMaxTokens);
    r.Required("output_tokens", &w.output_tokens, 1, kMaxTokens);
    r.Required("decode_target_tok_s", &w.decode_target_tok_s, 0.1, 10000);
    r.Required("decode_min_tok_s", &w.decode_min_tok_s, 0.1, 10000);
    r.Required("ttft_target_ms", &w.ttft_target_ms, 1, 3.6e6);
    r.Required("ttft_max_ms", &w.ttft_max_ms, 1, 3.6e6);
    r.Required("min_context_tokens", &w.min_context_tokens, 256, kMaxTokens);
    r.Optional("requires", &w.required_caps);
    r.Optional("prefers", &w.preferred_caps);
    ReadSetMap(r, "weights", kMaxWeight, &w.weights);
    r.CheckUnknownKeys();
    if (diags->error_count() != before) continue;
    if (w.decode_min_tok_s > w.decode_target_tok_s) {
      diags->Error("out-of-range", r.WhereOf("decode_min_tok_s"),
                   absl::StrCat("decode_min_tok_s (", w.decode_min_tok_s,
                                ") is above decode_target_tok_s (", w.decode_target_tok_s, ")"),
                   "the minimum is the frustration floor, below the comfortable target");
    }
    if (w.ttft_max_ms < w.ttft_target_ms) {
      diags->Error("out-of-range", r.WhereOf("ttft_max_ms"),
                   absl::StrCat("ttft_max_ms (", w.ttft_max_ms, ") is below ttft_target_ms (",
                                w.ttft_target_ms, ")"));
    }
    if (w.min_context_tokens > w.context_tokens) {
      diags->Error("out-of-range", r.WhereOf("min_context_tokens"),
                   absl::StrCat("min_context_tokens (", w.min_context_tokens,
                                ") is above context_tokens (", w.context_tokens, ")"));
    }
    if (w.prompt_tokens + w.output_tokens > w.context_tokens) {
      diags->Error("out-of-range", r.WhereOf("prompt_tokens"),
                   absl::StrCat("prompt_tokens + output_tokens (", w.prompt_tokens + w.output_tokens,
                                ") do not fit in context_tokens (", w.context_tokens, ")"));
    }
    double total = 0;
    for (const SetWeight& sw : w.weights) total += sw.value;
    if (total <= 0) {
      diags->Error("no-weights", r.WhereOf("weights"),
                   absl::StrCat(label, " gives no rule set a weight above 0"),
                   "add `weights: {quality: 0.4, fit: 0.2, ...}`");
    }
    CheckNames(w.id, w.aliases, w.where, "workload", &names, diags);
    out->push_back(std::move(w));
  }
}

void ReadModes(YamlNode list, const std::string& file, Diagnostics* diags,
               std::vector<Mode>* out) {
  std::map<std::string, std::string> names;
  for (YamlNode item : list) {
    Mode m;
    m.where = item.Where(file);
    std::string label = "mode";
    if (item.Get("id").IsScalar()) {
      label = absl::StrCat("mode `", item.Get("id").Scalar(), "`");
    }
    MapReader r(item, file, diags, label);
    if (!r.ok()) continue;
    int before = diags->error_count();
    r.Required("id", &m.id);
    r.Required("name", &m.name);
    r.Optional("aliases", &m.aliases);
    r.Optional("description", &m.description);
    ReadSetMap(r, "multipliers", kMaxWeight, &m.multipliers);
    r.Optional("concurrency", &m.concurrency, 1, 4096);
    std::vector<std::string> counts;
    if (r.Optional("gpu_counts", &counts)) {
      for (const std::string& c : counts) {
        int n = 0;
        if (!absl::SimpleAtoi(c, &n) || n < 1 || n > 64) {
          diags->Error("out-of-range", r.WhereOf("gpu_counts"),
                       absl::StrCat("gpu_counts of ", label, " must be whole numbers 1-64, got `", c, "`"));
          continue;
        }
        m.gpu_counts.push_back(n);
      }
      if (!std::is_sorted(m.gpu_counts.begin(), m.gpu_counts.end())) {
        diags->Error("out-of-range", r.WhereOf("gpu_counts"),
                     absl::StrCat("gpu_counts of ", label, " must be in increasing order"));
      }
    }
    r.Enum("parallelism", {"layer", "tensor"}, &m.parallelism, false);
    r.Optional("serving_runtime", &m.serving_runtime);
    r.Optional("decode_target_scale", &m.decode_target_scale, 0.01, 100);
    r.Optional("ttft_target_scale", &m.ttft_target_scale, 0.01, 100);
    r.Optional("context_scale", &m.context_scale, 0.01, 100);
    r.CheckUnknownKeys();
    if (diags->error_count() != before) continue;
    CheckNames(m.id, m.aliases, m.where, "mode", &names, diags);
    out->push_back(std::move(m));
  }
}

void ReadGrades(MapReader& top, YamlNode list, Diagnostics* diags, GradeScale* out) {
  const std::string& file = top.file();
  YamlNode range = top.Child("set_score_range");
  if (range.IsDefined() && !range.IsNull()) {
    double lo = 0, hi = 0;
    if (!range.IsSequence() || range.size() != 2 ||
        ParseDecimal(range.Item(0).Scalar(), &lo) != NumberParse::kOk ||
        ParseDecimal(range.Item(1).Scalar(), &hi) != NumberParse::kOk || !(lo < hi)) {
      diags->Error("wrong-type", range.Where(file),
                   "`set_score_range` must be two increasing numbers, like [0, 100]");
    } else {
      out->set_score_min = lo;
      out->set_score_max = hi;
    }
  }
  top.Optional("cap_margin", &out->cap_margin, 0, 10);
  top.Optional("quality_ranking_z", &out->quality_ranking_z, 0, 5);
  top.Optional("reason_order", &out->reason_order);
  top.Optional("pick_quants", &out->pick_quants);
  std::set<std::string> letters;
  for (YamlNode item : list) {
    MapReader r(item, file, diags, "grade");
    if (!r.ok()) continue;
    Grade g;
    int before = diags->error_count();
    r.Required("letter", &g.letter);
    r.Required("min_score", &g.min_score, 0, 100);
    r.Optional("label", &g.label);
    r.Optional("description", &g.description);
    r.CheckUnknownKeys();
    if (diags->error_count() != before) continue;
    if (!letters.insert(g.letter).second) {
      diags->Error("duplicate-id", r.WhereOf("letter"),
                   absl::StrCat("grade `", g.letter, "` is listed twice"));
      continue;
    }
    if (!out->grades.empty() && g.min_score >= out->grades.back().min_score) {
      diags->Error("out-of-range", r.WhereOf("min_score"),
                   absl::StrCat("grade `", g.letter, "` must start below grade `",
                                out->grades.back().letter, "` (", out->grades.back().min_score, ")"),
                   "list grades best first, each min_score lower than the one before");
    }
    out->grades.push_back(std::move(g));
  }
  if (out->grades.empty()) {
    diags->Error("missing-field", top.Where(), "the grade scale has no grades");
  } else if (out->grades.back().min_score != 0) {
    diags->Error("out-of-range", top.WhereOf("grades"),
                 absl::StrCat("the last grade (`", out->grades.back().letter,
                              "`) must have min_score 0 so every score gets a grade"));
  }
}

template <class T>
ProfileLookup<T> Find(const std::vector<T>& items, absl::string_view name) {
  ProfileLookup<T> out;
  std::string key = NormalizeName(name);
  std::vector<std::string> ids;
  for (const T& item : items) {
    ids.push_back(item.id);
    if (NormalizeName(item.id) == key) out.found = &item;
    for (const std::string& a : item.aliases) {
      if (NormalizeName(a) == key) out.found = &item;
    }
    if (out.found) return out;
  }
  out.suggestions = ClosestMatches(name, ids);
  return out;
}

}  // namespace

double Workload::WeightOf(absl::string_view set) const {
  for (const SetWeight& w : weights) {
    if (w.set == set) return w.value;
  }
  return 0;
}

double Mode::MultiplierOf(absl::string_view set) const {
  for (const SetWeight& w : multipliers) {
    if (w.set == set) return w.value;
  }
  return 1;
}

int GradeScale::IndexFor(double score) const {
  for (size_t i = 0; i < grades.size(); ++i) {
    if (score >= grades[i].min_score) return static_cast<int>(i);
  }
  return static_cast<int>(grades.size()) - 1;
}

int GradeScale::IndexOf(absl::string_view letter) const {
  for (size_t i = 0; i < grades.size(); ++i) {
    if (grades[i].letter == letter) return static_cast<int>(i);
  }
  return -1;
}

double GradeScale::CeilingFor(int index) const {
  if (index <= 0) return set_score_max;
  return grades[index - 1].min_score - cap_margin;
}

std::unique_ptr<Profiles> Profiles::Load(const FileSource& source, Diagnostics* diags) {
  const char* kFiles[] = {"profiles/workloads.yaml", "profiles/modes.yaml", "profiles/grades.yaml"};
  std::string texts[3];
  std::string names[3];
  bool ok = true;
  for (int i = 0; i < 3; ++i) {
    names[i] = source.DisplayName(kFiles[i]);
    absl::StatusOr<std::string> text = source.Read(kFiles[i]);
    if (!text.ok()) {
      diags->Error("missing-file", Location{names[i], 0, 0},
                   absl::StrCat("cannot read ", names[i], ": ", text.status().message()));
      ok = false;
      continue;
    }
    texts[i] = *std::move(text);
  }
  if (!ok) return nullptr;
  return Parse(texts[0], texts[1], texts[2], diags, names[0], names[1], names[2]);
}

std::unique_ptr<Profiles> Profiles::Parse(absl::string_view workloads, absl::string_view modes,
                                          absl::string_view grades, Diagnostics* diags,
                                          absl::string_view workloads_name,
                                          absl::string_view modes_name,
                                          absl::string_view grades_name) {
  auto p = std::make_unique<Profiles>();
  int before = diags->error_count();

  if (auto node = ParseYaml(workloads, workloads_name, diags)) {
    MapReader top(node->root(), std::string(workloads_name), diags, "the workloads file",
                  "rules/README.md");
    YamlNode list = ReadFrame(top, "workloads", "workloads");
    YamlNode phrases = top.Child("capability_phrases");
    if (phrases.IsMap()) {
      for (size_t i = 0; i < phrases.size(); ++i) {
        if (phrases.Key(i).IsScalar() && phrases.Value(i).IsScalar()) {
          p->capability_phrases_.emplace_back(phrases.Key(i).Scalar(), phrases.Value(i).Scalar());
        } else {
          diags->Error("wrong-type", phrases.Key(i).Where(top.file()),
                       "`capability_phrases` maps a capability id to a phrase: `tools: tool calling`");
        }
      }
    } else if (phrases.IsDefined() && !phrases.IsNull()) {
      diags->Error("wrong-type", phrases.Where(top.file()),
                   "`capability_phrases` must be a map like {tools: tool calling}");
    }
    top.CheckUnknownKeys();
    if (list.IsDefined()) ReadWorkloads(list, top.file(), diags, &p->workloads_);
    if (p->workloads_.empty() && diags->error_count() == before) {
      diags->Error("missing-field", top.Where(), "no workloads are defined");
    }
  }

  if (auto node = ParseYaml(modes, modes_name, diags)) {
    MapReader top(node->root(), std::string(modes_name), diags, "the modes file",
                  "rules/README.md");
    std::string default_mode;
    top.Required("default", &default_mode);
    YamlNode list = ReadFrame(top, "modes", "modes");
    top.CheckUnknownKeys();
    if (list.IsDefined()) ReadModes(list, top.file(), diags, &p->modes_);
    if (!default_mode.empty()) {
      ProfileLookup<Mode> found = Find(p->modes_, default_mode);
      if (found) {
        p->default_mode_ = found.found - p->modes_.data();
      } else if (!p->modes_.empty() || diags->error_count() == before) {
        diags->Error("unknown-mode", top.WhereOf("default"),
                     absl::StrCat("default mode `", default_mode, "` is not defined"),
                     DidYouMean(found.suggestions));
      }
    }
    if (p->modes_.empty() && diags->error_count() == before) {
      diags->Error("missing-field", top.Where(), "no modes are defined");
    }
  }

  if (auto node = ParseYaml(grades, grades_name, diags)) {
    MapReader top(node->root(), std::string(grades_name), diags, "the grades file",
                  "rules/README.md");
    YamlNode list = ReadFrame(top, "grades", "grades");
    if (list.IsDefined()) ReadGrades(top, list, diags, &p->grades_);
    top.CheckUnknownKeys();
  }

  if (diags->error_count() != before) return nullptr;
  return p;
}

absl::string_view Profiles::CapabilityPhrase(absl::string_view capability) const {
  for (const auto& [id, phrase] : capability_phrases_) {
    if (id == capability) return phrase;
  }
  return capability;
}

ProfileLookup<Workload> Profiles::FindWorkload(absl::string_view name) const {
  return Find(workloads_, name);
}

ProfileLookup<Mode> Profiles::FindMode(absl::string_view name) const { return Find(modes_, name); }

std::vector<std::string> Profiles::SetNames() const {
  std::set<std::string> all;
  for (const Workload& w : workloads_) {
    for (const SetWeight& sw : w.weights) all.insert(sw.set);
  }
  for (const Mode& m : modes_) {
    for (const SetWeight& sw : m.multipliers) all.insert(sw.set);
  }
  return {all.begin(), all.end()};
}

}  // namespace fitrank
