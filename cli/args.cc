#include "cli/args.h"

#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "base/numbers.h"
#include "base/text.h"

namespace fitrank::cli {

Args Args::Parse(const std::vector<std::string>& argv, const std::vector<FlagSpec>& flags) {
  Args args;
  std::vector<std::string> names;
  for (const FlagSpec& f : flags) names.push_back("--" + f.name);
  auto find = [&](absl::string_view name) -> const FlagSpec* {
    for (const FlagSpec& f : flags) {
      if (f.name == name) return &f;
    }
    return nullptr;
  };
  bool only_positional = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (only_positional || a.size() < 2 || a[0] != '-' || (a[1] != '-' && !std::isalpha(static_cast<unsigned char>(a[1])))) {
      args.positional_.push_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    std::string body = a.substr(a[1] == '-' ? 2 : 1);
    std::optional<std::string> inline_value;
    if (size_t eq = body.find('='); eq != std::string::npos) {
      inline_value = body.substr(eq + 1);
      body = body.substr(0, eq);
    }
    const FlagSpec* spec = find(body);
    if (spec == nullptr) {
      std::vector<std::string> close = ClosestMatches("--" + body, names, 2);
      throw UsageError(absl::StrCat("unknown flag `", a, "`"), DidYouMean(close), "unknown_flag",
                       close);
    }
    std::string value;
    if (spec->value_name.empty()) {
      if (inline_value) {
        throw UsageError(absl::StrCat("`--", body, "` takes no value"));
      }
      value = "true";
    } else if (inline_value) {
      value = *inline_value;
    } else {
      if (i + 1 >= argv.size()) {
        throw UsageError(absl::StrCat("`--", body, "` needs a value"),
                         absl::StrCat("write `--", body, " ", spec->value_name, "`"));
      }
      value = argv[++i];
    }
    auto& slot = args.values_[body];
    if (!slot.empty() && !spec->repeatable && !spec->value_name.empty()) {
      throw UsageError(absl::StrCat("`--", body, "` given twice"),
                       "give it once; only repeatable flags such as --gpu may repeat");
    }
    slot.push_back(std::move(value));
  }
  return args;
}

bool Args::Has(absl::string_view flag) const { return values_.find(flag) != values_.end(); }

std::optional<std::string> Args::Get(absl::string_view flag) const {
  auto it = values_.find(flag);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::string Args::GetOr(absl::string_view flag, std::string def) const {
  auto v = Get(flag);
  return v ? *v : std::move(def);
}

std::vector<std::string> Args::GetAll(absl::string_view flag) const {
  auto it = values_.find(flag);
  if (it == values_.end()) return {};
  return it->second;
}

namespace {

UsageError OutOfRange(absl::string_view flag, absl::string_view value, double min, double max,
                      absl::string_view unit) {
  const std::string u = unit.empty() ? "" : absl::StrCat(" ", unit);
  return UsageError(absl::StrCat("`--", flag, " ", Clip(value), "` is out of range"),
                    absl::StrCat("use a value from ", min, u, " to ", max, u), "out_of_range");
}

}  // namespace

std::optional<double> Args::GetDouble(absl::string_view flag, double min, double max,
                                      absl::string_view unit) const {
  auto v = Get(flag);
  if (!v) return std::nullopt;
  double d = 0;
  switch (ParseDecimal(*v, &d)) {
    case NumberParse::kOk:
      break;
    case NumberParse::kOverflow:
      throw OutOfRange(flag, *v, min, max, unit);
    case NumberParse::kNotDecimal:
      throw UsageError(absl::StrCat("`--", flag, "` must be a number, got `", Clip(*v), "`"),
                       "write a plain decimal number such as `24` or `0.5`", "bad_number");
  }
  if (d < min || d > max) throw OutOfRange(flag, *v, min, max, unit);
  return d;
}

std::optional<int> Args::GetInt(absl::string_view flag, int min, int max,
                                absl::string_view unit) const {
  auto v = Get(flag);
  if (!v) return std::nullopt;
  // Read as 64 bits so that a whole number too large for an int is "out of range", not
  // "not a whole number".
  int64_t n = 0;
  switch (ParseDecimalInt(*v, &n)) {
    case NumberParse::kOk:
      break;
    case NumberParse::kOverflow:
      throw OutOfRange(flag, *v, min, max, unit);
    case NumberParse::kNotDecimal:
      throw UsageError(absl::StrCat("`--", flag, "` must be a whole number, got `", Clip(*v), "`"),
                       "", "bad_number");
  }
  if (n < min || n > max) throw OutOfRange(flag, *v, min, max, unit);
  return static_cast<int>(n);
}

}  // namespace fitrank::cli
