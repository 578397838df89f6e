// ReadRegularFile, CheckDirectory and the disk sources under the input contract: one open, a
// regular file only (a FIFO or device is refused without blocking), a size limit, and errors
// that name the path. Also DataDir (--data / $FITRANK_DATA checked before use).
#include "base/read_file.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "base/file_source.h"
#include "gtest/gtest.h"
#include "tests/scratch_dir.h"

namespace fitrank {
namespace {

namespace fs = std::filesystem;

std::string TempDir(const std::string& name) { return testing::ScratchDir("read_file_" + name); }

void Write(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

TEST(ReadRegularFile, ReadsARegularFileWhole) {
  const std::string dir = TempDir("regular");
  Write(dir + "/a.yaml", "a: 1\n");
  absl::StatusOr<std::string> r = ReadRegularFile(dir + "/a.yaml");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "a: 1\n");
}

TEST(ReadRegularFile, AMissingFileIsNotFound) {
  absl::StatusOr<std::string> r = ReadRegularFile("/nonexistent/x.yaml");
  EXPECT_TRUE(absl::IsNotFound(r.status()));
  EXPECT_EQ(r.status().message(), "/nonexistent/x.yaml: no such file");
}

TEST(ReadRegularFile, ADirectoryIsRefused) {
  const std::string dir = TempDir("dir");
  absl::StatusOr<std::string> r = ReadRegularFile(dir);
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status()));
  EXPECT_EQ(r.status().message(), dir + ": is a directory, not a file");
}

TEST(ReadRegularFile, ADeviceIsRefusedNotReadForever) {
  // /dev/zero never ends: a reader without the regular-file check grows until it dies.
  absl::StatusOr<std::string> r = ReadRegularFile("/dev/zero");
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status()));
  EXPECT_EQ(r.status().message(), "/dev/zero: is not a regular file (a FIFO, device or socket)");
  EXPECT_TRUE(absl::IsFailedPrecondition(ReadRegularFile("/dev/null").status()));
}

TEST(ReadRegularFile, AFifoWithoutAWriterIsRefusedWithoutBlocking) {
  const std::string fifo = TempDir("fifo") + "/pipe.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  absl::StatusOr<std::string> r = ReadRegularFile(fifo);  // a blocking open would hang here
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status()));
  EXPECT_EQ(r.status().message(), fifo + ": is not a regular file (a FIFO, device or socket)");
  EXPECT_TRUE(absl::IsFailedPrecondition(CheckRegularFile(fifo)));
}

TEST(ReadRegularFile, AFileOverTheLimitIsRefused) {
  const std::string dir = TempDir("limit");
  Write(dir + "/big.yaml", std::string(3 << 20, 'x'));
  EXPECT_TRUE(ReadRegularFile(dir + "/big.yaml", 3 << 20).ok());  // the limit itself is allowed
  absl::StatusOr<std::string> r = ReadRegularFile(dir + "/big.yaml", 2 << 20);
  EXPECT_TRUE(absl::IsResourceExhausted(r.status()));
  EXPECT_EQ(r.status().message(),
            dir + "/big.yaml: is larger than the 2 MB limit on input files (raise it with "
                  "--max-file-mb)");
}

TEST(SizeText, SaysMegabytesOrBytes) {
  EXPECT_EQ(SizeText(kDefaultMaxFileBytes), "64 MB");
  EXPECT_EQ(SizeText(3 << 19), "1.5 MB");
  EXPECT_EQ(SizeText(300), "300 bytes");
}

TEST(CheckDirectory, SaysWhatIsWrong) {
  const std::string dir = TempDir("check");
  Write(dir + "/file", "x");
  EXPECT_TRUE(CheckDirectory(dir).ok());
  EXPECT_EQ(CheckDirectory("/nonexistent").message(), "/nonexistent: no such directory");
  EXPECT_EQ(CheckDirectory(dir + "/file").message(), dir + "/file: is not a directory");
}

TEST(DiskSource, ADirectoryWhereAFileShouldBeIsAnErrorNotAFallback) {
  // --data DIR with DIR/catalog/gpus.yaml a directory: the overlay must not quietly serve the
  // shipped gpus.yaml instead.
  const std::string dir = TempDir("overlay");
  fs::create_directories(dir + "/catalog/gpus.yaml");
  auto overlay = DefaultSource(dir);
  absl::StatusOr<std::string> r = overlay->Read("catalog/gpus.yaml");
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
  EXPECT_EQ(overlay->DisplayName("catalog/gpus.yaml"), dir + "/catalog/gpus.yaml");
  EXPECT_FALSE(overlay->Embedded("catalog/gpus.yaml").has_value());
  EXPECT_TRUE(overlay->Read("catalog/quants.yaml").ok());  // not overridden: shipped
}

TEST(DiskSource, AppliesItsSizeLimit) {
  const std::string dir = TempDir("disk_limit");
  fs::create_directories(dir + "/rules");
  Write(dir + "/rules/big.yaml", std::string((1 << 20) + 1, '#'));
  DiskSource source(dir, 1 << 20);
  EXPECT_TRUE(absl::IsResourceExhausted(source.Read("rules/big.yaml").status()));
  EXPECT_TRUE(source.Stat("rules/big.yaml").ok());  // Stat does not read
  EXPECT_TRUE(absl::IsNotFound(source.Stat("rules/none.yaml")));
}

// A memory source that counts whole-file reads; Stat answers without one.
class CountingSource : public MemorySource {
 public:
  using MemorySource::MemorySource;
  absl::StatusOr<std::string> Read(absl::string_view path) const override {
    ++reads;
    return MemorySource::Read(path);
  }
  absl::Status Stat(absl::string_view path) const override { return MemorySource::Read(path).status(); }
  mutable int reads = 0;
};

TEST(OverlaySource, ReadsAnOverridingFileOnce) {
  // A loader asks for the display name, the embedded bytes and the content: one read.
  auto top = std::make_shared<CountingSource>();
  top->Set("catalog/gpus.yaml", "gpus: []\n");
  OverlaySource overlay(top, std::make_shared<EmbeddedSource>());
  EXPECT_EQ(overlay.DisplayName("catalog/gpus.yaml"), "catalog/gpus.yaml");
  EXPECT_FALSE(overlay.Embedded("catalog/gpus.yaml").has_value());
  EXPECT_TRUE(overlay.Read("catalog/gpus.yaml").ok());
  EXPECT_EQ(top->reads, 1);
}

TEST(DataDir, ChecksTheDirectoryAndNamesTheFlag) {
  EXPECT_EQ(*DataDir(""), "");  // (FITRANK_DATA is unset in tests)
  const std::string dir = TempDir("data_dir");
  EXPECT_EQ(*DataDir(dir), dir);
  EXPECT_EQ(DataDir("/nonexistent").status().message(), "--data /nonexistent: no such directory");
  Write(dir + "/file", "x");
  EXPECT_EQ(DataDir(dir + "/file").status().message(), "--data " + dir + "/file: is not a directory");
}

}  // namespace
}  // namespace fitrank
