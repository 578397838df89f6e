// The diagnostic code table: complete (every code the sources report is listed), sorted,
// unique, and described.
#include "base/diagnostic_codes.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "re2/re2.h"

namespace fitrank {
namespace {

TEST(DiagnosticCodes, SortedUniqueAndDescribed) {
  const std::vector<DiagnosticCode>& all = DiagnosticCodes();
  ASSERT_GT(all.size(), 50u);
  for (size_t i = 0; i < all.size(); ++i) {
    SCOPED_TRACE(std::string(all[i].code));
    EXPECT_TRUE(RE2::FullMatch(std::string(all[i].code), "[a-z]+(-[a-z0-9]+)*"));
    EXPECT_FALSE(all[i].brief.empty());
    EXPECT_FALSE(all[i].where.empty());
    if (i > 0) EXPECT_LT(all[i - 1].code, all[i].code);
    EXPECT_EQ(FindDiagnosticCode(all[i].code), &all[i]);
  }
  EXPECT_EQ(FindDiagnosticCode("no-such-code"), nullptr);
}

// Codes appear in the sources as the first string argument of a reporting call
// (`diags->Error("code", ...)`, `Warn(where, "code", ...)`, `Fail(pos, "code", ...)`) or as the
// code of an ExprError initializer (`{offset, "code", message ...}`).
TEST(DiagnosticCodes, EveryCodeTheSourcesReportIsListed) {
  const RE2 call(R"re((?:Error|Warning|Fail|Err|Warn)\((?:[^,()"]*(?:\([^()]*\))?[^,()"]*,\s*)?"([a-z]+(?:-[a-z0-9]+)*)")re");
  const RE2 init(R"re(\{[^{}"]*,\s*"([a-z]+(?:-[a-z0-9]+)+)",\s*)re");
  std::set<std::string> found;
  for (const char* dir : {"base", "catalog", "rules", "engine", "profiles", "cli"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(
             std::filesystem::path(FITRANK_SOURCE_DIR) / dir)) {
      if (e.path().extension() != ".cc") continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string text = ss.str();
      for (const RE2* re : {&call, &init}) {
        re2::StringPiece input(text);
        std::string code;
        while (RE2::FindAndConsume(&input, *re, &code)) {
          if (FindDiagnosticCode(code) == nullptr) {
            ADD_FAILURE() << e.path().string() << " reports `" << code
                          << "`, which base/diagnostic_codes.cc does not list";
          }
          found.insert(code);
        }
      }
    }
  }
  // The scan itself works: it finds codes of every kind of call.
  for (const char* c : {"yaml-syntax", "unknown-fact", "syntax", "type-mismatch", "missing-column"}) {
    EXPECT_TRUE(found.count(c)) << c;
  }
}

}  // namespace
}  // namespace fitrank
