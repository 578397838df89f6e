#include "engine/report/upgrade_planner.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/scoring/facts.h"
#include "engine/report/builders.h"

namespace fitrank {

namespace {

bool IsUnifiedMachine(const Gpu& g) {
  return g.unified_memory || g.segment == Segment::kApple || g.segment == Segment::kApu;
}

double SetupUsable(const ReportEnv& env, const Setup& s) { return ViewOf(env, s).usable_gb; }

// The workload's quality figure as ranked (lowered once for its uncertainty,
// engine/scoring/facts.h).
double RankedQuality(const ReportEnv& env, const Model& m, const WorkloadShape& shape) {
  return EffectiveQuality(m.workload_quality.*shape.quality, 1.0,
                          env.profiles->grades().quality_ranking_z);
}

// Fills unlocks and the best model after, against `now`. A model is unlocked only when the new
// setup runs it natively at or above the workload's decode target and the current one does not.
void FillUnlocks(const ReportEnv& env, const Setup& after, const std::vector<ModelState>& now,
                 const WorkloadShape& shape, ModelSurvey* survey, UpgradeOption* o) {
  // Only the models `after` runs natively can be unlocked: their speeds are all it needs.
  const std::vector<ModelState>& next = survey->Of(after, SurveyDepth::kNativeOnly);
  const auto& models = env.catalog->models();
  double best_q = -1;
  for (size_t i = 0; i < models.size(); ++i) {
    const ModelState& a = now[i];
    const ModelState& b = next[i];
    if (!b.assistant || !b.fast) continue;
    const double q = RankedQuality(env, models[i], shape);
    if (q > best_q) {
      best_q = q;
      o->best_model_after = &models[i];
      o->best_decode_tok_s_after = b.decode_tok_s;
    }
    if (a.fast) continue;  // already runs well: never "unlocked"
    // Runs now (offloaded, or natively but slowly) at least as fast: nothing gained.
    if (a.decode_tok_s > 0 && b.decode_tok_s <= a.decode_tok_s) continue;
    o->unlocks.push_back({models[i].name, models[i].id, models[i].params_b, q,
                          a.native ? "reaches-speed" : "fits-natively", b.decode_tok_s});
  }
  std::stable_sort(o->unlocks.begin(), o->unlocks.end(),
                   [](const UnlockedModel& x, const UnlockedModel& y) { return x.quality > y.quality; });
  o->unlock_count = static_cast<int>(o->unlocks.size());
  o->usd_per_unlocked_model =
      o->unlock_count > 0 && o->price_usd > 0 ? o->price_usd / o->unlock_count : 0;
  o->best_unlocked_quality = o->unlocks.empty() ? 0 : o->unlocks.front().quality;
  o->setup = ViewOf(env, after);
  o->devices = after.devices;
  o->host_ram_gb = after.host_ram_gb;
  o->host_bandwidth_gbps = after.host_bandwidth_gbps;
}

// The compute platform a runtime would split a model over: llama.cpp splits layers across
// GPUs of one backend (CUDA, ROCm, SYCL, Metal); across vendors only its Vulkan backend could.
std::string PrimaryPlatform(const Gpu& g) {
  for (const char* p : {"CUDA", "ROCm", "Metal", "SYCL"}) {
    if (std::find(g.platforms.begin(), g.platforms.end(), p) != g.platforms.end()) return p;
  }
  return g.platforms.empty() ? "" : g.platforms.front();
}

}  // namespace

std::vector<const Gpu*> CandidateGpus(const ReportEnv& env, const Setup& setup,
                                      std::vector<const Gpu*>* unpriced) {
  const double usable_now = SetupUsable(env, setup);
  double bw_now = 0;
  for (const DeviceGroup& g : setup.devices) bw_now = std::max(bw_now, g.gpu->bandwidth_gbps);
  struct Cand {
    double price;
    double usable_gb;
    const Gpu* gpu;
    std::string platform;
  };
  std::vector<Cand> priced;
  for (const Gpu& g : env.catalog->gpus()) {
    if (g.segment == Segment::kCpu || g.segment == Segment::kEmbedded) continue;
    bool current = false;
    for (const DeviceGroup& d : setup.devices) current |= d.gpu->id == g.id;
    if (current) continue;
    const double u = env.estimator->UsableMemoryGb(g);
    // Neither more memory nor more bandwidth than the setup has: it cannot run anything
    // faster or bigger.
    if (u <= usable_now + 0.5 && g.bandwidth_gbps <= bw_now * 1.05) continue;
    const double p = PriceOf(env, g);
    if (p > 0) {
      priced.push_back({p, u, &g, PrimaryPlatform(g)});
    } else if (unpriced != nullptr) {
      unpriced->push_back(&g);
    }
  }
  std::stable_sort(priced.begin(), priced.end(),
                   [](const Cand& a, const Cand& b) { return a.price < b.price; });
  // Dominance on (price, usable memory, bandwidth, platform): drop a GPU when another of the
  // same platform costs no more and has at least its memory and bandwidth (strictly better in
  // one). Never by memory alone: a cheaper part with more memory does not hide a faster card.
  std::vector<const Gpu*> out;
  for (const Cand& c : priced) {
    bool dominated = false;
    for (const Cand& d : priced) {
      if (d.gpu == c.gpu || d.platform != c.platform) continue;
      if (d.price <= c.price && d.usable_gb >= c.usable_gb &&
          d.gpu->bandwidth_gbps >= c.gpu->bandwidth_gbps &&
          (d.price < c.price || d.usable_gb > c.usable_gb ||
           d.gpu->bandwidth_gbps > c.gpu->bandwidth_gbps || d.gpu->id < c.gpu->id)) {
        dominated = true;
        break;
      }
    }
    if (!dominated) out.push_back(c.gpu);
  }
  return out;
}

std::vector<UpgradeOption> UpgradeOptions(const ReportEnv& env, const Setup& setup,
                                          const std::vector<ModelState>& now,
                                          const WorkloadShape& shape, ModelSurvey* survey,
                                          bool first_step, double budget_usd,
                                          PlannerNotes* notes) {
  std::vector<UpgradeOption> opts;
  int no_gain = 0;
  const ReportPolicy& pol = *env.policy;
  SetupOptions host;
  host.interconnects = &env.catalog->interconnects();
  host.host_ram_gb = setup.host_ram_gb;
  host.host_bandwidth_gbps = setup.host_bandwidth_gbps;
  auto add = [&](UpgradeOption o, absl::StatusOr<Setup> after) {
    if (!after.ok() || o.price_usd <= 0) return;
    if (budget_usd > 0 && o.price_usd > budget_usd) return;
    FillUnlocks(env, *after, now, shape, survey, &o);
    if (o.unlock_count == 0) {  // not an upgrade for this workload
      ++no_gain;
      return;
    }
    opts.push_back(std::move(o));
  };
  const bool single_kind = setup.devices.size() == 1;
  const Gpu& first = *setup.devices.front().gpu;
  std::vector<const Gpu*> unpriced;
  std::vector<const Gpu*> cands = CandidateGpus(env, setup, &unpriced);

  if (first_step) {
    for (const Gpu* g : cands) {
      UpgradeOption o;
      o.kind = IsUnifiedMachine(*g) ? "unified" : "replace";
      o.action = pol.Note(o.kind == "unified" ? "upgrade.action.unified" : "upgrade.action.replace",
                          {{"gpu", g->name}});
      o.price_usd = PriceOf(env, *g, &o.price_basis);
      if (g->form_factor.find("socket") != std::string::npos) {
        // A socketed APU is priced as a chip: the memory it is listed with must be bought too.
        o.price_usd += g->memory_gb * pol.host_ram_usd_per_gb;
        o.price_basis += pol.Note("upgrade.price.socket-ram",
                                  {{"gb", g->memory_gb}, {"usd_per_gb", pol.host_ram_usd_per_gb}});
      }
      SetupOptions so = host;
      if (IsUnifiedMachine(*g)) so = SetupOptions{};  // its own memory is the host's
      so.interconnects = &env.catalog->interconnects();
      add(o, BuildSetup(*env.estimator, {{g, 1}}, so));
    }
  }
  if (single_kind && !setup.unified && setup.device_count < pol.max_gpus_same) {
    int n = setup.device_count;
    std::vector<int> targets = {n + 1};
    if (n > 1) targets.push_back(n * 2);
    for (int target : targets) {
      if (target > pol.max_gpus_same) continue;
      UpgradeOption o;
      o.kind = "add-same";
      o.action = pol.Note("upgrade.action.add-same",
                          {{"count", target - n}, {"gpu", first.name}, {"total", target}});
      std::string basis;
      o.price_usd = PriceOf(env, first, &basis) * (target - n);
      o.price_basis = basis;
      add(o, BuildSetup(*env.estimator, {{&first, target}}, host));
    }
  }
  if (!setup.unified) {
    for (const Gpu* g : cands) {
      if (IsUnifiedMachine(*g) || g->form_factor.rfind("pcie", 0) != 0) continue;
      if (first.form_factor.rfind("pcie", 0) != 0) continue;
      std::vector<DeviceGroup> devs = setup.devices;
      if (static_cast<int>(devs.size()) >= kMaxDeviceGroups) break;
      const std::string platform = PrimaryPlatform(*g);
      if (platform != PrimaryPlatform(first)) {
        if (notes != nullptr) ++notes->cross_platform_skipped;
        continue;
      }
      devs.push_back({g, 1});
      UpgradeOption o;
      o.kind = "add-different";
      o.action = pol.Note("upgrade.action.add-different",
                          {{"article", IndefiniteArticle(g->name)}, {"gpu", g->name}});
      o.runtime = pol.Note("upgrade.runtime.add-different", {{"platform", platform}});
      o.price_usd = PriceOf(env, *g, &o.price_basis);
      add(o, BuildSetup(*env.estimator, devs, host));
    }
  }
  if (!setup.unified) {
    for (int gb : pol.host_ram_steps_gb) {
      if (gb <= setup.host_ram_gb + 0.5) continue;
      UpgradeOption o;
      o.kind = "host-ram";
      o.action = pol.Note("upgrade.action.host-ram", {{"gb", gb}});
      o.price_usd = (gb - setup.host_ram_gb) * pol.host_ram_usd_per_gb;
      o.price_basis = pol.Note("upgrade.price.host-ram", {{"usd_per_gb", pol.host_ram_usd_per_gb},
                                                          {"source", pol.host_ram_price_source}});
      SetupOptions so = host;
      so.host_ram_gb = gb;
      add(o, BuildSetup(*env.estimator, setup.devices, so));
    }
  }
  // Rank by what the buyer gets: the best model unlocked for the workload, then $ per unlocked
  // model, then price.
  std::stable_sort(opts.begin(), opts.end(), [](const UpgradeOption& a, const UpgradeOption& b) {
    if (a.best_unlocked_quality != b.best_unlocked_quality) {
      return a.best_unlocked_quality > b.best_unlocked_quality;
    }
    if (a.usd_per_unlocked_model != b.usd_per_unlocked_model) {
      return a.usd_per_unlocked_model < b.usd_per_unlocked_model;
    }
    return a.price_usd < b.price_usd;
  });
  if (notes != nullptr) {
    notes->no_gain += no_gain;
    for (const Gpu* g : unpriced) notes->unpriced.push_back(g->name);
  }
  return opts;
}

absl::StatusOr<UpgradeReport> BuildUpgradeReport(const ReportEnv& env, const Setup& setup,
                                                 const UpgradeQuery& q) {
  const Mode& mode = *q.mode;
  WorkloadShape shape = ShapeFor(*q.workload, mode);
  UpgradeReport r;
  r.current = ViewOf(env, setup);
  r.workload = q.workload;
  r.mode = &mode;
  r.budget_usd = q.budget_usd;
  r.speed_target_tok_s = shape.decode_target_tok_s;
  // Every setup the planner looks at is surveyed once (the itinerary's steps revisit some).
  ModelSurvey survey(env, shape);
  const std::vector<ModelState>& now = survey.Of(setup, SurveyDepth::kFull);
  double best_q = -1;
  for (size_t i = 0; i < now.size(); ++i) {
    r.current_native_models += now[i].native;
    r.current_fast_models += now[i].fast;
    const Model& m = env.catalog->models()[i];
    if (now[i].fast && RankedQuality(env, m, shape) > best_q) {
      best_q = RankedQuality(env, m, shape);
      r.best_model_now = &m;
    }
  }
  PlannerNotes planner_notes;
  std::vector<UpgradeOption> all = UpgradeOptions(env, setup, now, shape, &survey, true, 0, &planner_notes);
  if (q.budget_usd > 0) {
    double cheapest = 0;
    std::string cheapest_name;
    for (const UpgradeOption& o : all) {
      if (o.price_usd <= q.budget_usd) r.options.push_back(o);
      if (cheapest == 0 || o.price_usd < cheapest) {
        cheapest = o.price_usd;
        cheapest_name = o.action;
      }
    }
    if (r.options.empty() && !all.empty()) {
      return absl::FailedPreconditionError(absl::StrFormat(
          "a budget of $%.0f is below every upgrade option; the cheapest is \"%s\" at $%.0f",
          q.budget_usd, cheapest_name, cheapest));
    }
  } else {
    r.options = all;
  }
  if (static_cast<int>(r.options.size()) > env.policy->max_upgrade_options) {
    r.options.resize(env.policy->max_upgrade_options);
  }

  // Greedy itinerary: each step the cheapest-per-unlocked-model purchase that fits the money
  // left, built on the previous step's setup.
  Setup cur = setup;
  const std::vector<ModelState>* cur_state = &now;
  double spent = 0;
  for (int step = 1; step <= env.policy->itinerary_steps; ++step) {
    double left = q.budget_usd > 0 ? q.budget_usd - spent : 0;
    if (q.budget_usd > 0 && left <= 0) break;
    std::vector<UpgradeOption> opts =
        step == 1 ? r.options : UpgradeOptions(env, cur, *cur_state, shape, &survey, false, left);
    const UpgradeOption* pick = nullptr;
    for (const UpgradeOption& o : opts) {
      if (o.unlock_count == 0) continue;
      if (q.budget_usd > 0 && o.price_usd > left) continue;
      pick = &o;
      break;
    }
    if (pick == nullptr) break;
    spent += pick->price_usd;
    ItineraryStep st;
    st.step = step;
    st.option = *pick;
    st.cumulative_usd = spent;
    const ReportPolicy& pol = *env.policy;
    st.why = pol.Note(
        pick->unlock_count == 1 ? "upgrade.step-why.one" : "upgrade.step-why",
        {{"count", pick->unlock_count},
         {"best", pick->unlocks.empty()
                      ? std::string()
                      : pol.Note("upgrade.step-why.best", {{"model", pick->unlocks[0].model}})},
         {"usd_each", pick->usd_per_unlocked_model}});
    r.itinerary.push_back(st);
    if (step == env.policy->itinerary_steps) break;  // no further step to plan from it
    // Rebuild the setup the step leads to, for the next step: its devices, adjacent groups of
    // one GPU merged (as the step's own setup was counted).
    std::vector<DeviceGroup> devs;
    for (const DeviceGroup& d : pick->devices) {
      if (!devs.empty() && devs.back().gpu == d.gpu) {
        devs.back().count += d.count;
      } else {
        devs.push_back(d);
      }
    }
    // On the host the step was priced on (the user's), not the default host of the new GPUs'
    // class: an MI325X replacing a 4090 stays in the 4090's desktop.
    SetupOptions so;
    so.interconnects = &env.catalog->interconnects();
    so.host_ram_gb = pick->host_ram_gb;
    so.host_bandwidth_gbps = pick->host_bandwidth_gbps;
    absl::StatusOr<Setup> next = BuildSetup(*env.estimator, devs, so);
    if (!next.ok()) break;
    cur = *next;
    cur_state = &survey.Of(cur, SurveyDepth::kFull);
  }
  if (r.itinerary.empty()) {
    r.notes.push_back(
        env.policy->Note(q.budget_usd > 0 ? "upgrade.none-in-budget" : "upgrade.none", {}));
  }
  const ReportPolicy& pol = *env.policy;
  r.notes.push_back(pol.Note("upgrade.counting",
                             {{"quant", pol.count_quant->id},
                              {"workload", shape.workload->name},
                              {"phrase", shape.workload->phrase},
                              {"decode_target_tok_s", shape.decode_target_tok_s}}));
  if (planner_notes.no_gain > 0) {
    r.notes.push_back(pol.Note(planner_notes.no_gain == 1 ? "upgrade.no-gain.one" : "upgrade.no-gain",
                               {{"count", planner_notes.no_gain},
                                {"phrase", shape.workload->phrase}}));
  }
  if (planner_notes.cross_platform_skipped > 0) {
    r.notes.push_back(pol.Note(planner_notes.cross_platform_skipped == 1
                                   ? "upgrade.cross-platform.one"
                                   : "upgrade.cross-platform",
                               {{"count", planner_notes.cross_platform_skipped}}));
  }
  if (!planner_notes.unpriced.empty()) {
    const std::string id = absl::StrCat("upgrade.unpriced", q.budget_usd > 0 ? ".budget" : "",
                                        planner_notes.unpriced.size() == 1 ? ".one" : "");
    const NoteText* note = pol.NoteFor(id);
    std::vector<std::string> names = planner_notes.unpriced;
    const size_t total = names.size();
    const size_t max_names = note != nullptr ? static_cast<size_t>(note->max_names) : total;
    if (names.size() > max_names) names.resize(max_names);
    r.notes.push_back(pol.Note(
        id, {{"count", static_cast<double>(total)},
             {"names", absl::StrCat(absl::StrJoin(names, ", "), total > names.size() ? ", ..." : "")}}));
  }
  return r;
}

}  // namespace fitrank
