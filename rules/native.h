// Rule phases compiled to C++ at build time: the shipped rule book's phase plans
// (CompiledRules' context, early and late phases of every workload x mode list) as straight-line
// functions, with the same results bit for bit as the plan interpreter, and without its
// dispatch per test and per rule.
//
//   build:   fitrank_gen_native_rules (tools/gen_native_rules.cc) compiles the shipped book
//            as a run does and writes EmitNativePhases(&book) to native_rules.cc
//   compile: CompileOptions::native = &ShippedNativePhases();   // engine/engine.cc
//   run:     a phase whose NativeKey is in the table runs its function; any other (a local
//            rule file changed the rules it holds, or the facts it reads) is interpreted
//
// A phase's key spells out everything its function bakes in: its tests, its steps (rule, set,
// masks, constants, leaf operations, fault bookkeeping) and the code and constants of the
// expressions it runs through the interpreter (entries, instructions, strings, lists,
// patterns). Equal keys, equal behaviour; a book the table was not made from falls back to the
// interpreter phase by phase, never to another book's code.
#ifndef FITRANK_RULES_NATIVE_H_
#define FITRANK_RULES_NATIVE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

#include "rules/internal/program.h"

namespace fitrank::rules {

class CompiledRules;

// Rules whose evaluation hit a numeric fault.
struct NativeFaults {
  int all = 0;     // every such rule
  int effect = 0;  // of those, the rules that can change a score (CompiledRules::HasEffect)
};

// Where a phase writes its rules' results: per rule (by index in the book) whether it fired,
// its contribution and its fault bits; per set (if set_sum is not null) the sum of the
// contributions and of their magnitudes, added in step order.
struct NativeOut {
  uint8_t* fired = nullptr;
  double* contribution = nullptr;
  uint8_t* faults_of = nullptr;
  double* set_sum = nullptr;
  double* set_magnitude = nullptr;
};

using NativePhaseFn = NativeFaults (*)(const internal::Program& program,
                                       internal::RunContext* ctx, const NativeOut& out);

struct NativePhase {
  const char* key = nullptr;  // the phase's NativeKey
  size_t key_size = 0;
  NativePhaseFn run = nullptr;
};

// A plan's set totals (CompiledRules::Total): for each (rule, set) of the plan's rules in book
// order, set_total[set] += contribution[rule], each set from +0.0, written out as additions in
// registers instead of a loop over the list. Only the order is baked in: any book whose plan
// has the same (rule, set) sequence gets the same totals from it.
using NativeTotalFn = void (*)(const double* contribution, double* set_total);

struct NativeTotal {
  const std::pair<int32_t, int32_t>* order = nullptr;  // (rule, set), as CompiledRules' plans
  size_t size = 0;
  NativeTotalFn run = nullptr;
};

struct NativePhases {
  const NativePhase* phases = nullptr;
  size_t count = 0;
  const NativeTotal* totals = nullptr;
  size_t total_count = 0;
};

// The source of a C++ file defining ShippedNativePhases() for every distinct phase of `book`
// with a rule in it and every distinct plan order; with neither if `book` is null (the shipped
// rules did not compile).
std::string EmitNativePhases(const CompiledRules* book);

// The phases of the shipped rule book (generated at build time; fitrank_native_rules).
const NativePhases& ShippedNativePhases();

}  // namespace fitrank::rules

#endif  // FITRANK_RULES_NATIVE_H_
