#include "rules/rule_file.h"

#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/text.h"
#include "base/yaml_reader.h"

namespace fitrank::rules {

bool IsValidRuleId(absl::string_view id) {
  int parts = 0;
  size_t i = 0;
  while (true) {
    size_t start = i;
    while (i < id.size() && ((id[i] >= 'a' && id[i] <= 'z') || (id[i] >= '0' && id[i] <= '9') ||
                             id[i] == '_' || id[i] == '-')) {
      ++i;
    }
    if (i == start || id[start] == '-' || id[start] == '_') return false;
    ++parts;
    if (i == id.size()) break;
    if (id[i] != '.') return false;
    ++i;
  }
  return parts >= 2;
}

namespace {

bool IsSetName(absl::string_view s) {
  if (s.empty() || !(s[0] >= 'a' && s[0] <= 'z')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) return false;
  }
  return true;
}

class FileReader {
 public:
  FileReader(std::shared_ptr<const std::string> content, std::string file, bool local,
             Diagnostics* diags)
      : content_(std::move(content)), file_(std::move(file)), local_(local), diags_(diags) {}

  RuleFile Read() {
    RuleFile out;
    out.file = file_;
    out.local = local_;
    std::unique_ptr<YamlTree> tree = ParseYaml(*content_, file_, diags_);
    if (tree == nullptr) return out;
    const YamlNode root = tree->root();
    out.parsed = true;
    if (root.IsNull()) {
      diags_->Error("missing-field", Location{file_, 1, 1}, "the rule file is empty",
                    absl::StrCat("start it with `schema: ", kRulesSchema, "`"));
      return out;
    }
    MapReader r(root, file_, diags_, "the rule file", "rules/README.md");
    if (!r.ok()) return out;
    std::string schema;
    if (r.Required("schema", &schema) && schema != kRulesSchema) {
      diags_->Error("unknown-schema", r.WhereOf("schema"),
                    absl::StrCat("unsupported schema `", schema, "`"),
                    absl::StrCat("this fitrank reads `schema: ", kRulesSchema, "`"));
    }
    r.Optional("description", &out.description);
    const bool has_rules = r.Has("rules");
    if (has_rules) {
      r.Required("set", &out.set);
    } else {
      r.Optional("set", &out.set);
    }
    out.set_where = r.WhereOf("set");
    if (!out.set.empty() && !IsSetName(out.set)) {
      diags_->Error("bad-name", out.set_where,
                    absl::StrCat("set name `", out.set, "` is not a lowercase word"),
                    "use letters, digits, `-` and `_`, like `fit` or `serving`");
    }
    YamlNode rules = r.Child("rules");
    if (rules.IsDefined() && !rules.IsNull()) {
      if (!rules.IsSequence()) {
        diags_->Error("wrong-type", rules.Where(file_), "`rules` must be a list of rules",
                      "start each rule with `- id: ...`");
      } else if (!TooMany(rules, "rules")) {
        for (YamlNode n : rules) ReadRule(n, out);
      }
    }
    YamlNode overrides = r.Child("overrides");
    if (overrides.IsDefined() && !overrides.IsNull()) {
      if (!overrides.IsSequence()) {
        diags_->Error("wrong-type", overrides.Where(file_),
                      "`overrides` must be a list of overrides",
                      "start each one with `- id: <rule id>`");
      } else if (!TooMany(overrides, "overrides")) {
        for (YamlNode n : overrides) ReadOverride(n, out);
      }
    }
    r.CheckUnknownKeys();
    return out;
  }

 private:
  // An expression or template scalar.
  std::optional<SourceText> Text(MapReader& r, absl::string_view key) {
    YamlNode v = r.Child(key);
    if (!v.IsDefined()) return std::nullopt;
    if (v.IsNull() || !v.IsScalar() || v.Scalar().empty()) {
      diags_->Error(v.IsScalar() || v.IsNull() ? "missing-value" : "wrong-type",
                    v.Where(file_),
                    v.IsScalar() || v.IsNull()
                        ? absl::StrCat("`", key, "` is empty")
                        : absl::StrCat("`", key, "` must be text, not a ",
                                       v.IsSequence() ? "list" : "map"),
                    key == "say" ? "write the sentence in quotes"
                                 : "write an expression; quote it if it contains `: ` or ` #`");
      return std::nullopt;
    }
    return SourceText{std::string(v.Scalar()), TextOrigin(content_, file_, v)};
  }

  std::optional<std::vector<Word>> Words(MapReader& r, absl::string_view key, Location* where) {
    YamlNode v = r.Child(key);
    if (!v.IsDefined()) return std::nullopt;
    *where = v.Where(file_);
    std::vector<Word> out;
    if (v.IsNull()) {
      diags_->Error("missing-value", *where, absl::StrCat("`", key, "` is empty"),
                    absl::StrCat("write a list like [a, b], or remove `", key,
                                 "` to apply to all"));
      return std::nullopt;
    }
    if (v.IsScalar()) {  // `workloads: coding` is read as [coding]
      out.push_back({std::string(v.Scalar()), v.Where(file_)});
      return out;
    }
    if (!v.IsSequence()) {
      diags_->Error("wrong-type", *where, absl::StrCat("`", key, "` must be a list like [a, b]"));
      return std::nullopt;
    }
    for (YamlNode item : v) {
      if (!item.IsScalar()) {
        diags_->Error("wrong-type", item.Where(file_),
                      absl::StrCat("`", key, "` must be a list of ids"));
        continue;
      }
      out.push_back({std::string(item.Scalar()), item.Where(file_)});
    }
    return out;
  }

  // Reports a `rules` or `overrides` list longer than kMaxRules, at the list.
  bool TooMany(YamlNode list, absl::string_view key) {
    if (list.size() <= static_cast<size_t>(kMaxRules)) return false;
    diags_->Error("too-many-rules", list.Where(file_),
                  absl::StrCat("`", key, "` has ", list.size(), " entries; a rule file holds at "
                               "most ", kMaxRules),
                  absl::StrCat("remove some, or disable the shipped rules you replace; the limit "
                               "bounds the work per candidate (SECURITY.md)"));
    return true;
  }

  void ReadRule(YamlNode n, RuleFile& file) {
    std::string what = "a rule";
    if (n.IsMap()) {
      if (n.Get("id").IsScalar()) what = absl::StrCat("rule `", n.Get("id").Scalar(), "`");
    }
    MapReader r(n, file_, diags_, what, "rules/README.md");
    if (!r.ok()) return;
    RuleDef d;
    d.set = file.set;
    d.set_where = file.set_where;
    d.file = file_;
    d.local = local_;
    bool id_ok = r.Required("id", &d.id);
    d.where = r.WhereOf("id");
    if (id_ok && !IsValidRuleId(d.id)) {
      diags_->Error("bad-id", d.where, absl::StrCat("rule id `", d.id, "` is malformed"),
                    "ids are dotted lowercase words: `fit.native-comfortable`");
      id_ok = false;
    }
    r.Optional("desc", &d.desc);
    d.when = Text(r, "when");
    d.score = Text(r, "score");
    d.say = Text(r, "say");
    r.Optional("cap", &d.cap);
    d.cap_where = r.WhereOf("cap");
    r.Optional("gate", &d.gate);
    r.Optional("gate_reason", &d.gate_reason);
    if (!d.gate_reason.empty() && !d.gate) {
      diags_->Warning("gate-reason-without-gate", r.WhereOf("gate_reason"),
                      "`gate_reason` has no effect without `gate: true`");
    }
    d.workloads = Words(r, "workloads", &d.workloads_where);
    d.modes = Words(r, "modes", &d.modes_where);
    r.Optional("advice", &d.advice);
    r.Optional("tags", &d.tags);
    r.CheckUnknownKeys();
    if (id_ok) file.rules.push_back(std::move(d));
  }

  void ReadOverride(YamlNode n, RuleFile& file) {
    std::string what = "an override";
    if (n.IsMap()) {
      if (n.Get("id").IsScalar()) {
        what = absl::StrCat("the override of `", n.Get("id").Scalar(), "`");
      }
    }
    MapReader r(n, file_, diags_, what, "rules/README.md");
    if (!r.ok()) return;
    OverrideDef o;
    o.file = file_;
    bool ok = r.Required("id", &o.id);
    o.where = r.WhereOf("id");
    r.Optional("disable", &o.disable);
    o.disable_where = r.WhereOf("disable");
    YamlNode set = r.Child("set");
    r.CheckUnknownKeys();
    if (set.IsDefined() && !set.IsNull()) {
      MapReader s(set, file_, diags_, absl::StrCat("`set` of ", what));
      if (s.ok()) {
        for (size_t i = 0; i < set.size(); ++i) {
          if (set.Key(i).IsScalar()) {
            o.keys.emplace_back(std::string(set.Key(i).Scalar()), set.Value(i).Where(file_));
          }
        }
        auto str = [&](absl::string_view key, std::optional<std::string>* out) {
          std::string v;
          if (s.Optional(key, &v)) *out = v;
        };
        str("desc", &o.desc);
        o.when = Text(s, "when");
        o.score = Text(s, "score");
        o.say = Text(s, "say");
        str("cap", &o.cap);
        o.cap_where = s.WhereOf("cap");
        bool gate = false;
        if (s.Optional("gate", &gate)) o.gate = gate;
        str("gate_reason", &o.gate_reason);
        o.workloads = Words(s, "workloads", &o.workloads_where);
        o.modes = Words(s, "modes", &o.modes_where);
        str("advice", &o.advice);
        std::vector<std::string> tags;
        if (s.Optional("tags", &tags)) o.tags = tags;
        for (size_t i = 0; i < set.size(); ++i) {
          const absl::string_view key = set.Key(i).Scalar();
          if (key == "id" || key == "set") {
            diags_->Error("unknown-key", set.Key(i).Where(file_),
                          absl::StrCat("an override cannot change `", key, "`"),
                          absl::StrCat("disable the rule and define a new one in the ",
                                       key == "id" ? "same set" : "other set"));
            s.Known(key);
          }
        }
        s.CheckUnknownKeys();
      }
    } else if (set.IsDefined()) {
      diags_->Error("missing-value", set.Where(file_), "`set` is empty",
                    "write the keys to change, like `set: {score: 10}`");
    }
    if (o.disable && !o.keys.empty()) {
      diags_->Error("conflicting-override", o.disable_where,
                    absl::StrCat("the override of `", o.id, "` both disables it and sets keys"),
                    "keep one: `disable: true` or `set: {...}`");
    } else if (ok && !o.disable && o.keys.empty() && !(set.IsDefined() && set.IsNull())) {
      diags_->Error("empty-override", o.where,
                    absl::StrCat("the override of `", o.id, "` changes nothing"),
                    "add `disable: true` or `set: {key: value}`");
    }
    if (ok) file.overrides.push_back(std::move(o));
  }

  std::shared_ptr<const std::string> content_;
  std::string file_;
  bool local_;
  Diagnostics* diags_;
};

}  // namespace

RuleFile ReadRuleFile(absl::string_view content, absl::string_view file, bool local,
                      Diagnostics* diags) {
  auto shared = std::make_shared<const std::string>(content);
  return FileReader(shared, std::string(file), local, diags).Read();
}

}  // namespace fitrank::rules
