// The parsers of cli/detect.h: the GPU tools' output and /proc files, as text.
#include <cmath>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "cli/detect.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// A finite number >= 0, or nullopt ("[N/A]", "", garbage).
std::optional<double> Number(absl::string_view s) {
  double v;
  s = absl::StripAsciiWhitespace(s);
  if (!absl::SimpleAtod(s, &v) || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

std::string Known(absl::string_view s) {
  s = absl::StripAsciiWhitespace(s);
  if (s.empty() || s == "[N/A]" || s == "N/A" || absl::StartsWith(s, "[Not Supported")) return "";
  return std::string(s);
}

// A JSON member by case-insensitive key, as a string (rocm-smi prints numbers as strings, and
// its key spelling changes across releases).
std::string Member(const nlohmann::json& o, absl::string_view key) {
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (absl::EqualsIgnoreCase(it.key(), key)) {
      if (it->is_string()) return it->get<std::string>();
      if (it->is_number()) return it->dump();
    }
  }
  return "";
}

}  // namespace

std::vector<DetectedGpu> ParseNvidiaSmi(absl::string_view csv, std::vector<std::string>* notes) {
  // index, name, memory.total, memory.used, memory.free, pci.bus_id, driver_version, compute_cap
  std::vector<DetectedGpu> gpus;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(csv, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty()) continue;
    std::vector<absl::string_view> f = absl::StrSplit(line, ',');
    if (f.size() != 8) {
      notes->push_back(
          absl::StrCat("nvidia-smi: line ", line_no, ": expected 8 fields, got ", f.size()));
      continue;
    }
    DetectedGpu g;
    g.vendor = "NVIDIA";
    g.source = "nvidia-smi";
    g.name = Known(f[1]);
    std::optional<double> total = Number(f[2]);
    if (g.name.empty() || !total || *total <= 0 || *total > 16 * kMiB) {
      notes->push_back(absl::StrCat("nvidia-smi: line ", line_no, ": no name or memory.total in `",
                                    line.substr(0, 80), "`"));
      continue;
    }
    g.memory_total_gib = *total * kMiB / kBytesPerGib;
    if (std::optional<double> free = Number(f[4])) {
      g.memory_free_gib = std::min(*free * kMiB / kBytesPerGib, g.memory_total_gib);
    } else if (std::optional<double> used = Number(f[3])) {
      g.memory_free_gib = std::max(g.memory_total_gib - *used * kMiB / kBytesPerGib, 0.0);
    }
    g.pci_id = Known(f[5]);
    g.driver = Known(f[6]);
    g.compute_capability = Known(f[7]);
    gpus.push_back(std::move(g));
  }
  return gpus;
}

std::vector<DetectedGpu> ParseRocmSmi(absl::string_view text, std::vector<std::string>* notes) {
  std::vector<DetectedGpu> gpus;
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    notes->push_back("rocm-smi: output is not the JSON object expected");
    return gpus;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!absl::StartsWith(it.key(), "card") || !it->is_object()) continue;
    const nlohmann::json& c = *it;
    DetectedGpu g;
    g.vendor = "AMD";
    g.source = "rocm-smi";
    for (const char* key : {"Card Series", "Card series", "Card model", "Card SKU"}) {
      g.name = Known(Member(c, key));
      if (!g.name.empty() && !absl::StartsWith(g.name, "0x")) break;
    }
    g.compute_capability = Known(Member(c, "GFX Version"));
    std::optional<double> total = Number(Member(c, "VRAM Total Memory (B)"));
    if (g.name.empty() || !total || *total <= 0) {
      notes->push_back(absl::StrCat("rocm-smi: ", it.key(), ": no product name or VRAM total"));
      continue;
    }
    g.memory_total_gib = *total / kBytesPerGib;
    if (std::optional<double> used = Number(Member(c, "VRAM Total Used Memory (B)"))) {
      g.memory_free_gib = std::max(g.memory_total_gib - *used / kBytesPerGib, 0.0);
    }
    g.pci_id = Known(Member(c, "PCI Bus"));
    gpus.push_back(std::move(g));
  }
  return gpus;
}

std::vector<int> ParseXpuSmiList(absl::string_view text, std::vector<std::string>* notes) {
  constexpr size_t kMaxDevices = 64;
  std::vector<int> ids;
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("device_list") ||
      !j["device_list"].is_array()) {
    notes->push_back("xpu-smi: discovery output is not the device_list JSON expected");
    return ids;
  }
  for (const nlohmann::json& d : j["device_list"]) {
    int id = -1;
    if (!d.is_object() || !absl::SimpleAtoi(Member(d, "device_id"), &id) || id < 0) {
      notes->push_back("xpu-smi: a device_list entry has no device_id");
      continue;
    }
    if (ids.size() == kMaxDevices) break;
    ids.push_back(id);
  }
  return ids;
}

std::optional<DetectedGpu> ParseXpuSmiDevice(absl::string_view text,
                                             std::vector<std::string>* notes) {
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    notes->push_back("xpu-smi: device output is not the JSON object expected");
    return std::nullopt;
  }
  DetectedGpu g;
  g.vendor = "Intel";
  g.source = "xpu-smi";
  g.name = Known(Member(j, "device_name"));
  if (g.name.empty()) {
    notes->push_back("xpu-smi: a device without device_name");
    return std::nullopt;
  }
  if (std::optional<double> total = Number(Member(j, "memory_physical_size_byte"));
      total && *total > 0) {
    g.memory_total_gib = *total / kBytesPerGib;
    if (std::optional<double> free = Number(Member(j, "memory_free_size_byte"))) {
      g.memory_free_gib = std::min(*free / kBytesPerGib, g.memory_total_gib);
    }
  } else {
    notes->push_back(absl::StrCat("xpu-smi: ", g.name, ": no memory_physical_size_byte"));
  }
  g.driver = Known(Member(j, "driver_version"));
  g.pci_id = Known(Member(j, "pci_bdf_address"));
  return g;
}

std::vector<DetectedGpu> ParseSystemProfiler(absl::string_view text, absl::string_view memsize,
                                             std::vector<std::string>* notes) {
  std::vector<DetectedGpu> gpus;
  const nlohmann::json j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("SPDisplaysDataType") ||
      !j["SPDisplaysDataType"].is_array()) {
    notes->push_back("system_profiler: output is not the SPDisplaysDataType JSON expected");
    return gpus;
  }
  const std::optional<double> bytes = Number(memsize);
  for (const nlohmann::json& d : j["SPDisplaysDataType"]) {
    if (!d.is_object()) continue;
    DetectedGpu g;
    g.vendor = "Apple";
    g.source = "system_profiler";
    g.name = Known(Member(d, "sppci_model"));
    if (!absl::StartsWith(g.name, "Apple")) continue;  // an Intel Mac's discrete GPU: not modelled
    int cores = 0;
    if (absl::SimpleAtoi(Member(d, "sppci_cores"), &cores) && cores > 0 && cores < 1024)
      g.gpu_cores = cores;
    if (!bytes || *bytes <= 0) {
      notes->push_back("sysctl: hw.memsize unreadable: the unified memory size is unknown");
    } else {
      g.memory_total_gib = *bytes / kBytesPerGib;
    }
    gpus.push_back(std::move(g));
  }
  return gpus;
}

void ParseMeminfo(absl::string_view text, DetectedHost* host) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(':', 1));
    absl::string_view v = absl::StripAsciiWhitespace(kv.second);
    absl::ConsumeSuffix(&v, "kB");
    std::optional<double> kb = Number(v);
    if (!kb) continue;
    if (kv.first == "MemTotal") host->ram_total_gib = *kb * 1024 / kBytesPerGib;
    if (kv.first == "MemAvailable") host->ram_available_gib = *kb * 1024 / kBytesPerGib;
  }
}

void ParseCpuinfo(absl::string_view text, DetectedHost* host) {
  std::set<std::pair<std::string, std::string>> cores;
  std::string physical_id;
  int processors = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(':', 1));
    const absl::string_view k = absl::StripAsciiWhitespace(kv.first);
    const absl::string_view v = absl::StripAsciiWhitespace(kv.second);
    if (k == "processor") ++processors, physical_id.clear();
    if (k == "model name" && host->cpu_model.empty()) host->cpu_model = std::string(v);
    if (k == "physical id") physical_id = std::string(v);
    if (k == "core id") cores.insert({physical_id, std::string(v)});
  }
  host->logical_cores = processors;
  host->physical_cores = static_cast<int>(cores.size());
}

void ParseLscpu(absl::string_view text, DetectedHost* host) {
  int sockets = 0, cores_per_socket = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(line, absl::MaxSplits(':', 1));
    const absl::string_view k = absl::StripAsciiWhitespace(kv.first);
    const absl::string_view v = absl::StripAsciiWhitespace(kv.second);
    int n = 0;
    if (k == "Model name" && host->cpu_model.empty()) host->cpu_model = std::string(v);
    if (k == "CPU(s)" && host->logical_cores == 0 && absl::SimpleAtoi(v, &n) && n > 0)
      host->logical_cores = n;
    if (k == "Socket(s)" && absl::SimpleAtoi(v, &n) && n > 0) sockets = n;
    if (k == "Core(s) per socket" && absl::SimpleAtoi(v, &n) && n > 0) cores_per_socket = n;
  }
  if (host->physical_cores == 0 && sockets > 0 && cores_per_socket > 0) {
    host->physical_cores = sockets * cores_per_socket;
  }
}

}  // namespace fitrank::cli

namespace fitrank::cli {
namespace {

// The channel named in a locator: "P0 CHANNEL A" -> "p0 channel a", "ChannelB-DIMM0" ->
// "channelb"; "" if the text names no channel. What precedes "channel" (a socket or node) is
// kept, so channel A of two sockets counts twice.
std::string ChannelKey(absl::string_view locator) {
  const std::string lower = absl::AsciiStrToLower(locator);
  const size_t at = lower.find("channel");
  if (at == std::string::npos) return "";
  size_t end = at + 7;
  while (end < lower.size() && (lower[end] == ' ' || lower[end] == '_' || lower[end] == '-'))
    ++end;
  const size_t token = end;
  while (end < lower.size() && absl::ascii_isalnum(static_cast<unsigned char>(lower[end])))
    ++end;
  if (end == token) return "";
  return lower.substr(0, end);
}

}  // namespace

int ParseDmidecodeChannels(absl::string_view text) {
  std::set<std::string> channels;
  bool in_device = false, populated = false;
  std::string bank, locator;
  bool unknown = false;
  auto finish = [&] {
    if (in_device && populated) {
      std::string key = ChannelKey(bank);
      if (key.empty()) key = ChannelKey(locator);
      if (key.empty()) unknown = true;
      else channels.insert(std::move(key));
    }
    in_device = populated = false;
    bank.clear();
    locator.clear();
  };
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const absl::string_view t = absl::StripAsciiWhitespace(line);
    if (t == "Memory Device") {
      finish();
      in_device = true;
      continue;
    }
    if (absl::StartsWith(t, "Handle ")) finish();
    if (!in_device) continue;
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(t, absl::MaxSplits(':', 1));
    const absl::string_view k = absl::StripAsciiWhitespace(kv.first);
    const absl::string_view v = absl::StripAsciiWhitespace(kv.second);
    if (k == "Size") {
      // "16 GB", "16384 MB"; "No Module Installed", "Not Installed", "0", "Unknown": empty.
      double size = 0;
      std::vector<absl::string_view> words = absl::StrSplit(v, ' ', absl::SkipEmpty());
      populated = !words.empty() && absl::SimpleAtod(words[0], &size) && size > 0;
    }
    if (k == "Bank Locator") bank = std::string(v);
    if (k == "Locator") locator = std::string(v);
  }
  finish();
  return unknown ? 0 : static_cast<int>(channels.size());
}

int EdacChannel(absl::string_view location) {
  std::vector<absl::string_view> w = absl::StrSplit(location, ' ', absl::SkipEmpty());
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    int n = -1;
    if (w[i] == "channel" && absl::SimpleAtoi(w[i + 1], &n) && n >= 0) return n;
  }
  return -1;
}

}  // namespace fitrank::cli
