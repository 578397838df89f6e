#include "engine/report/advisor.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "base/quantities.h"

namespace fitrank {

std::vector<AdviceItem> FitAdvice(const ReportEnv& env, const Setup& setup, const Model& model,
                                  const std::string& quant_id, const Estimate& e,
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
    if (!q.supported || q.quant == quant_id || !IsNative(q.fit)) continue;
    if (smaller == nullptr || q.quality_retention > smaller->quality_retention) smaller = &q;
  }

  if (nofit) {
    items.push_back(
        {"does-not-fit", title("does-not-fit"),
         absl::StrFormat("It needs about %s; %s of accelerator memory plus %s of "
                         "host RAM is not enough.",
                         FormatGb(e.memory.total_gb), FormatGb(e.memory.usable_gb),
                         FormatCapacity(setup.host_ram_gb))});
  }
  if (offload) {
    items.push_back(
        {"offload-active", title("offload-active"),
         absl::StrFormat("About %.0f%% of the working set (%s) lives in host RAM, read at "
                         "host-memory speed for every token: that, not the GPU, sets the %.1f "
                         "tok/s.",
                         e.fit.offload_pct, FormatGb(e.fit.host_ram_gb), e.decode_tok_s)});
  }
  if (tight) {
    items.push_back(
        {"little-headroom", title("little-headroom"),
         absl::StrFormat("Only %.0f%% of usable memory is left: longer contexts, bigger batches "
                         "or other applications on the GPU can push it into offload.",
                         e.fit.headroom_pct)});
  }
  if ((offload || nofit || tight) && smaller != nullptr) {
    items.push_back(
        {"smaller-quant", absl::StrFormat("%s fits natively", smaller->quant),
         absl::StrFormat("At %s (%.0f%% of full quality) it needs %s and runs at about %.0f "
                         "tok/s with no offload.",
                         smaller->quant, smaller->quality_retention * 100,
                         FormatGb(smaller->memory_gb),
                         smaller->decode_tok_s)});
  }
  if (offload || nofit) {
    items.push_back(
        {"remove-offload", title("remove-offload"),
         absl::StrFormat("About %s more GPU or unified memory runs it natively; removing "
                         "offload helps far more than faster compute (see `fitrank upgrade`).",
                         FormatGb(over_gb))});
  }
  if (offload || tight) {
    items.push_back({"buy-headroom", title("buy-headroom"), detail("buy-headroom")});
  }
  if (offload && e.fit.host_ram_gb > 0) {
    double os_reserve = env.estimator->constants().Default(K::kHostOsReserveGb);
    double needed = e.fit.host_ram_gb + os_reserve;
    items.push_back(
        {"add-host-ram", title("add-host-ram"),
         absl::StrFormat("The offloaded part needs about %s of host RAM, plus about %s "
                         "for the system: %s in total (this setup assumes %s).",
                         FormatGb(e.fit.host_ram_gb), FormatGb(os_reserve), FormatGb(needed),
                         FormatCapacity(setup.host_ram_gb))});
  }
  if (!nofit && e.safe_context > 0 && e.safe_context < shape.context_tokens &&
      e.safe_context < model.max_context) {
    items.push_back(
        {"context-limited", title("context-limited"),
         absl::StrFormat("The safe context is %d tokens; the %s workload asks for %d.",
                         e.safe_context, shape.workload->name, shape.context_tokens)});
  }
  if (!nofit && e.decode_tok_s > 0 && e.decode_tok_s < shape.decode_min_tok_s) {
    items.push_back(
        {"slow-for-workload", title("slow-for-workload"),
         absl::StrFormat("%.1f tok/s is below the %.0f tok/s the %s workload needs to feel "
                         "usable (target %.0f tok/s).",
                         e.decode_tok_s, shape.decode_min_tok_s, shape.workload->name,
                         shape.decode_target_tok_s)});
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
