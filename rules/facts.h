// The facts rules are evaluated over: a schema the engine declares once, and a record of
// values per candidate.
//
// The rules library knows nothing about GPUs or models. The engine declares every fact a rule
// may read (name, type, doc, unit) in a FactSchema, gets a typed handle back, and for each
// candidate fills a FactValues record through those handles. Rules are compiled against the
// schema: fact names become slot numbers, so evaluation does no name lookup.
//
//   auto schema = std::make_shared<rules::FactSchema>();
//   rules::NumberFact headroom = schema->Number("fit.headroom_pct", "Free memory after load", "%");
//   rules::StringFact kind = schema->String("fit.kind", "native | offload | none");
//   rules::StringListFact caps = schema->StringList("model.capabilities", "tools, thinking, ...");
//   ...
//   rules::FactValues values(*schema);       // allocates once; reuse it for every candidate
//   values.Set(headroom, 23.5);
//   values.Set(kind, "native");              // not copied: the text must outlive evaluation
//   values.Set(caps, model.capabilities);    // a span over catalog-owned strings, not copied
//
// Fact names are lowercase dotted identifiers with at least one dot: `fit.headroom_pct`,
// `perf.decode_tok_s` (segments match [a-z][a-z0-9_]*). Two names are reserved and declared by
// every schema: `workload.id` and `mode.id` (strings). Their values are not stored in
// FactValues: they are the workload and mode passed to CompiledRules::Evaluate().
//
// Unset facts. A fact not set for a candidate reads as its type's default (0, false, "", []),
// and the rule function `known(fact)` is false for it. Numbers that are not finite (NaN, inf)
// are treated as unset, so no NaN ever enters an evaluation.
//
// Thread safety: a FactSchema is immutable once compiled against: declare every fact first,
// then build FactValues and compile rules (a FactValues sized for fewer facts must not be
// used). Share the schema freely. A FactValues is one candidate's record: one per thread.
#ifndef FITRANK_RULES_FACTS_H_
#define FITRANK_RULES_FACTS_H_

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace fitrank::rules {

// Types of facts and expression values. kNumberList exists only as list literals in rules
// (`x in [1, 2]`); facts are never number lists.
enum class Type : uint8_t { kNumber, kBool, kString, kStringList, kNumberList };

// "number", "bool", "string", "string list", "number list".
absl::string_view TypeName(Type t);

// Typed handles to a declared fact. `slot` indexes the per-type value array of FactValues;
// `index` is the fact's position in FactSchema::facts(). A default-constructed handle is
// invalid (index -1) and must not be used.
struct NumberFact {
  int32_t slot = -1;
  int32_t index = -1;
};
struct BoolFact {
  int32_t slot = -1;
  int32_t index = -1;
};
struct StringFact {
  int32_t slot = -1;
  int32_t index = -1;
};
struct StringListFact {
  int32_t slot = -1;
  int32_t index = -1;
};

struct FactDecl {
  std::string name;  // "fit.headroom_pct"
  Type type = Type::kNumber;
  std::string doc;   // one line for `rules schema`, explain and lint hints
  std::string unit;  // "%", "GB", "tok/s", "ms"; empty if none
  int32_t slot = -1;  // index into the value array of `type`
  bool builtin = false;  // workload.id, mode.id: set by Evaluate(), not by FactValues
  // A context fact keeps its value across the candidates the caller evaluates under one
  // context key (CompiledRules::Evaluate); the built-ins always are.
  bool context = false;
  // An early fact is known before the costly part of a candidate (its estimate): a caller can
  // bound the rules on the early and context facts alone (CompiledRules::Bound).
  bool early = false;
  // An item fact depends only on the item evaluated (the model and its quantization), not on
  // the setup, the workload or the mode: rules that read only item facts give one result per
  // item, which a caller evaluating it under many of those keeps (CompiledRules::ItemMemo).
  bool item = false;
};

class FactSchema {
 public:
  // Declares the built-in facts `workload.id` and `mode.id`.
  FactSchema();

  // Declare a fact and return its handle. A malformed or duplicate name is a programming
  // error in the engine: Add() returns InvalidArgument/AlreadyExists, the typed helpers
  // abort with the message (they are called once at start-up with literal names).
  absl::StatusOr<int32_t> Add(absl::string_view name, Type type, absl::string_view doc,
                              absl::string_view unit = "");
  // Add() of a fact declared by the engine: aborts with the message on any problem. Returns
  // its index (its slot is facts()[index].slot).
  int32_t Declare(absl::string_view name, Type type, absl::string_view doc,
                  absl::string_view unit = "");
  NumberFact Number(absl::string_view name, absl::string_view doc, absl::string_view unit = "");
  BoolFact Bool(absl::string_view name, absl::string_view doc);
  StringFact String(absl::string_view name, absl::string_view doc);
  StringListFact StringList(absl::string_view name, absl::string_view doc);

  // Marks every fact declared so far whose name starts with `ns` + "." as a context fact: one
  // whose value the engine fills once for many candidates (the GPU, the model, the workload),
  // as opposed to one that changes with every candidate (its fit, its speed). Rules that read
  // only context facts are evaluated once per context (see CompiledRules::Evaluate).
  void MarkContext(absl::string_view ns);
  // Marks the fact at `index` (into facts()) as a context fact, an early one, an item one, or
  // several, as told; an index out of range is ignored.
  void MarkAt(int32_t index, bool context, bool early, bool item);
  // Marks the declared fact `name` as early (FactDecl::early). False if there is none.
  bool MarkEarly(absl::string_view name);
  // Marks the declared fact `name` as an item fact (FactDecl::item). False if there is none.
  bool MarkItem(absl::string_view name);

  // Records that the fact `old_name` is now called `new_name` (declared): rules reading the
  // old name still fail to compile (unknown-fact), with a hint naming the new one.
  void Rename(absl::string_view old_name, absl::string_view new_name);
  // The new name of a renamed fact, or nullptr if `old_name` was never renamed.
  const std::string* RenamedTo(absl::string_view old_name) const;

  // The declaration named `name`, or nullptr.
  const FactDecl* Find(absl::string_view name) const;
  // All facts in declaration order (built-ins first).
  const std::vector<FactDecl>& facts() const { return facts_; }
  // All fact names, for did-you-mean suggestions.
  std::vector<std::string> Names() const;
  // Number of value slots of type `t` (built-ins take none).
  int32_t slot_count(Type t) const { return slot_counts_[static_cast<int>(t)]; }

  static constexpr absl::string_view kWorkloadId = "workload.id";
  static constexpr absl::string_view kModeId = "mode.id";
  // True if `name` is a well-formed fact name (see the file comment).
  static bool IsValidName(absl::string_view name);

 private:
  // Sets `flag` of the declared fact `name`; false if there is none.
  bool Mark(absl::string_view name, bool FactDecl::*flag);

  std::vector<FactDecl> facts_;
  std::vector<std::pair<std::string, std::string>> renamed_;  // old name, new name
  int32_t slot_counts_[5] = {0, 0, 0, 0, 0};
};

// A string list value: either a span of absl::string_view or a span of std::string (so that
// catalog vectors can be passed without conversion). Not owning.
struct StringListRef {
  const void* data = nullptr;
  uint32_t size = 0;
  bool std_strings = false;  // data points to std::string[] rather than absl::string_view[]

  absl::string_view at(uint32_t i) const {
    return std_strings ? absl::string_view(static_cast<const std::string*>(data)[i])
                       : static_cast<const absl::string_view*>(data)[i];
  }
};

// One candidate's fact values, by slot. Construction allocates; Set/Clear never do.
class FactValues {
 public:
  explicit FactValues(const FactSchema& schema);

  const FactSchema& schema() const { return *schema_; }

  // Makes every fact unset (default values). Cheap (a few memsets); call it between
  // candidates unless every fact is set every time.
  void Clear();

  // Sets facts through the arrays' addresses, read once: for a caller setting many facts in
  // a row (a store through a byte pointer may alias the vectors, so each Set would read their
  // addresses again). Valid while the FactValues lives and nothing else sets its facts.
  class Writer {
   public:
    explicit Writer(FactValues* v)
        : values_(v),
          numbers_(v->numbers_.data()),
          bools_(v->bools_.data()),
          strings_(v->strings_.data()),
          lists_(v->lists_.data()),
          set_(v->set_.data()) {}
    // Non-finite numbers leave the fact unset.
    void Set(NumberFact f, double v) {
      if (!std::isfinite(v)) {
        values_->Unset(f.index);
        return;
      }
      numbers_[f.slot] = v;
      set_[f.index] = 1;
    }
    void Set(BoolFact f, bool v) {
      bools_[f.slot] = v ? 1 : 0;
      set_[f.index] = 1;
    }
    // The text is not copied: it must stay alive and unchanged until evaluation is done.
    void Set(StringFact f, absl::string_view v) {
      strings_[f.slot] = v;
      set_[f.index] = 1;
    }
    // The list (and its strings) are not copied, as above.
    void Set(StringListFact f, absl::Span<const absl::string_view> v) {
      lists_[f.slot] = StringListRef{v.data(), static_cast<uint32_t>(v.size()), false};
      set_[f.index] = 1;
    }
    void Set(StringListFact f, absl::Span<const std::string> v) {
      lists_[f.slot] = StringListRef{v.data(), static_cast<uint32_t>(v.size()), true};
      set_[f.index] = 1;
    }

   private:
    FactValues* values_;
    double* numbers_;
    uint8_t* bools_;
    absl::string_view* strings_;
    StringListRef* lists_;
    uint8_t* set_;
  };

  // One fact (Writer::Set).
  template <typename Fact, typename Value>
  void Set(Fact f, const Value& v) {
    Writer(this).Set(f, v);
  }
  // Makes one fact unset again (its default value). `fact_index` is the handle's `index`.
  void Unset(int32_t fact_index);

  bool IsSet(int32_t fact_index) const { return set_[fact_index] != 0; }
  double number(NumberFact f) const { return numbers_[f.slot]; }
  bool boolean(BoolFact f) const { return bools_[f.slot] != 0; }
  absl::string_view string(StringFact f) const { return strings_[f.slot]; }
  StringListRef string_list(StringListFact f) const { return lists_[f.slot]; }

  // True if the fact at `fact_index` (not a built-in) is unset in both, or set in both to the
  // same value (numbers bit for bit; string lists item by item). `other` has the same schema.
  bool SameValue(const FactValues& other, int32_t fact_index) const;

  // Slot-level access for the evaluator.
  const double* numbers() const { return numbers_.data(); }
  const uint8_t* bools() const { return bools_.data(); }
  const absl::string_view* strings() const { return strings_.data(); }
  const StringListRef* lists() const { return lists_.data(); }

 private:
  const FactSchema* schema_;
  std::vector<double> numbers_;
  std::vector<uint8_t> bools_;
  std::vector<absl::string_view> strings_;
  std::vector<StringListRef> lists_;
  // [fact index]: 1 if set. A byte per fact, not a bit: marking one is a store, not a read,
  // a shift and a write (the engine marks some 50 per candidate).
  std::vector<uint8_t> set_;
};

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_FACTS_H_
