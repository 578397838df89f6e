#include "cli/render_json.h"

#include "catalog/vocabulary.h"

#include <cmath>

namespace fitrank::cli {

Json JNum(double v, int decimals) {
  if (!std::isfinite(v)) return nullptr;
  double scale = std::pow(10.0, decimals);
  double r = std::round(v * scale) / scale;
  if (r == 0) r = 0;  // no "-0.0"
  if (decimals == 0 || r == std::floor(r)) {
    if (std::fabs(r) < 9e15) return static_cast<long long>(r);
  }
  return r;
}

std::string GradeLetter(const GradeScale* scale, int index) {
  if (scale == nullptr || index < 0 || index >= static_cast<int>(scale->grades.size())) return "";
  return scale->grades[index].letter;
}

Json SetupJson(const SetupView& s) {
  Json j;
  j["label"] = s.label;
  j["gpu_ids"] = s.gpu_ids;
  j["gpu_count"] = s.gpu_count;
  j["memory_gb"] = JNum(s.memory_gb, 1);
  j["usable_gb"] = JNum(s.usable_gb, 2);
  j["host_ram_gb"] = JNum(s.host_ram_gb, 1);
  j["bandwidth_gbps"] = JNum(s.bandwidth_gbps, 1);
  return j;
}

Json FitJson(const FitView& f) {
  Json j;
  j["kind"] = std::string(FitKindName(f.kind));
  j["headroom_pct"] = JNum(f.headroom_pct, 1);
  j["offload_pct"] = JNum(f.offload_pct, 1);
  j["host_ram_gb"] = JNum(f.host_ram_gb, 2);
  return j;
}

Json PickJson(const Pick& p, const GradeScale* grades) {
  Json j;
  j["rank"] = p.rank;
  if (p.workload != nullptr) j["workload"] = p.workload->id;
  j["model"] = NameOf(p.model);
  j["model_id"] = IdOf(p.model);
  j["params_b"] = JNum(p.model != nullptr ? p.model->params_b : 0, 2);
  j["active_params_b"] = JNum(p.model != nullptr ? p.model->active_params_b : 0, 2);
  j["quant"] = IdOf(p.quant);
  j["grade"] = GradeLetter(grades, p.grade_index);
  j["score"] = JNum(p.score, 1);
  j["quality"] = JNum(p.quality, 1);
  j["decode_tok_s"] = JNum(p.decode_tok_s, 1);
  j["decode_range"] = {{"low", JNum(p.decode_low_tok_s, 1)}, {"high", JNum(p.decode_high_tok_s, 1)}};
  j["ttft_ms"] = JNum(p.ttft_ms, 0);
  j["context"] = p.context;
  j["kv_cache"] = std::string(KvCacheTypeName(p.kv_cache));
  j["fit"] = FitJson(p.fit);
  j["runtime"] = IdOf(p.runtime);
  j["tags"] = p.tags;
  j["reasons"] = p.reasons;
  j["gpus"] = p.gpus;
  j["run_command"] = p.run_command;
  j["run_steps"] = p.run_steps;
  j["usable_note"] = p.usable_note;
  return j;
}

Json AdviceJson(const AdviceItem& a) {
  return Json{{"id", a.id}, {"title", a.title}, {"detail", a.detail}};
}

Json SpecsJson(const SpecsView& s) {
  const Gpu& g = s.gpu;
  Json j;
  j["id"] = g.id;
  j["name"] = g.name;
  j["vendor"] = g.vendor;
  j["family"] = g.family;
  j["architecture"] = g.architecture;
  j["segment"] = std::string(SegmentName(g.segment));
  j["form_factor"] = g.form_factor;
  j["memory_gb"] = JNum(g.memory_gb, 1);
  j["usable_gb"] = JNum(s.usable_gb, 2);
  j["memory_type"] = g.memory_type;
  j["bandwidth_gbps"] = JNum(g.bandwidth_gbps, 1);
  j["fp16_tflops"] = JNum(g.fp16_tflops, 1);
  j["int8_tops"] = JNum(g.int8_tops, 1);
  j["fp8_tflops"] = JNum(g.fp8_tflops, 1);
  j["fp4_tflops"] = JNum(g.fp4_tflops, 1);
  j["precisions"] = g.precisions;
  j["platforms"] = g.platforms;
  j["interconnect"] = s.interconnect_name;
  j["interconnect_gbps"] = JNum(g.interconnect_gbps, 1);
  j["unified_memory"] = g.unified_memory;
  j["tdp_w"] = JNum(g.tdp_w, 0);
  j["launch_year"] = g.launch_year;
  j["msrp_usd"] = JNum(g.msrp_usd, 0);
  j["street_usd"] = JNum(s.street_usd, 0);
  j["cloud_usd_per_hour"] = JNum(s.cloud_usd_per_hour, 2);
  j["price_as_of"] = s.price_as_of;
  j["source"] = g.source.text;
  return j;
}

Json UpgradeOptionJson(const UpgradeOption& o) {
  Json j;
  j["kind"] = o.kind;
  j["action"] = o.action;
  j["setup"] = SetupJson(o.setup);
  j["price_usd"] = JNum(o.price_usd, 0);
  j["price_basis"] = o.price_basis;
  Json unlocks = Json::array();
  for (const UnlockedModel& u : o.unlocks) {
    unlocks.push_back({{"model", u.model},
                       {"model_id", u.model_id},
                       {"params_b", JNum(u.params_b, 2)},
                       {"quality", JNum(u.quality, 1)},
                       {"how", u.how},
                       {"decode_tok_s", JNum(u.decode_tok_s, 1)}});
  }
  j["unlock_count"] = o.unlock_count;
  j["unlocks"] = unlocks;
  j["usd_per_unlocked_model"] = o.unlock_count > 0 ? JNum(o.usd_per_unlocked_model, 0) : Json();
  j["best_unlocked_quality"] = JNum(o.best_unlocked_quality, 1);
  j["runtime"] = o.runtime;
  j["best_model_after"] = NameOf(o.best_model_after);
  j["best_decode_tok_s_after"] = JNum(o.best_decode_tok_s_after, 1);
  return j;
}

void PrintJson(std::ostream& out, const Json& j) { out << j.dump(2) << "\n"; }

}  // namespace fitrank::cli
