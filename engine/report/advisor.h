// Advice items for one model on one setup (the fit report's "what to do about it"), from the
// estimate and the other quantizations' estimates, plus the advice ids of the scoring rules
// that fired. Every number in an item comes from the estimator; titles and fixed details are
// data (engine/report/reports.yaml `advice`), and so are the sentences with numbers (its
// `fit.advice.*` notes); which items apply is decided here, by the estimator's fit kinds and
// the workload profile's speed targets.
#ifndef FITRANK_ENGINE_REPORT_ADVISOR_H_
#define FITRANK_ENGINE_REPORT_ADVISOR_H_

#include <vector>

#include "engine/report/report.h"
#include "engine/report/env.h"
#include "engine/report/fit.h"
#include "engine/report/gpu.h"
#include "engine/report/upgrade.h"

namespace fitrank {

// Items, most important first:
//   does-not-fit, offload-active, little-headroom, smaller-quant, remove-offload,
//   buy-headroom, add-host-ram, context-limited, slow-for-workload.
// `quants` are the report's quantization rows (for "a smaller quant fits natively").
std::vector<AdviceItem> FitAdvice(const ReportEnv& env, const Setup& setup, const Model& model,
                                  const Quant& quant, const Estimate& e,
                                  const WorkloadShape& shape, const std::vector<QuantRow>& quants);

// Appends an item for each advice id of `rule_advice` (the ids of the scoring rules that fired,
// engine/report/grader.h Graded::advice) that `items` does not have yet, and whose
// `covered_by` ids (reports.yaml) are not there either; title and detail from reports.yaml
// (the id itself and no detail for an id it does not know). Order kept; no duplicates.
void MergeRuleAdvice(const ReportEnv& env, const std::vector<std::string>& rule_advice,
                     std::vector<AdviceItem>* items);

// (The GPU page's strengths and considerations are rules: engine/report_traits.h.)

// Buying advice, in two parts so that the GPU page can build the first beside its other
// blocks: the verdict from "runs N of the top M models well" (policy), which needs nothing
// else of the page (most of the work: the top models graded); then the itinerary of `upgrade`
// as sentences. What limits first and the red flags are trait rules (engine/report/traits.h).
BuyingAdvice BuildBuyingVerdict(const ReportEnv& env, const Setup& setup, const Mode& mode);
void AddItinerary(const ReportPolicy& policy, const UpgradeReport& upgrade, BuyingAdvice* b);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_REPORT_ADVISOR_H_
