#include "base/diagnostic_codes.h"

#include <algorithm>

namespace fitrank {

const std::vector<DiagnosticCode>& DiagnosticCodes() {
  static const std::vector<DiagnosticCode> kCodes = [] {
    std::vector<DiagnosticCode> c = {
        // Any YAML file (base/yaml_*).
        {"yaml-syntax", "any YAML file", "the file is not valid YAML",
         "The YAML parser stopped at this position (an unclosed bracket or quote, a tab used for "
         "indentation, a key without a value ...). Nothing of the file is loaded. Fix the syntax "
         "at the caret; the message quotes the parser."},
        {"yaml-multiple-documents", "any YAML file", "a second YAML document follows the first",
         "fitrank reads one document per file; a `---` line followed by more content would "
         "otherwise be dropped without a word. Nothing of the file is loaded. Remove the `---` "
         "line or move what follows into another file."},
        {"duplicate-key", "any YAML file", "a key appears twice in one mapping",
         "YAML keeps only one of two equal keys, so one of them would be silently lost. Remove "
         "or rename one."},
        {"unknown-key", "any YAML file", "a key this kind of entry does not have",
         "Every entry kind has a fixed set of keys (see the README of the folder the file is "
         "in). An unknown key is usually a typo; the hint names the closest known key."},
        {"missing-field", "any YAML file", "a required key is absent",
         "The entry cannot be used without this key. Add it; the message names the entry and "
         "the key."},
        {"missing-value", "any YAML file", "a key has no value",
         "The key is present but empty (`key:` with nothing after it). Give it a value or remove "
         "the key."},
        {"wrong-type", "any YAML file", "a value of the wrong type",
         "A number was expected and a string was given, a list where a single value belongs, "
         "and so on. The message says what was expected."},
        {"bad-number", "any YAML file, rule expressions", "a number that cannot be read",
         "Numbers are decimal (digits, an optional fraction and exponent). The value is not one, "
         "or is too large to represent."},
        {"out-of-range", "any YAML file", "a number outside the range allowed for this key",
         "The message gives the allowed range and its unit (for example memory in GB, shares "
         "between 0 and 1)."},
        {"unknown-value", "any YAML file", "a value that is not one of the allowed words",
         "The key takes one of a fixed set of words (an enum); the hint lists them or names the "
         "closest."},
        {"bad-schema", "any data file", "the `schema:` line names a version this build cannot read",
         "Each data file starts with `schema: fitrank.<kind>/v1`. Use the schema of the shipped "
         "file of the same kind."},
        {"unknown-schema", "any data file", "the `schema:` line is missing or unknown",
         "Each data file starts with `schema: fitrank.<kind>/v1`; copy the line from the shipped "
         "file of the same kind."},
        {"wrong-kind", "catalog", "the file's `kind:` is not the kind this file name holds",
         "catalog/gpus.yaml holds `kind: gpus`, models.yaml `kind: models`, and so on."},
        {"empty-file", "calibration table", "the file has no content",
         "An empty file is refused rather than read as an empty data set."},
        {"missing-file", "catalog", "a catalog file is missing from the data tree",
         "A --data tree overrides the shipped files one by one; a catalog file it lacks is taken "
         "from the shipped data. This error means neither has it."},
        // Catalog (catalog/).
        {"bad-id", "catalog", "an id with characters ids may not have",
         "Ids are lowercase letters, digits, dots and dashes (`geforce-rtx-4090`). Use the name "
         "field for the display spelling."},
        {"bad-date", "catalog", "a date that is not YYYY, YYYY-MM or YYYY-MM-DD",
         "The month must be 1-12 and the day one the month has (2025-02-29 is not a date); the "
         "hint says which part is wrong."},
        {"empty-alias", "catalog", "an empty string in `aliases`", "Remove it."},
        {"duplicate-id", "catalog, rules", "two entries have the same id",
         "Ids must be unique within their kind (catalog) or rule book (rules): other entries "
         "refer to them. Rename one."},
        {"duplicate-name", "catalog", "two entries have the same name",
         "Names are what users type; two equal names would make a lookup ambiguous."},
        {"duplicate-alias", "catalog", "an alias is already a name or an alias of another entry",
         "Aliases are what users type; each must lead to one entry only."},
        {"unknown-reference", "catalog", "a reference to an id the catalog does not have",
         "For example a GPU's `interconnect` or a model's `quant` must name an existing entry; "
         "the hint names the closest id."},
        {"unknown-source", "catalog", "a `source:` key that the file's `sources:` table lacks",
         "Every figure names its source; sources are declared once at the top of the file."},
        {"inconsistent", "catalog", "values that contradict each other",
         "For example active parameters larger than total parameters, or a context window "
         "smaller than the sliding window. The message says which."},
        // Estimator constants, profiles, report policy (engine/, profiles/).
        {"unknown-constant", "engine/estimator/estimator.yaml", "a constant the estimator does not use",
         "Usually a typo; the hint names the closest constant."},
        {"missing-constant", "engine/estimator/estimator.yaml", "a constant the estimator needs is absent",
         "Every constant has to be given (with its source): the estimator has no built-in "
         "defaults."},
        {"empty-case", "engine/estimator/estimator.yaml", "a case of a constant that selects nothing",
         "A case applies a value to some backends, runtimes, quants, memory kinds, segments, MoE "
         "or size classes; one that names none of them would apply everywhere. Give at least one."},
        {"no-weights", "profiles", "a workload profile weighs no rule set",
         "A profile's score is a weighted mean of rule-set totals; with no weights it could not "
         "score anything."},
        {"out-of-order", "engine/report/reports.yaml", "levels that are not in ascending order",
         "Thresholds such as verdict levels must be listed from the lowest to the highest."},
        {"unknown-note", "engine/report/reports.yaml", "a note id no report writes",
         "Notes are the sentences reports write beside their tables; each id is one a report "
         "asks for (engine/report/policy.cc). Usually a typo: the hint names the closest id."},
        {"no-data", "engine", "no data tree was given to load", "An internal misuse; report it."},
        {"load-failed", "engine", "a loader refused without saying where",
         "A safety net: the real cause is in the message. Report it, with the files involved."},
        // Rule files (rules/, engine/report/traits/, local rules).
        {"bad-name", "rules", "a set or rule id with characters ids may not have",
         "Ids are lowercase letters, digits, dots and dashes (`fit.native-comfortable`)."},
        {"unknown-set", "rules", "a rule set no profile weighs",
         "A warning: the rules of a set that no workload profile weighs never change a score. "
         "Add the set to profiles/workloads.yaml or use an existing set."},
        {"unknown-kind", "report trait books", "a trait file whose set is not one of the book's kinds",
         "GPU trait files hold `strength` or `consideration`; compare files hold `decision`."},
        {"unknown-grade", "rules, engine/report/reports.yaml",
         "a `cap:` or `min_grade:` that is not a grade letter",
         "Caps name a grade from profiles/grades.yaml (A, B, C, D, F)."},
        {"unknown-rule", "rules", "an override names a rule id that no file defines",
         "Overrides change shipped rules by id; the hint names the closest id."},
        {"override-of-disabled", "rules", "an override of a rule that another file disabled",
         "Once disabled, a rule cannot be changed; remove one of the two."},
        {"overridden-twice", "rules", "two files override the same key of one rule",
         "A warning: the later file wins (files load in name order, local after shipped)."},
        {"conflicting-override", "rules", "one override both disables a rule and sets keys", ""},
        {"empty-override", "rules", "an override that neither sets a key nor disables", ""},
        {"gate-reason-without-gate", "rules", "`gate_reason` on a rule without `gate: true`",
         "A warning: the reason is only shown when the rule excludes a candidate."},
        {"missing-desc", "rules", "a rule without `desc`",
         "A warning: `rules explain` shows the description next to what the rule added."},
        {"missing-say", "rules", "a scoring rule without a `say` sentence",
         "A warning: the reasons of a pick are the sentences of the rules that fired."},
        {"no-effect", "rules", "a rule that neither scores, caps, gates, tags nor advises",
         "A warning: it can fire but never changes anything."},
        {"unreachable", "rules", "a `when` that is constant false (or true)",
         "A warning: the condition folds to a constant, so the rule never (or always) fires."},
        {"too-many-rules", "rules", "more rules or overrides than a rule book may hold",
         "Rule files and the merged book are capped in rules and overrides, since every rule "
         "is evaluated for every candidate; the message gives the limit (SECURITY.md). Remove "
         "rules, or disable the shipped ones you replace."},
        {"too-many-ids", "profiles", "more workloads or modes than rules can address",
         "Rules keep workload and mode sets as bit masks; the message gives the limit."},
        // Rule expressions (rules/parser, rules/internal/checker).
        {"syntax", "rule expressions", "the expression does not parse",
         "The caret points at the first token that does not fit the grammar (rules/README.md); "
         "the hint often names the operator that was meant (`==` for `=`, `and` for `&`)."},
        {"unterminated-string", "rule expressions", "a string literal without its closing quote", ""},
        {"too-long", "rule expressions", "an expression longer than the limit",
         "Expressions are capped in bytes (SECURITY.md); split the rule."},
        {"too-deep", "rule expressions", "an expression nested deeper than the limit",
         "Nesting is capped so that no file can exhaust the parser's stack (SECURITY.md)."},
        {"too-big", "rule expressions", "an expression with too many nodes or too much stack",
         "Expressions are capped in nodes and evaluation stack (SECURITY.md); split the rule."},
        {"unknown-fact", "rule expressions", "a fact name the schema does not declare",
         "`fitrank rules schema` lists every fact with its type and unit; the hint names the "
         "closest."},
        {"unknown-function", "rule expressions", "a function that is not a builtin",
         "Builtins: min, max, clamp, abs, log2, round, len, has, known."},
        {"wrong-arity", "rule expressions", "a function called with the wrong number of arguments",
         "The message shows the function's usage."},
        {"type-mismatch", "rule expressions", "an operator or function applied to the wrong type",
         "For example a number compared with a string, or `score` given a condition. The message "
         "says which types were found."},
        {"not-constant", "rule expressions", "a value that must be a literal is not",
         "Regex patterns after `=~` and the digits of round() are compiled once, so they must be "
         "written as literals."},
        {"bad-regex", "rule expressions", "a regex RE2 cannot compile",
         "Patterns are RE2 syntax (no backreferences or lookaround); the message quotes RE2."},
        {"division-by-zero", "rule expressions", "a division by a constant zero",
         "A warning: the result counts as 0."},
        {"unknown-workload", "rule expressions, rules, engine/report/reports.yaml", "a workload id the profiles do not define",
         "Workloads: profiles/workloads.yaml; the hint names the closest."},
        {"unknown-mode", "rule expressions, rules", "a mode id the profiles do not define",
         "Modes: profiles/modes.yaml; the hint names the closest."},
        {"bad-template", "rules, engine/report/reports.yaml",
         "a `say` sentence or report note whose {placeholder} cannot be filled",
         "In rules, placeholders are expressions in braces; `{{` writes a brace. In report "
         "notes, {name} or {name:.1f} names a value the report passes (the hint lists them)."},
        // Rule tests (*.test.yaml).
        {"bad-expectation", "rule tests", "an expectation that cannot be checked",
         "For example a grade range whose bounds are reversed."},
        {"unknown-gpu", "rule tests", "a GPU name the catalog does not know", ""},
        {"unknown-model", "rule tests", "a model name the catalog does not know", ""},
        {"unknown-quant", "rule tests, engine/report/reports.yaml", "a quantization the catalog does not know", ""},
        // Calibration table.
        {"missing-column", "calibration table", "a column the table needs is absent",
         "The header line names the columns; see shared/calibration/README.md."},
    };
    std::sort(c.begin(), c.end(),
              [](const DiagnosticCode& a, const DiagnosticCode& b) { return a.code < b.code; });
    return c;
  }();
  return kCodes;
}

const DiagnosticCode* FindDiagnosticCode(std::string_view code) {
  const std::vector<DiagnosticCode>& all = DiagnosticCodes();
  auto it = std::lower_bound(all.begin(), all.end(), code,
                             [](const DiagnosticCode& d, std::string_view c) { return d.code < c; });
  return it != all.end() && it->code == code ? &*it : nullptr;
}

}  // namespace fitrank
