#include "rules/rule_book.h"

#include <algorithm>
#include <map>
#include <type_traits>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/text.h"

namespace fitrank::rules {
namespace {

std::vector<std::string> ListRules(const FileSource& source, const std::string& dir) {
  std::vector<std::string> out;
  for (std::string& p : source.List(dir, ".yaml")) {
    if (absl::EndsWith(p, ".test.yaml")) continue;
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void Note(Diagnostics* diags, std::string code, const Location& where, std::string message) {
  diags->Add({Severity::kNote, std::move(code), std::move(message), where, ""});
}

std::string Where(const Location& l) { return absl::StrCat(l.file, ":", l.line); }

}  // namespace

std::vector<std::pair<std::string, bool>> RuleFilePaths(const RuleSources& sources) {
  std::vector<std::pair<std::string, bool>> out;
  if (sources.shipped != nullptr) {
    for (std::string& p : ListRules(*sources.shipped, sources.shipped_dir)) out.emplace_back(p, false);
  }
  if (sources.local != nullptr) {
    for (std::string& p : ListRules(*sources.local, sources.local_dir)) out.emplace_back(p, true);
  }
  return out;
}

absl::StatusOr<std::vector<RuleFile>> ReadRuleFiles(const RuleSources& sources,
                                                    Diagnostics* diags) {
  std::vector<RuleFile> files;
  for (const auto& [path, local] : RuleFilePaths(sources)) {
    const FileSource& src = local ? *sources.local : *sources.shipped;
    absl::StatusOr<std::string> content = src.Read(path);
    if (!content.ok()) return content.status();
    files.push_back(ReadRuleFile(*content, src.DisplayName(path), local, diags));
  }
  return files;
}

namespace {

// MergeRuleFiles of `files`: a const vector copies each rule into the book, a mutable one
// (the caller's to give away: LoadRules) moves it there.
template <typename Files>
RuleBook Merge(Files& files, Diagnostics* diags) {
  RuleBook book;
  std::vector<RuleDef> all;
  size_t defined = 0;
  for (const RuleFile& f : files) defined += f.rules.size();
  all.reserve(std::min(defined, static_cast<size_t>(kMaxRules)));
  std::map<std::string, size_t, std::less<>> index;
  bool full = false;  // past kMaxRules: reported once, the rest is not merged
  for (auto& f : files) {
    book.files.push_back(f.file);
    for (auto& r : f.rules) {
      if (full) break;
      auto it = index.find(r.id);
      if (it != index.end()) {
        const RuleDef& first = all[it->second];
        std::string hint = "rule ids are unique across all rule files";
        if (r.local && !first.local) {
          hint = absl::StrCat("to change the shipped rule, write `overrides: [{id: ", r.id,
                              ", set: {...}}]`, or give this rule a new id");
        }
        diags->Error("duplicate-id", r.where,
                     absl::StrCat("rule `", r.id, "` is already defined at ", Where(first.where)),
                     hint);
        Note(diags, "duplicate-id", first.where, absl::StrCat("`", r.id, "` is first defined here"));
        continue;
      }
      if (all.size() == static_cast<size_t>(kMaxRules)) {
        diags->Error("too-many-rules", r.where,
                     absl::StrCat("rule `", r.id, "` is one more than the ", kMaxRules,
                                  " rules a rule book holds (all files together)"),
                     "remove rules, or disable the shipped ones you replace (SECURITY.md)");
        full = true;
        break;
      }
      index.emplace(r.id, all.size());
      if constexpr (std::is_const_v<Files>) {
        all.push_back(r);
      } else {
        all.push_back(std::move(r));  // `r` is not read again: the overrides name rules by id
      }
    }
  }

  std::vector<std::string> ids;
  ids.reserve(all.size());
  for (const RuleDef& r : all) ids.push_back(r.id);
  std::vector<const OverrideDef*> disabled_by(all.size(), nullptr);
  std::map<std::pair<size_t, std::string>, Location> key_set_at;

  for (const RuleFile& f : files) {
    for (const OverrideDef& o : f.overrides) {
      auto it = index.find(o.id);
      if (it == index.end()) {
        std::string hint = DidYouMean(ClosestMatches(o.id, ids, 1));
        if (hint.empty()) hint = "an override names the id of a rule defined in a rule file";
        diags->Error("unknown-rule", o.where,
                     absl::StrCat("override of `", o.id, "`, but no rule has that id"), hint);
        continue;
      }
      const size_t i = it->second;
      if (disabled_by[i] != nullptr) {
        diags->Error("override-of-disabled", o.where,
                     absl::StrCat("rule `", o.id, "` was already disabled at ",
                                  Where(disabled_by[i]->where)),
                     "remove one of the two overrides");
        continue;
      }
      RuleDef& r = all[i];
      r.overridden_at.push_back(o.where);
      if (o.disable) {
        disabled_by[i] = &o;
        book.disabled.push_back({o.id, o.where});
        continue;
      }
      for (const auto& [key, where] : o.keys) {
        auto [prev, fresh] = key_set_at.emplace(std::make_pair(i, key), where);
        if (!fresh) {
          diags->Warning("overridden-twice", where,
                         absl::StrCat("`", key, "` of rule `", o.id,
                                      "` is overridden again; this value wins"),
                         "keep one override per key");
          Note(diags, "overridden-twice", prev->second, "the earlier override");
          prev->second = where;
        }
      }
      if (o.desc) r.desc = *o.desc;
      if (o.when) r.when = o.when;
      if (o.score) r.score = o.score;
      if (o.say) r.say = o.say;
      if (o.cap) {
        r.cap = *o.cap == "none" ? "" : *o.cap;
        r.cap_where = o.cap_where;
      }
      if (o.gate) r.gate = *o.gate;
      if (o.gate_reason) r.gate_reason = *o.gate_reason;
      if (o.workloads) {
        r.workloads = o.workloads;
        r.workloads_where = o.workloads_where;
      }
      if (o.modes) {
        r.modes = o.modes;
        r.modes_where = o.modes_where;
      }
      if (o.advice) r.advice = *o.advice;
      if (o.tags) r.tags = *o.tags;
    }
  }
  book.rules.reserve(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    if (disabled_by[i] == nullptr) book.rules.push_back(std::move(all[i]));
  }
  return book;
}

}  // namespace

RuleBook MergeRuleFiles(const std::vector<RuleFile>& files, Diagnostics* diags) {
  return Merge(files, diags);
}

RuleBook MergeRuleFiles(std::vector<RuleFile>&& files, Diagnostics* diags) {
  return Merge(files, diags);
}

}  // namespace fitrank::rules
