// `fitrank compare A B [C ...]`: side by side specs, models that fit, speed on the policy's
// reference models, cost per million generated tokens (owned: purchase over a stated lifetime
// plus electricity; cloud: $/hour where the catalog knows it), and a decision list.
//
// The decision list is generated from comparisons of the GPUs' facts: a GPU gets a "pick it
// if" line for each dimension where it leads the others by a clear margin (memory, models
// only it runs, decode speed, price, cost per token, software platforms, FP8/FP4, power, form
// factor). Margins are in the .cc next to each line.
#ifndef FITRANK_ENGINE_COMPARE_H_
#define FITRANK_ENGINE_COMPARE_H_

#include "engine/report_builders.h"

#endif  // FITRANK_ENGINE_COMPARE_H_
