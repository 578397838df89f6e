#include "cli/commands.h"
namespace fitrank::cli {
Command CatalogCommand() { return {"catalog", "list catalog entries", "fitrank catalog", {}, [](Context&) { return 0; }}; }
}
