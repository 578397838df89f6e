#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>

#include "absl/strings/str_cat.h"
#include "cli/http/transport.h"
#include "cli/version.h"

namespace fitrank::cli::http {

namespace {

constexpr char kPluginFile[] = "libfitrank_http.so";
constexpr char kEntryPoint[] = "fitrank_http_transport";

using EntryPoint = const Transport* (*)();

// Adds one reason to the "; "-separated list *why.
void Add(std::string* why, absl::string_view reason) {
  absl::StrAppend(why, why->empty() ? "" : "; ", reason);
}

std::string ExecutableDir() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "";
  path[n] = '\0';
  char* slash = std::strrchr(path, '/');
  return slash == nullptr ? "" : std::string(path, slash);
}

// The entry point of the plugin at `path`, or nullptr with the reason added to *why.
EntryPoint Open(const std::string& path, std::string* why) {
  if (access(path.c_str(), F_OK) != 0) {
    Add(why, absl::StrCat(path, ": not there"));
    return nullptr;
  }
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    Add(why, absl::StrCat(path, ": ", dlerror()));
    return nullptr;
  }
  auto entry = reinterpret_cast<EntryPoint>(dlsym(lib, kEntryPoint));
  if (entry == nullptr) Add(why, absl::StrCat(path, ": no ", kEntryPoint));
  return entry;
}

const Transport* Find(std::string* why) {
  // A binary linked with the plugin (the tests) has it loaded already.
  auto entry = reinterpret_cast<EntryPoint>(dlsym(RTLD_DEFAULT, kEntryPoint));
  if (entry == nullptr) {
    const std::string dir = ExecutableDir();
    for (const std::string& candidate :
         {absl::StrCat(dir, "/", kPluginFile), absl::StrCat(dir, "/../lib/fitrank/", kPluginFile)}) {
      if ((entry = Open(candidate, why)) != nullptr) break;
    }
  }
  if (entry == nullptr) return nullptr;
  const Transport* t = entry();
  if (t == nullptr || t->abi != kTransportAbi || FitrankVersion() != t->version) {
    Add(why, absl::StrCat("it was built for another fitrank (",
                          t == nullptr ? "unknown" : t->version, "; this is ", FitrankVersion(), ")"));
    return nullptr;
  }
  return t;
}

}  // namespace

const Transport* LoadTransport(std::string* error) {
  static std::once_flag once;
  static const Transport* transport = nullptr;
  static std::string why;
  std::call_once(once, [] { transport = Find(&why); });
  if (transport == nullptr && error != nullptr) {
    *error = absl::StrCat("HTTP support (", kPluginFile, ", part of fitrank) cannot be loaded (",
                          why, ")");
  }
  return transport;
}

}  // namespace fitrank::cli::http
