#include "rules/facts.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace fitrank::rules {

absl::string_view TypeName(Type t) {
  switch (t) {
    case Type::kNumber:
      return "number";
    case Type::kBool:
      return "bool";
    case Type::kString:
      return "string";
    case Type::kStringList:
      return "string list";
    case Type::kNumberList:
      return "number list";
  }
  return "?";
}

FactSchema::FactSchema() {
  facts_.push_back({std::string(kWorkloadId), Type::kString,
                    "The workload being evaluated (chat, coding, agentic, rag, reasoning, ...)",
                    "", -1, true, true});
  facts_.push_back({std::string(kModeId), Type::kString,
                    "The operating mode being evaluated (balanced, interactive, ...)", "", -1,
                    true, true});
}

bool FactSchema::IsValidName(absl::string_view name) {
  // [a-z][a-z0-9_]* ( "." [a-z][a-z0-9_]* )+
  int segments = 0;
  size_t i = 0;
  while (true) {
    if (i >= name.size() || !(name[i] >= 'a' && name[i] <= 'z')) return false;
    ++i;
    while (i < name.size() && ((name[i] >= 'a' && name[i] <= 'z') ||
                               (name[i] >= '0' && name[i] <= '9') || name[i] == '_')) {
      ++i;
    }
    ++segments;
    if (i == name.size()) break;
    if (name[i] != '.') return false;
    ++i;
  }
  return segments >= 2;
}

absl::StatusOr<int32_t> FactSchema::Add(absl::string_view name, Type type, absl::string_view doc,
                                        absl::string_view unit) {
  if (!IsValidName(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("fact name `", name, "` is not a lowercase dotted name like `fit.kind`"));
  }
  if (type == Type::kNumberList) {
    return absl::InvalidArgumentError(
        absl::StrCat("fact `", name, "`: facts cannot be number lists"));
  }
  if (Find(name) != nullptr) {
    return absl::AlreadyExistsError(absl::StrCat("fact `", name, "` is declared twice"));
  }
  FactDecl d;
  d.name = std::string(name);
  d.type = type;
  d.doc = std::string(doc);
  d.unit = std::string(unit);
  d.slot = slot_counts_[static_cast<int>(type)]++;
  facts_.push_back(std::move(d));
  return static_cast<int32_t>(facts_.size() - 1);
}

namespace {

int32_t OrDie(const absl::StatusOr<int32_t>& r) {
  if (!r.ok()) {
    std::fprintf(stderr, "fitrank: FactSchema: %s\n", std::string(r.status().message()).c_str());
    std::abort();
  }
  return *r;
}

}  // namespace

int32_t FactSchema::Declare(absl::string_view name, Type type, absl::string_view doc,
                            absl::string_view unit) {
  return OrDie(Add(name, type, doc, unit));
}

NumberFact FactSchema::Number(absl::string_view name, absl::string_view doc,
                              absl::string_view unit) {
  int32_t i = Declare(name, Type::kNumber, doc, unit);
  return {facts_[i].slot, i};
}

BoolFact FactSchema::Bool(absl::string_view name, absl::string_view doc) {
  int32_t i = Declare(name, Type::kBool, doc);
  return {facts_[i].slot, i};
}

StringFact FactSchema::String(absl::string_view name, absl::string_view doc) {
  int32_t i = Declare(name, Type::kString, doc);
  return {facts_[i].slot, i};
}

StringListFact FactSchema::StringList(absl::string_view name, absl::string_view doc) {
  int32_t i = Declare(name, Type::kStringList, doc);
  return {facts_[i].slot, i};
}

void FactSchema::MarkContext(absl::string_view ns) {
  for (FactDecl& d : facts_) {
    if (d.name.size() > ns.size() && absl::StartsWith(d.name, ns) && d.name[ns.size()] == '.') {
      d.context = true;
    }
  }
}

void FactSchema::MarkAt(int32_t index, bool context, bool early, bool item) {
  if (index < 0 || index >= static_cast<int32_t>(facts_.size())) return;
  facts_[index].context = facts_[index].context || context;
  facts_[index].early = facts_[index].early || early;
  facts_[index].item = facts_[index].item || item;
}

bool FactSchema::MarkEarly(absl::string_view name) { return Mark(name, &FactDecl::early); }

bool FactSchema::MarkItem(absl::string_view name) { return Mark(name, &FactDecl::item); }

bool FactSchema::Mark(absl::string_view name, bool FactDecl::*flag) {
  const FactDecl* d = Find(name);
  if (d == nullptr) return false;
  facts_[d - facts_.data()].*flag = true;
  return true;
}

void FactSchema::Rename(absl::string_view old_name, absl::string_view new_name) {
  renamed_.emplace_back(std::string(old_name), std::string(new_name));
}

const std::string* FactSchema::RenamedTo(absl::string_view old_name) const {
  for (const auto& [from, to] : renamed_) {
    if (from == old_name) return &to;
  }
  return nullptr;
}

const FactDecl* FactSchema::Find(absl::string_view name) const {
  for (const FactDecl& d : facts_) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

std::vector<std::string> FactSchema::Names() const {
  std::vector<std::string> out;
  out.reserve(facts_.size());
  for (const FactDecl& d : facts_) out.push_back(d.name);
  return out;
}

FactValues::FactValues(const FactSchema& schema)
    : schema_(&schema),
      numbers_(schema.slot_count(Type::kNumber)),
      bools_(schema.slot_count(Type::kBool)),
      strings_(schema.slot_count(Type::kString)),
      lists_(schema.slot_count(Type::kStringList)),
      set_(schema.facts().size()) {}

void FactValues::Clear() {
  if (!numbers_.empty()) std::memset(numbers_.data(), 0, numbers_.size() * sizeof(double));
  if (!bools_.empty()) std::memset(bools_.data(), 0, bools_.size());
  for (absl::string_view& s : strings_) s = absl::string_view();
  for (StringListRef& l : lists_) l = StringListRef();
  if (!set_.empty()) std::memset(set_.data(), 0, set_.size());
}

void FactValues::Unset(int32_t fact_index) {
  const FactDecl& d = schema_->facts()[fact_index];
  if (!d.builtin) {
    switch (d.type) {
      case Type::kNumber:
        numbers_[d.slot] = 0;
        break;
      case Type::kBool:
        bools_[d.slot] = 0;
        break;
      case Type::kString:
        strings_[d.slot] = absl::string_view();
        break;
      case Type::kStringList:
        lists_[d.slot] = StringListRef();
        break;
      case Type::kNumberList:
        break;
    }
  }
  set_[fact_index] = 0;
}

bool FactValues::SameValue(const FactValues& other, int32_t fact_index) const {
  if (IsSet(fact_index) != other.IsSet(fact_index)) return false;
  if (!IsSet(fact_index)) return true;
  const FactDecl& d = schema_->facts()[fact_index];
  switch (d.type) {
    case Type::kNumber:
      return std::memcmp(&numbers_[d.slot], &other.numbers_[d.slot], sizeof(double)) == 0;
    case Type::kBool:
      return bools_[d.slot] == other.bools_[d.slot];
    case Type::kString:
      return strings_[d.slot] == other.strings_[d.slot];
    case Type::kStringList: {
      const StringListRef& a = lists_[d.slot];
      const StringListRef& b = other.lists_[d.slot];
      if (a.size != b.size) return false;
      for (uint32_t i = 0; i < a.size; ++i) {
        if (a.at(i) != b.at(i)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace fitrank::rules
