// Running fitrank in-process for tests: RunCli with stdout and stderr captured.
//
//   CliRun r = Fitrank({"recommend", "--gpu", "4090"});   // "fitrank" is prepended
//   nlohmann::json j = FitrankJson({"gpu", "4090"});      // with --json; must exit 0
#ifndef FITRANK_TESTS_CLI_CLI_RUN_H_
#define FITRANK_TESTS_CLI_CLI_RUN_H_

#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace fitrank::cli {

struct CliRun {
  int code = 0;
  std::string out, err;
};

inline CliRun Fitrank(std::vector<std::string> args) {
  args.insert(args.begin(), "fitrank");
  std::ostringstream out, err;
  CliRun r;
  r.code = RunCli(args, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// `args` plus --json, parsed. A non-zero exit fails the test and gives an empty object.
inline nlohmann::json FitrankJson(std::vector<std::string> args) {
  args.push_back("--json");
  CliRun r = Fitrank(std::move(args));
  EXPECT_EQ(r.code, 0) << r.err;
  return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

}  // namespace fitrank::cli

#endif  // FITRANK_TESTS_CLI_CLI_RUN_H_
