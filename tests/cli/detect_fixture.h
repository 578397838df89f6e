// A fake machine for detection tests: a temporary directory with bin/ (fake nvidia-smi,
// rocm-smi, system_profiler, sysctl scripts, first and only on PATH), root/ (a fake /proc and
// /sys, $FITRANK_SYSROOT) and hub/ (an empty Hugging Face cache, $HF_HUB_CACHE); Ollama points
// at a closed loopback port unless a test serves one. The environment is restored afterwards.
#ifndef FITRANK_TESTS_CLI_DETECT_FIXTURE_H_
#define FITRANK_TESTS_CLI_DETECT_FIXTURE_H_

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace fitrank::cli {

class FakeMachine : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fitrank_detect_XXXXXX";
    dir_ = mkdtemp(tmpl);
    std::filesystem::create_directories(dir_ + "/bin");
    std::filesystem::create_directories(dir_ + "/root/proc");
    std::filesystem::create_directories(dir_ + "/hub");
    for (const char* v : {"PATH", "FITRANK_SYSROOT", "HF_HUB_CACHE", "HF_HOME", "OLLAMA_HOST"}) {
      const char* old = getenv(v);
      saved_[v] = old ? std::optional<std::string>(old) : std::nullopt;
    }
    setenv("PATH", (dir_ + "/bin").c_str(), 1);
    setenv("FITRANK_SYSROOT", (dir_ + "/root").c_str(), 1);
    setenv("HF_HUB_CACHE", (dir_ + "/hub").c_str(), 1);
    unsetenv("HF_HOME");
    setenv("OLLAMA_HOST", "127.0.0.1:1", 1);  // nothing listens on port 1
  }
  void TearDown() override {
    for (const auto& [k, v] : saved_) {
      if (v)
        setenv(k.c_str(), v->c_str(), 1);
      else
        unsetenv(k.c_str());
    }
    std::filesystem::remove_all(dir_);
  }

  // A fake tool on PATH: a /bin/sh script whose body is `script`.
  void Tool(const std::string& name, const std::string& script) {
    const std::string path = dir_ + "/bin/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << script << "\n";
    chmod(path.c_str(), 0755);
  }
  // A tool that prints `text` and exits 0.
  void ToolPrinting(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/bin/" + name + ".out";
    std::ofstream(path) << text;
    Tool(name, "exec /bin/cat '" + path + "'");
  }
  // A file under the fake root ("proc/meminfo").
  void RootFile(const std::string& rel, const std::string& text) {
    const std::string path = dir_ + "/root/" + rel;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
  }
  void Host64GB() {
    RootFile(
        "proc/meminfo",
        "MemTotal:       65536000 kB\nMemFree:         1000000 kB\nMemAvailable:   50000000 kB\n");
    RootFile("proc/cpuinfo",
             "processor\t: 0\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\nphysical id\t: 0\n"
             "core id\t\t: 0\n\nprocessor\t: 1\nmodel name\t: AMD Ryzen 9 7950X 16-Core Processor\n"
             "physical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 2\nmodel name\t: AMD Ryzen 9 7950X "
             "16-Core Processor\nphysical id\t: 0\ncore id\t\t: 1\n");
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::map<std::string, std::optional<std::string>> saved_;
};

// nvidia-smi lines in the query's field order.
inline constexpr char kOne4090[] =
    "0, NVIDIA GeForce RTX 4090, 24564, 1021, 23142, 00000000:01:00.0, 550.54.14, 8.9\n";
inline constexpr char kTwo3090[] =
    "0, NVIDIA GeForce RTX 3090, 24576, 300, 24276, 00000000:01:00.0, 550.54.14, 8.6\n"
    "1, NVIDIA GeForce RTX 3090, 24576, 12588, 11988, 00000000:02:00.0, 550.54.14, 8.6\n";

}  // namespace fitrank::cli

#endif  // FITRANK_TESTS_CLI_DETECT_FIXTURE_H_
