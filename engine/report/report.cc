#include "engine/report/report.h"

namespace fitrank {

int FitRank(const std::string& kind) {
  if (kind == "native-comfortable") return 0;
  if (kind == "native-tight") return 1;
  if (kind == "offload") return 2;
  return 3;
}

}  // namespace fitrank
