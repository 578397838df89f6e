// Loading the data tree and resolving user-typed names, for commands.
//
// LoadCatalog() returns ctx.engine's catalog, else loads (once per process, cached) the
// catalog from ctx.data; if it has errors
// it prints every diagnostic to ctx.err and throws ExitNow(2). The Resolve* functions look a
// name up with the catalog's forgiving matching and throw UsageError when it is unknown
// ("did you mean ...": the closest three) or ambiguous (the candidates, listed).
#ifndef FITRANK_CLI_RESOLVE_H_
#define FITRANK_CLI_RESOLVE_H_

#include "absl/strings/string_view.h"
#include "catalog/catalog.h"
#include "cli/command.h"

namespace fitrank::cli {

const Catalog& LoadCatalog(Context& ctx);

// Throws UsageError if `name` (of a `kind`: "GPU", "model") is empty or longer than
// kMaxNameLength (base/text.h); the Resolve* functions call it first.
void CheckName(absl::string_view name, absl::string_view kind);

const Gpu& ResolveGpu(const Catalog& catalog, absl::string_view name);
const Model& ResolveModel(const Catalog& catalog, absl::string_view name);
const DiffusionModel& ResolveDiffusion(const Catalog& catalog, absl::string_view name);
const Quant& ResolveQuant(const Catalog& catalog, absl::string_view name);
const Runtime& ResolveRuntime(const Catalog& catalog, absl::string_view name);

}  // namespace fitrank::cli

#endif  // FITRANK_CLI_RESOLVE_H_
