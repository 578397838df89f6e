// BuildBuyingVerdict and AddItinerary (declared in engine/report/advisor.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/report/advisor.h"
#include "engine/report/grader.h"

namespace fitrank {

BuyingAdvice BuildBuyingVerdict(const ReportEnv& env, const Setup& setup, const Mode& mode) {
  const ReportPolicy& pol = *env.policy;
  BuyingAdvice b;
  std::vector<const Model*> top = TopModels(env, pol.top_models_count);
  b.top_n = static_cast<int>(top.size());
  const Workload& workload = *pol.top_models_workload;
  WorkloadShape shape = ShapeFor(workload, mode);
  int native = 0, slow = 0;
  const int min_grade = pol.top_models_min_grade_index;
  for (const Model* m : top) {
    Graded g;
    const Quant* q = env.grader->BestQuant(setup, *m, workload, mode, &g, Grader::Detail::kScore);
    const bool well =
        q != nullptr && !g.excluded && g.grade_index >= 0 && g.grade_index <= min_grade;
    const Quant* cq = pol.count_quant.found;
    if (cq != nullptr) {
      LlmRun run = RunLlm(env, setup, *m, *cq, shape);
      bool nat = run.estimate.runs_natively();
      native += nat;
      slow += nat && run.estimate.decode_tok_s < shape.decode_target_tok_s;
    }
    b.runs_well += well;
  }
  b.top_native = native;
  const VerdictLevel& v = pol.VerdictFor(b.runs_well, b.top_n);
  b.verdict_id = v.id;
  b.verdict = v.text;
  b.summary = pol.Note("gpu.top-models", {{"runs_well", b.runs_well},
                                          {"top_n", b.top_n},
                                          {"min_grade", pol.top_models_min_grade->letter},
                                          {"workload", shape.workload->name}});

  b.top_native_slow = slow;
  b.decode_target_tok_s = shape.decode_target_tok_s;
  return b;
}

void AddItinerary(const ReportPolicy& pol, const UpgradeReport& upgrade, BuyingAdvice* b) {
  for (const ItineraryStep& st : upgrade.itinerary) {
    b->itinerary.push_back(pol.Note("gpu.itinerary-step", {{"action", st.option.action},
                                                            {"price_usd", st.option.price_usd},
                                                            {"why", st.why}}));
  }
}

}  // namespace fitrank
