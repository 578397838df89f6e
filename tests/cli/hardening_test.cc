// The input contract end to end (SECURITY.md): whatever the input, exit 0, 1 or 2 with a
// message that says what and where; files are regular, bounded and read once; names are
// capped; numbers are decimal; nothing from the input reaches the terminal raw. Each test
// is a regression test for one defect of issue 16.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/cli/cli_run.h"
#include "tests/scratch_dir.h"

namespace fitrank::cli {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) { return testing::ScratchDir("hardening_" + name); }

std::string WriteFile(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

std::string Corpus(const std::string& file) {
  return std::string(FITRANK_SOURCE_DIR) + "/tests/fuzz/corpus/" + file;
}

TEST(Hardening, TheSharedHooksCommandLinesExitWithinTheContract) {
  const std::string config = Corpus("model_config/hidden_size_overflow.json");
  CliRun r = Fitrank({"estimate", "--gpu", "4090", "--model-config", config});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fitrank estimate: error: " + config +
                       ":1:42: not valid JSON: number overflow parsing '1e309' (numbers must fit "
                       "a double)\n");

  r = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--context", "nan"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fitrank estimate: error: `--context` must be a whole number, got `nan`\n");

  r = Fitrank({"recommend", "--gpu", "4090", "--ram", "-1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank recommend: error: `--ram -1` is out of range\n"
            "  hint: use a value from 1 GB to 65536 GB\n");

  r = Fitrank({"fit", "", "--gpu", "4090"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank fit: error: the model name is empty\n"
            "  hint: give a model name, e.g. `llama 3.1 8b`\n");

  r = Fitrank({"catalog", "show", std::string(3000, 'x')});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank catalog: error: the catalog entry name `" + std::string(40, 'x') +
                "… (+2960 bytes)` is 3000 bytes long; names are at most 256\n"
                "  hint: give a shorter name; catalog names are a few words\n");

  r = Fitrank({"calibrate", "--measurements", "/dev/null"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank calibrate: error: /dev/null: is not a regular file (a FIFO, device or "
            "socket)\n"
            "  hint: give a TSV with the columns of shared/calibration/measured.tsv\n");

  r = Fitrank({"rules", "lint", "/dev/null"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank rules: error: /dev/null: is not a regular file (a FIFO, device or socket)\n"
            "  hint: give rule files (*.yaml) or directories\n");
}

TEST(Hardening, ModelConfigsOfTheWrongShapeExit2NotAnInternalError) {
  for (const char* file : {"tie_word_embeddings_number.json", "vocab_size_uint64_max.json",
                           "zero_kv_heads.json", "wrong_types.json",
                           "moe_topk_over_experts.json"}) {
    CliRun r = Fitrank({"estimate", "--gpu", "4090", "--model-config",
                        Corpus(std::string("model_config/") + file)});
    EXPECT_EQ(r.code, 2) << file << "\n" << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  }
}

TEST(Hardening, MalformedCalibrationTablesExit2WithALocation) {
  const std::string tsv = Corpus("calibration/huge_batch.tsv");
  CliRun r = Fitrank({"calibrate", "--measurements", tsv});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            tsv + ":2:53: error: `batch` must be a whole number from 1 to 4096 [bad-number]");
  r = Fitrank({"calibrate", "--measurements", Corpus("calibration/hex_and_overflow.tsv")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("`gpu_count` is not a non-negative number: `0x1`"), std::string::npos);
  EXPECT_NE(r.err.find("`decode_tok_s` is not a non-negative number: `1e309`"),
            std::string::npos);
}

TEST(Hardening, DevicesAndFifosAreRefusedWithoutBlocking) {
  const std::string fifo = TempDir("fifo") + "/pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string kind = ": is not a regular file (a FIFO, device or socket)";
  CliRun r = Fitrank({"calibrate", "--measurements", fifo});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(fifo + kind), std::string::npos) << r.err;
  r = Fitrank({"calibrate", "--measurements", "/dev/zero"});  // grew to gigabytes, then died
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/dev/zero" + kind), std::string::npos) << r.err;
  r = Fitrank({"estimate", "--gpu", "4090", "--model-config", "/dev/zero"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/dev/zero" + kind), std::string::npos) << r.err;
  r = Fitrank({"rules", "lint", fifo});
  EXPECT_EQ(r.code, 2);
  r = Fitrank({"rules", "test", fifo});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(fifo + kind), std::string::npos) << r.err;
}

TEST(Hardening, FilesOverTheLimitAreRefusedAndTheLimitCanBeRaised) {
  const std::string dir = TempDir("limit");
  // A valid rule file padded with comments past 1 MB.
  const std::string file = WriteFile(dir + "/big.yaml", "rules: []\n" + std::string(1 << 20, '#'));
  CliRun r = Fitrank({"rules", "lint", file, "--max-file-mb", "1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fitrank rules: error: " + file +
                       ": is larger than the 1 MB limit on input files (raise it with "
                       "--max-file-mb)\n");
  r = Fitrank({"rules", "lint", file, "--max-file-mb", "2"});
  EXPECT_EQ(r.err.find("limit on input files"), std::string::npos) << r.err;
  r = Fitrank({"rules", "lint", file, "--max-file-mb", "0x10"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "fitrank rules: error: `--max-file-mb` must be a whole number, got `0x10`\n");
}

TEST(Hardening, BadDataAndRulesDirectoriesAreErrors) {
  CliRun r = Fitrank({"gpu", "4090", "--data", "/nonexistent"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank gpu: error: --data /nonexistent: no such directory\n"
            "  hint: give a directory laid out like the shipped tree (catalog/, rules/, "
            "profiles/, engine/), or none for the embedded data\n");
  const std::string dir = TempDir("data");
  const std::string file = WriteFile(dir + "/file", "x");
  r = Fitrank({"gpu", "4090", "--data", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--data " + file + ": is not a directory"), std::string::npos) << r.err;
  // A directory where a data file should be: an error naming it, not the shipped file.
  fs::create_directories(dir + "/catalog/gpus.yaml");
  r = Fitrank({"gpu", "4090", "--data", dir});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(dir + "/catalog/gpus.yaml: is a directory, not a file"), std::string::npos)
      << r.err;
  // A FIFO where a data file should be: refused at once (base/file_source.cc), not read.
  const std::string fifo_dir = TempDir("data_fifo");
  fs::create_directories(fifo_dir + "/catalog");
  ASSERT_EQ(::mkfifo((fifo_dir + "/catalog/gpus.yaml").c_str(), 0600), 0);
  r = Fitrank({"gpu", "4090", "--data", fifo_dir});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(fifo_dir + "/catalog/gpus.yaml: is not a regular file"), std::string::npos)
      << r.err;
  // A folder that cannot be listed. Permission bits do not stop root, a symlink loop does.
  const std::string loop = TempDir("data_loop") + "/loop";
  fs::create_symlink(loop, loop);
  r = Fitrank({"gpu", "4090", "--data", loop});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--data " + loop + ": cannot list: "), std::string::npos) << r.err;
  const std::string locked = TempDir("data_locked");
  fs::permissions(locked, fs::perms::none);
  if (::geteuid() != 0) {
    r = Fitrank({"gpu", "4090", "--data", locked});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--data " + locked + ": cannot list: "), std::string::npos) << r.err;
  }
  fs::permissions(locked, fs::perms::owner_all);
  r = Fitrank({"rules", "test", "--rules", "/nonexistent"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "fitrank rules: error: --rules /nonexistent: no such directory");
}

TEST(Hardening, ASecondYamlDocumentInARuleFileIsAnError) {
  const std::string file = Corpus("rule_file/second_document.yaml");
  CliRun r = Fitrank({"rules", "lint", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(file + ":8:1: error: a second YAML document starts here; fitrank reads "
                              "one document per file [yaml-multiple-documents]"),
            std::string::npos)
      << r.out;
}

TEST(Hardening, RuleFilesOverTheRuleCountLimitAreErrors) {
  // 2001 one-line rules: well under the file size limit, over the rule count limit.
  const std::string dir = TempDir("rule_count");
  std::string y = "schema: fitrank.rules/v1\nset: fit\nrules:\n";
  for (int i = 0; i <= 2000; ++i) y += "  - {id: fit.r" + std::to_string(i) + ", score: 1}\n";
  const std::string file = WriteFile(dir + "/many.yaml", y);
  CliRun r = Fitrank({"rules", "lint", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find(file + ":4:3: error: `rules` has 2001 entries; a rule file holds at most "
                              "2000 [too-many-rules]"),
            std::string::npos)
      << r.out.substr(0, 500);
}

TEST(Hardening, HexNumbersAreRefused) {
  CliRun r = Fitrank({"recommend", "--gpu", "4090", "--ram", "0x10"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank recommend: error: `--ram` must be a number, got `0x10`\n"
            "  hint: write a plain decimal number such as `24` or `0.5`\n");
  r = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--bpw", "0x1p2"});
  EXPECT_EQ(r.code, 2);
  r = Fitrank({"estimate", "--gpu", "4090", "--model", "llama 3.1 8b", "--bpw", "1e309"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "fitrank estimate: error: `--bpw 1e309` is out of range\n"
            "  hint: use a value from 1 bits per weight to 32 bits per weight\n");
}

TEST(Hardening, EscapeSequencesNeverReachTheTerminalRaw) {
  CliRun r = Fitrank({"gpu", "\x1b[31mred\x1b]0;pwned\x07"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
  EXPECT_NE(r.err.find("`\\x1b[31mred\\x1b]0;pwned\\x07`"), std::string::npos) << r.err;
  r = Fitrank({"\x1b[2Jcmd"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  const std::string file = Corpus("rule_file/escape_and_hex.yaml");
  r = Fitrank({"rules", "lint", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[31mred"), std::string::npos) << r.out;
}

TEST(Hardening, LongNamesAreRefusedBeforeMatching) {
  // 100 KB names cost seconds of edit distance against every catalog name before the cap.
  CliRun r = Fitrank({"recommend", "--gpu", std::string(100000, 'a')});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is 100000 bytes long; names are at most 256"), std::string::npos)
      << r.err.substr(0, 300);
  r = Fitrank({"fit", std::string(100000, 'b'), "--gpu", "4090"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is 100000 bytes long; names are at most 256"), std::string::npos)
      << r.err.substr(0, 300);
  r = Fitrank({std::string(100000, 'c')});  // an unknown command: no suggestion search
  EXPECT_EQ(r.code, 2);
  EXPECT_LT(r.err.size(), 400u);
}

}  // namespace
}  // namespace fitrank::cli
