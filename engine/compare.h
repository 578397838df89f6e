// `fitrank compare A B [C ...]`: side by side specs, models that fit, speed on the policy's
// reference models, cost per million generated tokens (owned: purchase over a stated lifetime
// plus electricity; cloud: $/hour where the catalog knows it), and a decision list.
//
// The decision list is written by the rules of engine/traits/compare/*.yaml (see
// engine/report_traits.h): each GPU gets a "pick it if" line for each rule that fires over its
// facts compared with the others' (memory, models only it runs, decode speed, price, cost per
// token, software platforms, FP8/FP4, power, form factor); the margins are in the YAML.
#ifndef FITRANK_ENGINE_COMPARE_H_
#define FITRANK_ENGINE_COMPARE_H_

#include "engine/report_builders.h"

#endif  // FITRANK_ENGINE_COMPARE_H_
