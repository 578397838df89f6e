// main() for a fuzz target built without libFuzzer (any compiler, FITRANK_FUZZ off): runs
// LLVMFuzzerTestOneInput once on every file named, and on every file of every directory named
// (sorted, not recursive). Flags (arguments starting with '-', libFuzzer's) are ignored, so
// one command line serves both builds. The fuzz_replay_<name> CTests run it on the target's
// corpus (tests/fuzz/corpus/<name>/: past crashes and hand-written seeds) and its seeds from
// the shipped files: a crash fails the test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(argv[i], ec)) {
        if (e.is_regular_file()) found.push_back(e.path());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "%s: no such file or directory\n", argv[i]);
      return 2;
    }
  }
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string input = text.str();
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", f.c_str(), input.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
  std::fprintf(stderr, "%zu inputs replayed, no crash\n", files.size());
  return files.empty() ? 2 : 0;
}
