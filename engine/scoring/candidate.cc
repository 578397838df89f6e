#include "engine/scoring/candidate.h"

namespace fitrank {

int FitOrder(const CandidateEval& c) {
  if (!c.estimate.runnable() || c.runtime == nullptr) return 3;
  switch (c.estimate.fit.kind) {
    case FitKind::kNativeComfortable: return 0;
    case FitKind::kNativeTight: return 1;
    case FitKind::kOffload: return 2;
    case FitKind::kNoFit: return 3;
  }
  return 3;
}

bool RanksBefore(const CandidateEval& a, const CandidateEval& b) {
  if (a.score.score != b.score.score) return a.score.score > b.score.score;
  if (a.score.raw != b.score.raw) return a.score.raw > b.score.raw;
  if (a.quality != b.quality) return a.quality > b.quality;
  if (a.user_tok_s != b.user_tok_s) return a.user_tok_s > b.user_tok_s;
  if (a.model != b.model) return a.model->id < b.model->id;
  return a.quant->id < b.quant->id;
}

}  // namespace fitrank
