#include "cli/mcp_tools.h"

#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "base/text.h"
#include "cli/command.h"

namespace fitrank::cli {
namespace {

using Json = nlohmann::ordered_json;

McpArg Flag(std::string flag, McpArgType type, bool required = false) {
  McpArg a;
  a.name = absl::StrReplaceAll(flag, {{"-", "_"}});
  a.flag = std::move(flag);
  a.type = type;
  a.required = required;
  return a;
}

McpArg Enum(std::string flag, std::vector<std::string> values) {
  McpArg a = Flag(std::move(flag), McpArgType::kString);
  a.enum_values = std::move(values);
  return a;
}

McpArg Positional(std::string name, McpArgType type, std::string description,
                  int min_items = 0) {
  McpArg a;
  a.name = std::move(name);
  a.type = type;
  a.required = true;
  a.description = std::move(description);
  a.min_items = min_items;
  return a;
}

// What leaving the GPU out means, said once for every tool that allows it.
constexpr char kDetectedWhenOmitted[] =
    "; omit it for the GPUs detected on the machine the server runs on (a second text in the "
    "result says which setup was detected)";

// --gpu, repeatable on the command line: a list here. Optional: no GPU = the detected setup.
McpArg GpuList() {
  McpArg a = Flag("gpu", McpArgType::kStringList);
  a.description = absl::StrCat(
      "the GPUs by catalog name, id or alias, one entry per card: [\"RTX 4090\"], a mixed rig "
      "[\"4090\", \"3090\"], two of a kind [\"4090\", \"4090\"] (or `gpus`: 2)",
      kDetectedWhenOmitted);
  a.min_items = 1;
  return a;
}

// The setup arguments of the report commands (cli/report_context.h SetupFlags).
std::vector<McpArg> SetupArgs(bool gpu_flag) {
  std::vector<McpArg> v;
  if (gpu_flag) v.push_back(GpuList());
  v.push_back(Flag("free-memory", McpArgType::kBoolean));
  v.push_back(Flag("gpus", McpArgType::kInteger));
  v.push_back(Flag("ram", McpArgType::kNumber));
  v.push_back(Flag("mode", McpArgType::kString));
  return v;
}

McpArg Optional(McpArg a) {
  a.required = false;
  return a;
}

std::vector<McpArg> Concat(std::vector<McpArg> a, std::vector<McpArg> b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const Command* CommandNamed(absl::string_view name) {
  for (const Command& c : Commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const FlagSpec* FlagNamed(const Command& c, absl::string_view flag) {
  for (const FlagSpec& f : c.flags) {
    if (f.name == flag) return &f;
  }
  return nullptr;
}

const char* TypeName(McpArgType t) {
  switch (t) {
    case McpArgType::kString: return "a string";
    case McpArgType::kStringList: return "a string or an array of strings";
    case McpArgType::kInteger: return "an integer";
    case McpArgType::kNumber: return "a number";
    case McpArgType::kBoolean: return "true or false";
  }
  return "";
}

// Shortest text that reads back as `v` ("4.65", "24", "1e+300").
std::string NumberText(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  return ec == std::errc() ? std::string(buf, end) : absl::StrCat(v);
}

// The text values of one argument, or nullopt if `v` is not of the argument's type.
std::optional<std::vector<std::string>> Values(const McpArg& a, const Json& v) {
  switch (a.type) {
    case McpArgType::kString:
      if (!v.is_string()) return std::nullopt;
      return std::vector<std::string>{v.get<std::string>()};
    case McpArgType::kStringList: {
      if (v.is_string()) return std::vector<std::string>{v.get<std::string>()};
      if (!v.is_array()) return std::nullopt;
      std::vector<std::string> out;
      for (const Json& e : v) {
        if (!e.is_string()) return std::nullopt;
        out.push_back(e.get<std::string>());
      }
      return out;
    }
    case McpArgType::kInteger:
      if (v.is_number_integer()) return std::vector<std::string>{v.dump()};
      if (v.is_number_float()) {
        double d = v.get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
          return std::vector<std::string>{absl::StrCat(static_cast<int64_t>(d))};
        }
      }
      return std::nullopt;
    case McpArgType::kNumber:
      if (v.is_number_integer()) return std::vector<std::string>{v.dump()};
      if (v.is_number_float() && std::isfinite(v.get<double>())) {
        return std::vector<std::string>{NumberText(v.get<double>())};
      }
      return std::nullopt;
    case McpArgType::kBoolean:
      if (!v.is_boolean()) return std::nullopt;
      return v.get<bool>() ? std::vector<std::string>{""} : std::vector<std::string>{};
  }
  return std::nullopt;
}

}  // namespace

const std::vector<McpTool>& McpTools() {
  static const std::vector<McpTool> kTools = [] {
    using T = McpArgType;
    std::vector<McpTool> t;
    t.push_back({"recommend",
                 "Which models to run on a GPU setup: ranked picks with grades, speed and "
                 "reasons.",
                 Concat(SetupArgs(true), {Flag("workload", T::kString), Flag("top", T::kInteger),
                                          Enum("min-grade", {"A", "B", "C", "D", "F"}),
                                          Flag("capability", T::kString)})});
    t.push_back({"fit", "How one model fits and runs on a GPU setup, at every quantization.",
                 Concat({Positional("model", T::kString,
                                    "the model: a catalog name, id or alias (\"llama 3.3 70b\")")},
                        Concat(SetupArgs(true),
                               {Flag("quant", T::kString), Flag("workload", T::kString)}))});
    t.push_back({"gpu", "The whole page about one GPU for local AI.",
                 Concat({Optional(Positional(
                            "name", T::kString,
                            absl::StrCat("the GPU: a catalog name, id or alias (\"RTX 4090\", "
                                         "\"mi325x\")",
                                         kDetectedWhenOmitted)))},
                        SetupArgs(false))});
    t.push_back({"compare", "Compare GPUs side by side.",
                 {Positional("gpus", T::kStringList,
                             "two or more GPUs by catalog name, id or alias", 2),
                  Flag("workload", T::kString), Flag("mode", T::kString),
                  Flag("ram", T::kNumber)}});
    t.push_back({"upgrade", "What to buy next from a GPU setup, within a budget.",
                 Concat(SetupArgs(true),
                        {Flag("budget", T::kNumber), Flag("workload", T::kString)})});
    t.push_back(
        {"estimate", "Raw estimator numbers for one model on a GPU setup, with their basis.",
         {GpuList(), Flag("free-memory", T::kBoolean), Flag("gpus", T::kInteger),
          Flag("ram", T::kNumber), Enum("parallel", {"layer", "tensor"}),
          Flag("runtime", T::kString), Flag("model", T::kString),
          Flag("model-config", T::kString), Flag("quant", T::kString), Flag("bpw", T::kNumber),
          Flag("context", T::kInteger), Flag("prompt", T::kInteger), Flag("gen", T::kInteger),
          Flag("batch", T::kInteger), Enum("kv-cache", {"f16", "q8_0", "q4_0"})}});
    t.push_back({"detect",
                 "What the machine the server runs on has: GPUs with total and free memory, "
                 "host, installed models, and the catalog entry each GPU maps to.",
                 {Flag("probe-timeout-ms", T::kInteger)}});
    return t;
  }();
  return kTools;
}

const McpTool* FindMcpTool(absl::string_view name) {
  for (const McpTool& t : McpTools()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

Json McpToolListing(const McpTool& tool) {
  const Command* cmd = CommandNamed(tool.name);
  Json props = Json::object();
  Json required = Json::array();
  for (const McpArg& a : tool.args) {
    Json p;
    switch (a.type) {
      case McpArgType::kString: p["type"] = "string"; break;
      case McpArgType::kStringList:
        p["type"] = "array";
        p["items"] = {{"type", "string"}};
        if (a.min_items > 0) p["minItems"] = a.min_items;
        break;
      case McpArgType::kInteger: p["type"] = "integer"; break;
      case McpArgType::kNumber: p["type"] = "number"; break;
      case McpArgType::kBoolean: p["type"] = "boolean"; break;
    }
    if (!a.enum_values.empty()) p["enum"] = a.enum_values;
    std::string description = a.description;
    const FlagSpec* f = cmd != nullptr && !a.flag.empty() ? FlagNamed(*cmd, a.flag) : nullptr;
    if (description.empty() && f != nullptr) {
      description = f->help;
      // The unit the CLI shows as the value's name (--ram GB, --budget USD).
      if (f->value_name == "GB" || f->value_name == "USD") {
        absl::StrAppend(&description, " [", f->value_name, "]");
      }
    }
    p["description"] = description;
    props[a.name] = std::move(p);
    if (a.required) required.push_back(a.name);
  }
  Json schema = {{"type", "object"}, {"properties", std::move(props)}};
  if (!required.empty()) schema["required"] = std::move(required);
  schema["additionalProperties"] = false;
  std::string description = tool.summary;
  if (cmd != nullptr) {
    absl::StrAppend(&description, " (fitrank ", tool.name, ": ", cmd->summary, ")");
  }
  return {{"name", tool.name}, {"description", description}, {"inputSchema", std::move(schema)}};
}

std::optional<std::vector<std::string>> McpToolArgv(const McpTool& tool, const Json& arguments,
                                                    McpArgProblem* problem) {
  if (!arguments.is_null() && !arguments.is_object()) {
    *problem = {absl::StrCat("the arguments of `", tool.name, "` must be an object"), ""};
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const McpArg& a : tool.args) names.push_back(a.name);
  if (arguments.is_object()) {
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
      bool known = false;
      for (const McpArg& a : tool.args) known |= a.name == it.key();
      if (!known) {
        std::string hint = DidYouMean(ClosestMatches(it.key(), names));
        *problem = {absl::StrCat("unknown argument `", it.key(), "` for tool `", tool.name, "`"),
                    hint.empty() ? absl::StrCat("its arguments are ", QuotedList(names, " and "))
                                 : hint};
        return std::nullopt;
      }
    }
  }
  std::vector<std::string> argv = {"fitrank", tool.name};
  std::vector<std::string> positional;
  for (const McpArg& a : tool.args) {
    const Json* v = nullptr;
    if (arguments.is_object()) {
      auto it = arguments.find(a.name);
      if (it != arguments.end() && !it->is_null()) v = &*it;
    }
    if (v == nullptr) {
      if (a.required) {
        *problem = {absl::StrCat("tool `", tool.name, "` needs the argument `", a.name, "`"),
                    a.description.empty() ? "" : absl::StrCat("`", a.name, "`: ", a.description)};
        return std::nullopt;
      }
      continue;
    }
    std::optional<std::vector<std::string>> values = Values(a, *v);
    if (!values) {
      *problem = {absl::StrCat("argument `", a.name, "` of tool `", tool.name, "` must be ",
                               TypeName(a.type), ", not ", v->dump()),
                  ""};
      return std::nullopt;
    }
    if (static_cast<int>(values->size()) < a.min_items) {
      *problem = {absl::StrCat("argument `", a.name, "` of tool `", tool.name, "` needs ",
                               a.min_items, " or more entries"),
                  ""};
      return std::nullopt;
    }
    if (!a.enum_values.empty() && std::find(a.enum_values.begin(), a.enum_values.end(),
                                            values->front()) == a.enum_values.end()) {
      std::string hint = DidYouMean(ClosestMatches(values->front(), a.enum_values, 1));
      *problem = {absl::StrCat("argument `", a.name, "` of tool `", tool.name, "` is `",
                               values->front(), "`"),
                  hint.empty() ? absl::StrCat("one of ", QuotedList(a.enum_values)) : hint};
      return std::nullopt;
    }
    for (std::string& s : *values) {
      if (a.flag.empty()) {
        positional.push_back(std::move(s));
      } else if (a.type == McpArgType::kBoolean) {
        argv.push_back(absl::StrCat("--", a.flag));
      } else {
        argv.push_back(absl::StrCat("--", a.flag, "=", s));
      }
    }
  }
  argv.push_back("--json");
  if (!positional.empty()) {
    argv.push_back("--");
    for (std::string& s : positional) argv.push_back(std::move(s));
  }
  return argv;
}

}  // namespace fitrank::cli
