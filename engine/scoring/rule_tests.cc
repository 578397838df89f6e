#include "engine/scoring/rule_tests.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "base/numbers.h"
#include "base/text.h"
#include "base/yaml_reader.h"
#include "re2/re2.h"

namespace fitrank {
namespace {

constexpr absl::string_view kSchema = "fitrank.rule-tests/v1";

// "x" or [x, y] or "all": the words of a test field.
std::vector<std::string> WordsOf(YamlNode n) {
  std::vector<std::string> out;
  if (n.IsScalar()) {
    out.emplace_back(n.Scalar());
  } else if (n.IsSequence()) {
    for (YamlNode x : n) {
      if (x.IsScalar()) out.emplace_back(x.Scalar());
    }
  }
  return out;
}

// "B..D", "C", "..C": grade indexes best..worst.
bool ParseGradeRange(absl::string_view text, const GradeScale& scale, int* best, int* worst) {
  size_t dots = text.find("..");
  std::string a(dots == absl::string_view::npos ? text : text.substr(0, dots));
  std::string b(dots == absl::string_view::npos ? text : text.substr(dots + 2));
  *best = a.empty() ? 0 : scale.IndexOf(a);
  *worst = b.empty() ? static_cast<int>(scale.grades.size()) - 1 : scale.IndexOf(b);
  if (*best < 0 || *worst < 0) return false;
  if (*best > *worst) std::swap(*best, *worst);
  return true;
}

// "40..70", "..70", "40..": bounds.
bool ParseScoreRange(absl::string_view text, RuleTest* t) {
  size_t dots = text.find("..");
  if (dots == absl::string_view::npos) return false;
  absl::string_view a = absl::StripAsciiWhitespace(text.substr(0, dots));
  absl::string_view b = absl::StripAsciiWhitespace(text.substr(dots + 2));
  // Plain decimal and finite only (base/numbers.h): "nan..70" or "0x10.." is not a range.
  double lo = 0, hi = 0;
  if (!a.empty() && ParseDecimal(a, &lo) != NumberParse::kOk) return false;
  if (!b.empty() && ParseDecimal(b, &hi) != NumberParse::kOk) return false;
  if (!a.empty() && !b.empty() && lo > hi) return false;
  t->has_score_min = !a.empty();
  t->has_score_max = !b.empty();
  if (t->has_score_min) t->score_min = lo;
  if (t->has_score_max) t->score_max = hi;
  return t->has_score_min || t->has_score_max;
}

class TestReader {
 public:
  TestReader(const Evaluator& e, std::string file, Diagnostics* d)
      : eval_(e), file_(std::move(file)), diags_(d) {}

  const Model* ModelNamed(const std::string& name, const Location& where) {
    Lookup<Model> r = eval_.catalog().FindModel(name);
    if (r.found) return r.found;
    std::string hint = DidYouMean(r.suggestions);
    if (!r.ambiguous.empty()) {
      std::vector<std::string> ids;
      for (const Model* m : r.ambiguous) ids.push_back(m->id);
      hint = absl::StrCat("it matches ", QuotedList(ids), ": use an id");
    }
    diags_->Error("unknown-model", where, absl::StrCat("unknown model `", name, "`"), hint);
    return nullptr;
  }

  void Gpus(YamlNode n, RuleTest* t) {
    Location where = n.Where(file_);
    std::vector<std::string> names = WordsOf(n);
    if (names.size() == 1 && names[0] == "all") {
      for (const Gpu& g : eval_.catalog().gpus()) t->gpus.push_back(&g);
      return;
    }
    for (const std::string& name : names) {
      Lookup<Gpu> r = eval_.catalog().FindGpu(name);
      if (r.found) {
        t->gpus.push_back(r.found);
        continue;
      }
      std::string hint = DidYouMean(r.suggestions);
      if (!r.ambiguous.empty()) {
        std::vector<std::string> ids;
        for (const Gpu* g : r.ambiguous) ids.push_back(g->id);
        hint = absl::StrCat("it matches ", QuotedList(ids), ": use an id");
      }
      diags_->Error("unknown-gpu", where, absl::StrCat("unknown GPU `", name, "`"), hint);
    }
  }

  template <class T>
  void Named(YamlNode n, const std::vector<T>& all,
             ProfileLookup<T> (Profiles::*find)(absl::string_view) const, absl::string_view what,
             std::vector<const T*>* out) {
    Location where = n.Where(file_);
    for (const std::string& name : WordsOf(n)) {
      if (name == "all") {
        for (const T& x : all) out->push_back(&x);
        continue;
      }
      ProfileLookup<T> r = (eval_.profiles().*find)(name);
      if (r.found) {
        out->push_back(r.found);
      } else {
        diags_->Error(absl::StrCat("unknown-", what), where,
                      absl::StrCat("unknown ", what, " `", name, "`"), DidYouMean(r.suggestions));
      }
    }
  }

  void RuleIds(MapReader& r, absl::string_view key, std::vector<std::string>* out) {
    if (!r.Optional(key, out)) return;
    for (const std::string& id : *out) {
      if (eval_.rules().FindRule(id) >= 0) continue;
      std::vector<std::string> ids;
      for (const rules::RuleInfo& info : eval_.rules().rules()) ids.push_back(info.id);
      diags_->Error("unknown-rule", r.WhereOf(key), absl::StrCat("no rule has the id `", id, "`"),
                    DidYouMean(ClosestMatches(id, ids)));
    }
  }

  void Expect(YamlNode n, RuleTest* t) {
    MapReader r(n, file_, diags_, absl::StrCat("the expectations of `", t->name, "`"));
    if (!r.ok()) return;
    const GradeScale& scale = eval_.profiles().grades();
    std::string text;
    if (r.Optional("grade", &text) &&
        !ParseGradeRange(text, scale, &t->grade_best, &t->grade_worst)) {
      diags_->Error("bad-expectation", r.WhereOf("grade"),
                    absl::StrCat("`grade: ", text, "` is not a grade or a range like B..D"));
    }
    if (r.Optional("top_grade", &text) &&
        !ParseGradeRange(text, scale, &t->top_grade_best, &t->top_grade_worst)) {
      diags_->Error("bad-expectation", r.WhereOf("top_grade"),
                    absl::StrCat("`top_grade: ", text, "` is not a grade or a range like A..B"));
    }
    if (r.Optional("score", &text) && !ParseScoreRange(text, t)) {
      diags_->Error("bad-expectation", r.WhereOf("score"),
                    absl::StrCat("`score: ", text, "` is not a range like 40..70"));
    }
    RuleIds(r, "fires", &t->fires);
    RuleIds(r, "not_fires", &t->not_fires);
    bool excluded = false;
    if (r.Optional("excluded", &excluded)) t->excluded = excluded ? 1 : 0;
    if (r.Optional("ranks_above", &text)) t->ranks_above = ModelNamed(text, r.WhereOf("ranks_above"));
    std::vector<std::string> names;
    if (r.Optional("top_pick", &names)) {
      for (const std::string& m : names) {
        if (const Model* model = ModelNamed(m, r.WhereOf("top_pick"))) t->top_pick.push_back(model);
      }
    }
    YamlNode never = r.Child("never_recommend");
    if (never.IsDefined() && !never.IsNull()) {
      t->has_never = true;
      MapReader nr(never, file_, diags_, "`never_recommend`");
      if (nr.Optional("models", &names)) {
        for (const std::string& m : names) {
          if (const Model* model = ModelNamed(m, nr.WhereOf("models"))) t->never_models.push_back(model);
        }
      }
      nr.Optional("params_below_b", &t->never_params_below_b, 0, 1e5);
      if (nr.Optional("match", &t->never_match)) {
        RE2 re(t->never_match, RE2::Quiet);
        if (!re.ok()) {
          diags_->Error("bad-regex", nr.WhereOf("match"),
                        absl::StrCat("RE2 rejects `", t->never_match, "`: ", re.error()));
        }
      }
      nr.Optional("top", &t->never_top, 1, 1000);
      nr.CheckUnknownKeys();
    }
    r.CheckUnknownKeys();
    bool per_model = t->grade_best >= 0 || t->has_score_min || t->has_score_max ||
                     !t->fires.empty() || !t->not_fires.empty() || t->excluded >= 0 ||
                     t->ranks_above != nullptr;
    if (per_model && t->model == nullptr) {
      diags_->Error("missing-field", t->where,
                    absl::StrCat("test `", t->name, "` expects things of a model but names none"),
                    "add `model: <id>`");
    }
  }

  std::vector<RuleTest> Read(absl::string_view content) {
    std::vector<RuleTest> out;
    std::unique_ptr<YamlTree> tree = ParseYaml(content, file_, diags_);
    if (tree == nullptr) return out;
    MapReader top(tree->root(), file_, diags_, "the rule-test file", "rules/README.md");
    std::string schema;
    if (top.Required("schema", &schema) && schema != kSchema) {
      diags_->Error("unknown-schema", top.WhereOf("schema"),
                    absl::StrCat("unknown schema `", schema, "`"),
                    absl::StrCat("rule tests use `", kSchema, "`"));
    }
    YamlNode tests = top.Child("tests");
    top.CheckUnknownKeys();
    if (!tests.IsSequence()) {
      diags_->Error("missing-field", top.Where(), "the file has no `tests:` list");
      return out;
    }
    for (YamlNode item : tests) {
      RuleTest t;
      t.where = item.Where(file_);
      MapReader r(item, file_, diags_, "test");
      if (!r.ok()) continue;
      r.Required("name", &t.name);
      YamlNode gpu = r.Child("gpu");
      if (!gpu.IsDefined()) {
        diags_->Error("missing-field", t.where, absl::StrCat("test `", t.name, "` has no `gpu`"));
      } else {
        Gpus(gpu, &t);
      }
      r.Optional("count", &t.count, 1, kMaxDevices);
      r.Optional("ram", &t.ram_gb, 1, 65536);
      std::string text;
      if (r.Optional("model", &text)) t.model = ModelNamed(text, r.WhereOf("model"));
      if (r.Optional("quant", &text)) {
        Lookup<Quant> q = eval_.catalog().FindQuant(text);
        if (q.found) {
          t.quant = q.found;
        } else {
          diags_->Error("unknown-quant", r.WhereOf("quant"), absl::StrCat("unknown quantization `", text, "`"),
                        DidYouMean(q.suggestions));
        }
      }
      YamlNode w = r.Child("workload");
      if (w.IsDefined()) {
        Named(w, eval_.profiles().workloads(), &Profiles::FindWorkload, "workload", &t.workloads);
      } else {
        t.workloads.push_back(&eval_.profiles().workloads().front());
      }
      YamlNode m = r.Child("mode");
      if (m.IsDefined()) {
        Named(m, eval_.profiles().modes(), &Profiles::FindMode, "mode", &t.modes);
      } else {
        t.modes.push_back(&eval_.profiles().default_mode());
      }
      YamlNode expect = r.Child("expect");
      if (!expect.IsDefined()) {
        diags_->Error("missing-field", t.where, absl::StrCat("test `", t.name, "` has no `expect`"));
      } else {
        Expect(expect, &t);
      }
      r.CheckUnknownKeys();
      out.push_back(std::move(t));
    }
    return out;
  }

 private:
  const Evaluator& eval_;
  std::string file_;
  Diagnostics* diags_;
};

std::string GradeRangeText(const GradeScale& s, int best, int worst) {
  if (best == worst) return s.grades[best].letter;
  return absl::StrCat(s.grades[best].letter, "..", s.grades[worst].letter);
}

class Runner {
 public:
  explicit Runner(const Evaluator& e)
      : eval_(e), scratch_(e), exercised_(e.rules().rule_count(), 0) {}

  void MarkFired(const Query& q, const CandidateEval& c, std::vector<uint8_t>* fired = nullptr) {
    CandidateExplanation ex = eval_.Explain(q, c);
    if (fired) fired->assign(eval_.rules().rule_count(), 0);
    for (const rules::RuleTrace& t : ex.trace.rules) {
      if (!t.fired) continue;
      exercised_[t.rule] = 1;
      if (fired) (*fired)[t.rule] = 1;
    }
  }

  // The candidate of `model` a test looks at: its `quant`, else its best (or closest).
  CandidateEval CandidateOf(const Query& q, const Model& model, const Quant* quant) {
    if (quant != nullptr) {
      return eval_.Evaluate(q, model, static_cast<int>(quant - eval_.catalog().quants().data()),
                            &scratch_);
    }
    ModelEval me = eval_.EvaluateModel(q, model, &scratch_);
    return me.quants[me.best >= 0 ? me.best : me.closest];
  }

  void RunCase(const RuleTest& t, const Query& q, const std::string& label, RuleTestResult* out) {
    const GradeScale& scale = eval_.profiles().grades();
    auto fail = [&](std::string what) { out->failures.push_back(absl::StrCat(label, ": ", what)); };
    if (t.model != nullptr) {
      CandidateEval c = CandidateOf(q, *t.model, t.quant);
      std::vector<uint8_t> fired;
      MarkFired(q, c, &fired);
      std::string who = absl::StrCat(t.model->id, " at ", c.quant->id);
      const std::string& got = scale.grades[c.score.grade].letter;
      if (t.grade_best >= 0 && (c.score.grade < t.grade_best || c.score.grade > t.grade_worst)) {
        fail(absl::StrFormat("%s: expected grade %s, got %s (score %.1f)", who,
                             GradeRangeText(scale, t.grade_best, t.grade_worst), got, c.score.score));
      }
      if (t.has_score_min && c.score.score < t.score_min) {
        fail(absl::StrFormat("%s: expected score >= %g, got %.1f", who, t.score_min, c.score.score));
      }
      if (t.has_score_max && c.score.score > t.score_max) {
        fail(absl::StrFormat("%s: expected score <= %g, got %.1f", who, t.score_max, c.score.score));
      }
      for (const std::string& id : t.fires) {
        if (!fired[eval_.rules().FindRule(id)]) fail(absl::StrCat(who, ": expected `", id, "` to fire; it did not"));
      }
      for (const std::string& id : t.not_fires) {
        if (fired[eval_.rules().FindRule(id)]) fail(absl::StrCat(who, ": expected `", id, "` not to fire; it did"));
      }
      if (t.excluded >= 0 && c.score.gated != (t.excluded == 1)) {
        fail(absl::StrCat(who, t.excluded ? ": expected it to be excluded; it is not"
                                          : ": expected it not to be excluded; it is"));
      }
      if (t.ranks_above != nullptr) {
        CandidateEval other = CandidateOf(q, *t.ranks_above, nullptr);
        MarkFired(q, other);
        bool above = !c.score.gated && (other.score.gated || RanksBefore(c, other));
        if (!above) {
          fail(absl::StrFormat("expected %s (%s, %.1f) to rank above %s (%s, %.1f)", t.model->id,
                               got, c.score.score, t.ranks_above->id,
                               scale.grades[other.score.grade].letter, other.score.score));
        }
      }
    }
    if (!t.top_pick.empty() || t.top_grade_best >= 0 || t.has_never) {
      Ranking r = eval_.Rank(q, &scratch_);
      if (r.ranked.empty()) {
        fail("nothing runs, so nothing is recommended");
        return;
      }
      const CandidateEval& top = r.ranked[0];
      MarkFired(q, top);
      if (!t.top_pick.empty() &&
          std::find(t.top_pick.begin(), t.top_pick.end(), top.model) == t.top_pick.end()) {
        std::vector<std::string> ids;
        for (const Model* m : t.top_pick) ids.push_back(m->id);
        fail(absl::StrCat("expected the top pick to be one of ", absl::StrJoin(ids, ", "), "; it is ",
                          top.model->id, " at ", top.quant->id));
      }
      if (t.top_grade_best >= 0 &&
          (top.score.grade < t.top_grade_best || top.score.grade > t.top_grade_worst)) {
        fail(absl::StrCat("expected the top pick to grade ",
                          GradeRangeText(scale, t.top_grade_best, t.top_grade_worst), "; ",
                          top.model->id, " grades ", scale.grades[top.score.grade].letter));
      }
      if (t.has_never) {
        std::unique_ptr<RE2> re;
        if (!t.never_match.empty()) re = std::make_unique<RE2>(t.never_match, RE2::Quiet);
        for (int i = 0; i < t.never_top && i < static_cast<int>(r.ranked.size()); ++i) {
          const Model* m = r.ranked[i].model;
          bool hit = std::find(t.never_models.begin(), t.never_models.end(), m) != t.never_models.end() ||
                     (t.never_params_below_b > 0 && m->params_b < t.never_params_below_b) ||
                     (re && re->ok() && (RE2::PartialMatch(m->id, *re) || RE2::PartialMatch(m->name, *re)));
          if (hit) {
            MarkFired(q, r.ranked[i]);
            fail(absl::StrFormat("%s (%.1fB) is pick #%d, among the top %d it must stay out of",
                                 m->id, m->params_b, i + 1, t.never_top));
          }
        }
      }
    }
  }

  RuleTestResult Run(const RuleTest& t) {
    RuleTestResult out;
    out.name = t.name;
    out.where = t.where;
    for (const Gpu* gpu : t.gpus) {
      SetupOptions options;
      options.interconnects = &eval_.catalog().interconnects();
      if (t.ram_gb > 0) options.host_ram_gb = t.ram_gb;
      absl::StatusOr<Setup> setup = BuildSetup(eval_.estimator(), {{gpu, t.count}}, options);
      if (!setup.ok()) {
        out.failures.push_back(absl::StrCat(gpu->name, ": ", setup.status().message()));
        continue;
      }
      for (const Workload* w : t.workloads) {
        for (const Mode* m : t.modes) {
          absl::StatusOr<std::unique_ptr<Query>> q = eval_.Prepare(*setup, *w, *m);
          std::string label = absl::StrCat(setup->label, " / ", w->id, " / ", m->id);
          ++out.cases;
          if (!q.ok()) {
            out.failures.push_back(absl::StrCat(label, ": ", q.status().message()));
            continue;
          }
          RunCase(t, **q, label, &out);
        }
      }
    }
    return out;
  }

  const std::vector<uint8_t>& exercised() const { return exercised_; }

 private:
  const Evaluator& eval_;
  Evaluator::Scratch scratch_;
  std::vector<uint8_t> exercised_;
};

}  // namespace

std::vector<RuleTest> ReadRuleTests(absl::string_view content, absl::string_view file,
                                    const Evaluator& evaluator, Diagnostics* diags) {
  return TestReader(evaluator, std::string(file), diags).Read(content);
}

RuleTestReport RunRuleTests(const Evaluator& evaluator, const std::vector<RuleTest>& tests) {
  RuleTestReport report;
  Runner runner(evaluator);
  for (const RuleTest& t : tests) {
    report.results.push_back(runner.Run(t));
    (report.results.back().passed() ? report.passed : report.failed)++;
  }
  const auto& rules = evaluator.rules().rules();
  for (size_t i = 0; i < rules.size(); ++i) {
    if (!runner.exercised()[i]) report.unexercised.push_back({rules[i].id, rules[i].where});
  }
  return report;
}

nlohmann::ordered_json RuleTestFileSchema() {
  using J = nlohmann::ordered_json;
  J words = {{"oneOf", {{{"type", "string"}}, {{"type", "array"}, {"items", {{"type", "string"}}}}}}};
  J expect = {
      {"type", "object"},
      {"properties",
       {{"grade", {{"type", "string"}, {"description", "A letter or best..worst, e.g. B..D"}}},
        {"score", {{"type", "string"}, {"description", "min..max, e.g. 40..70"}}},
        {"fires", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"not_fires", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"excluded", {{"type", "boolean"}}},
        {"ranks_above", {{"type", "string"}, {"description", "A model `model` must rank above"}}},
        {"top_pick", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"top_grade", {{"type", "string"}}},
        {"never_recommend",
         {{"type", "object"},
          {"properties", {{"models", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                          {"params_below_b", {{"type", "number"}}},
                          {"match", {{"type", "string"}}},
                          {"top", {{"type", "integer"}, {"minimum", 1}}}}},
          {"additionalProperties", false}}}}},
      {"additionalProperties", false}};
  J test = {{"type", "object"},
            {"properties", {{"name", {{"type", "string"}}},
                            {"gpu", words},
                            {"count", {{"type", "integer"}, {"minimum", 1}}},
                            {"ram", {{"type", "number"}}},
                            {"model", {{"type", "string"}}},
                            {"quant", {{"type", "string"}}},
                            {"workload", words},
                            {"mode", words},
                            {"expect", expect}}},
            {"required", {"name", "gpu", "expect"}},
            {"additionalProperties", false}};
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "fitrank rule tests"},
          {"type", "object"},
          {"properties", {{"schema", {{"const", std::string(kSchema)}}},
                          {"tests", {{"type", "array"}, {"items", test}}}}},
          {"required", {"schema", "tests"}},
          {"additionalProperties", false}};
}

}  // namespace fitrank
