// CSV output is machine-readable: every report command's --format csv parses as RFC 4180,
// has snake_case headers, the same number of cells in every row, and numeric columns (named
// with a unit or a count) that parse as plain numbers: no thousands separators, no units.
#include <cstdlib>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "re2/re2.h"
#include "tests/cli/cli_run.h"

namespace fitrank::cli {
namespace {

using Rows = std::vector<std::vector<std::string>>;

// RFC 4180: fields separated by commas, records by CRLF or LF; a quoted field may hold
// commas, line breaks and doubled quotes. Sets *ok to false on a malformed quote.
Rows ParseCsv(const std::string& text, bool* ok) {
  Rows rows(1);
  std::string field;
  bool quoted = false, was_quoted = false;
  *ok = true;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      if (!field.empty()) *ok = false;  // a quote inside an unquoted field
      quoted = was_quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
      rows.emplace_back();
    } else {
      if (was_quoted) *ok = false;  // text after a closing quote
      field += c;
    }
  }
  if (quoted) *ok = false;
  if (!field.empty() || !rows.back().empty()) rows.back().push_back(field);
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

bool IsNumericColumn(const std::string& name) {
  static const RE2 kUnit(
      "(_gb|_ms|_usd|_tok_s|_pct|_b|_gbps|_w|_tflops|_count|^rank|^score|^quality_retention|"
      "^bpw|^bits|^context|^safe_context|^gpus|^gpu_count|_s|_bpw)$");
  return RE2::PartialMatch(name, kUnit);
}

bool IsNumber(const std::string& cell) {
  if (cell.empty()) return true;  // unknown
  static const RE2 kNumber("-?[0-9]+(\\.[0-9]+)?");
  return RE2::FullMatch(cell, kNumber);
}

// `numeric`: the CSV must have a numeric column (the runtimes list has none).
void ExpectParses(const std::vector<std::string>& args, bool numeric_expected = true) {
  SCOPED_TRACE(testing::PrintToString(args));
  CliRun r = Fitrank(args);
  ASSERT_EQ(r.code, 0) << r.err;
  bool ok = false;
  Rows rows = ParseCsv(r.out, &ok);
  ASSERT_TRUE(ok) << r.out;
  ASSERT_GE(rows.size(), 2u) << r.out;
  const std::vector<std::string>& header = rows[0];
  int numeric = 0;
  for (const std::string& h : header) {
    EXPECT_TRUE(RE2::FullMatch(h, "[a-z][a-z0-9_]*")) << "header `" << h << "`";
    numeric += IsNumericColumn(h);
  }
  if (numeric_expected) {
    EXPECT_GT(numeric, 0) << "no numeric column in " << testing::PrintToString(header);
  }
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), header.size()) << "row " << i;
    for (size_t c = 0; c < header.size(); ++c) {
      if (!IsNumericColumn(header[c])) continue;
      EXPECT_TRUE(IsNumber(rows[i][c]))
          << "row " << i << " column " << header[c] << ": `" << rows[i][c] << "`";
    }
  }
}

TEST(CsvFormat, RecommendParsesWithNumericColumns) {
  ExpectParses({"recommend", "--gpu", "mi325x", "--workload", "all", "--format", "csv"});
}

TEST(CsvFormat, GpuParsesWithNumericColumns) {
  ExpectParses({"gpu", "4090", "--format", "csv"});
}

TEST(CsvFormat, FitParsesWithNumericColumns) {
  ExpectParses({"fit", "llama 3.3 70b", "--gpu", "4090", "--format", "csv"});
}

TEST(CsvFormat, UpgradeParsesWithNumericColumns) {
  ExpectParses({"upgrade", "--gpu", "RTX 3060 12GB", "--budget", "2000", "--format", "csv"});
}

TEST(CsvFormat, EstimateParsesWithNumericColumns) {
  ExpectParses({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--format", "csv"});
}

TEST(CsvFormat, CatalogGpusParsesWithNumericColumns) {
  ExpectParses({"catalog", "gpus", "--filter", "geforce 40", "--format", "csv"});
}

TEST(CsvFormat, EveryCatalogListParsesWithNumericColumns) {
  for (const char* list : {"gpus", "models", "diffusion", "quants", "interconnects", "prices"}) {
    ExpectParses({"catalog", list, "--format", "csv"});
  }
  ExpectParses({"catalog", "runtimes", "--format", "csv"}, /*numeric_expected=*/false);
}

TEST(CsvFormat, SweepParsesWithNumericColumns) {
  ExpectParses({"sweep", "--gpu", "4090", "--gpu", "4060", "--top", "3", "--format", "csv"});
}

TEST(CsvFormat, CompareParsesWithNumericColumns) {
  ExpectParses({"compare", "4090", "3090", "5090", "--format", "csv"});
}

TEST(CsvFormat, ParserRejectsBrokenQuotes) {
  bool ok = true;
  ParseCsv("a,b\n\"x,1\n", &ok);
  EXPECT_FALSE(ok);
  Rows rows = ParseCsv("a,b\r\n\"x,\"\"y\"\"\",2\r\n", &ok);
  EXPECT_TRUE(ok);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1][0], "x,\"y\"");
}

}  // namespace
}  // namespace fitrank::cli
