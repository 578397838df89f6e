#include "rules/vocabulary.h"

namespace fitrank::rules {

int Vocabulary::Find(const std::vector<NamedId>& ids, absl::string_view name) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i].id == name) return static_cast<int>(i);
    for (const std::string& a : ids[i].aliases) {
      if (a == name) return static_cast<int>(i);
    }
  }
  return -1;
}

std::vector<std::string> Vocabulary::AllNames(const std::vector<NamedId>& ids) {
  std::vector<std::string> out;
  for (const NamedId& n : ids) {
    out.push_back(n.id);
    for (const std::string& a : n.aliases) out.push_back(a);
  }
  return out;
}

}  // namespace fitrank::rules
