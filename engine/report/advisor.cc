#include "engine/report/advisor.h"

#include <algorithm>

#include "base/quantities.h"

namespace fitrank {

std::vector<AdviceItem> FitAdvice(const ReportEnv& env, const Setup& setup, const Model& model,
                                  const Quant& quant, const Estimate& e,
                                  const WorkloadShape& shape, const std::vector<QuantRow>& quants) {
  std::vector<AdviceItem> items;
  // Fixed wording is data (engine/report/reports.yaml `advice`); an id without it shows as itself.
  auto title = [&](const std::string& id) {
    const AdviceText* a = env.policy->AdviceFor(id);
    return a != nullptr ? a->title : id;
  };
  auto detail = [&](const std::string& id) {
    const AdviceText* a = env.policy->AdviceFor(id);
    return a != nullptr ? a->detail : std::string();
  };
  const double over_gb = std::max(0.0, e.memory.total_gb - e.memory.usable_gb);
  const bool offload = e.fit.kind == FitKind::kOffload;
  const bool nofit = e.fit.kind == FitKind::kNoFit;
  const bool tight = e.fit.kind == FitKind::kNativeTight;

  // The best-quality quant that fits natively, if it is not the one in use.
  const QuantRow* smaller = nullptr;
  for (const QuantRow& q : quants) {
    if (!q.supported || q.quant == &quant || !IsNative(q.fit)) continue;
    if (smaller == nullptr || q.quality_retention > smaller->quality_retention) smaller = &q;
  }

  const ReportPolicy& pol = *env.policy;
  if (nofit) {
    items.push_back({"does-not-fit", title("does-not-fit"),
                     pol.Note("fit.advice.does-not-fit",
                              {{"needs", FormatGb(e.memory.total_gb)},
                               {"usable", FormatGb(e.memory.usable_gb)},
                               {"host_ram", FormatCapacity(setup.host_ram_gb)}})});
  }
  if (offload) {
    items.push_back({"offload-active", title("offload-active"),
                     pol.Note("fit.advice.offload-active",
                              {{"offload_pct", e.fit.offload_pct},
                               {"offloaded", FormatGb(e.fit.host_ram_gb)},
                               {"decode_tok_s", e.decode_tok_s}})});
  }
  if (tight) {
    items.push_back({"little-headroom", title("little-headroom"),
                     pol.Note("fit.advice.little-headroom",
                              {{"headroom_pct", e.fit.headroom_pct}})});
  }
  if ((offload || nofit || tight) && smaller != nullptr) {
    items.push_back({"smaller-quant",
                     pol.Note("fit.advice.smaller-quant.title", {{"quant", smaller->quant->id}}),
                     pol.Note("fit.advice.smaller-quant",
                              {{"quant", smaller->quant->id},
                               {"quality_pct", smaller->quality_retention * 100},
                               {"needs", FormatGb(smaller->memory_gb)},
                               {"decode_tok_s", smaller->decode_tok_s}})});
  }
  if (offload || nofit) {
    items.push_back({"remove-offload", title("remove-offload"),
                     pol.Note("fit.advice.remove-offload", {{"missing", FormatGb(over_gb)}})});
  }
  if (offload || tight) {
    items.push_back({"buy-headroom", title("buy-headroom"), detail("buy-headroom")});
  }
  if (offload && e.fit.host_ram_gb > 0) {
    double os_reserve = env.estimator->constants().Default(K::kHostOsReserveGb);
    double needed = e.fit.host_ram_gb + os_reserve;
    items.push_back({"add-host-ram", title("add-host-ram"),
                     pol.Note("fit.advice.add-host-ram",
                              {{"offloaded", FormatGb(e.fit.host_ram_gb)},
                               {"os_reserve", FormatGb(os_reserve)},
                               {"total", FormatGb(needed)},
                               {"host_ram", FormatCapacity(setup.host_ram_gb)}})});
  }
  if (!nofit && e.safe_context > 0 && e.safe_context < shape.context_tokens &&
      e.safe_context < model.max_context) {
    items.push_back({"context-limited", title("context-limited"),
                     pol.Note("fit.advice.context-limited",
                              {{"safe_context", e.safe_context},
                               {"workload", shape.workload->name},
                               {"context", shape.context_tokens}})});
  }
  if (!nofit && e.decode_tok_s > 0 && e.decode_tok_s < shape.decode_min_tok_s) {
    items.push_back({"slow-for-workload", title("slow-for-workload"),
                     pol.Note("fit.advice.slow-for-workload",
                              {{"decode_tok_s", e.decode_tok_s},
                               {"decode_min_tok_s", shape.decode_min_tok_s},
                               {"workload", shape.workload->name},
                               {"decode_target_tok_s", shape.decode_target_tok_s}})});
  }
  return items;
}

void MergeRuleAdvice(const ReportEnv& env, const std::vector<std::string>& rule_advice,
                     std::vector<AdviceItem>* items) {
  auto present = [&](const std::string& id) {
    for (const AdviceItem& it : *items) {
      if (it.id == id) return true;
    }
    return false;
  };
  for (const std::string& id : rule_advice) {
    if (present(id)) continue;
    const AdviceText* a = env.policy->AdviceFor(id);
    bool covered = false;
    if (a != nullptr) {
      for (const std::string& c : a->covered_by) covered |= present(c);
    }
    if (covered) continue;
    items->push_back({id, a != nullptr ? a->title : id, a != nullptr ? a->detail : ""});
  }
}

}  // namespace fitrank
