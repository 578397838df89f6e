// What the server's requests run on: one loaded engine and the few lists the pages need that
// no command prints (the operating modes and workloads with their names). Immutable once
// made; shared by every request that started on it (std::shared_ptr<const Snapshot>).
#ifndef FITRANK_CLI_SERVE_SNAPSHOT_H_
#define FITRANK_CLI_SERVE_SNAPSHOT_H_

#include <memory>
#include <string>
#include <vector>

#include "cli/serve/api.h"
#include "engine/engine.h"

namespace fitrank::cli::serve {

struct NamedId {
  std::string id;    // "interactive"
  std::string name;  // "Interactive"
  std::string description;
};

struct Snapshot {
  // The loaded engine the commands answer from (null only in tests that fake `run`).
  std::shared_ptr<const Engine> engine;
  CliRunner run;  // RunCli on `engine`
  std::vector<NamedId> modes;      // profile order; the first is not necessarily the default
  std::string default_mode;
  std::vector<NamedId> workloads;  // profile order
  // Catalog names for the search form's autocomplete, in catalog order.
  std::vector<std::string> gpu_names;
  std::vector<std::string> model_names;
  std::string loaded_at;           // UTC, "2026-11-24T18:40:00Z"
  // The server's address as others reach it, for the embed snippets ("http://127.0.0.1:8080",
  // or --public-url behind a proxy).
  std::string public_url;
};

// Loads a snapshot from the data tree (`data_dir`, "" = embedded or $FITRANK_DATA) and local
// rules (`rules_dir`, "" = none) with Engine::Load: every file is read and checked here, so
// that problems are reported (file:line:col) before the snapshot serves anything. Null and
// *diagnostics filled on failure.
std::shared_ptr<const Snapshot> LoadSnapshot(const std::string& data_dir,
                                             const std::string& rules_dir,
                                             std::string* diagnostics);

}  // namespace fitrank::cli::serve

#endif  // FITRANK_CLI_SERVE_SNAPSHOT_H_
