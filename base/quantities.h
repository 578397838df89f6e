// One formatter per quantity, for every report and sentence that prints one: the CLI's tables,
// the engine's reasons and capability details. A page never shows the same figure two ways.
//
// Each prints "—" (kDash) for a value that is not finite or not meaningful, so no NaN or inf
// reaches the user.
#ifndef FITRANK_BASE_QUANTITIES_H_
#define FITRANK_BASE_QUANTITIES_H_

#include <string>

#include "absl/strings/string_view.h"

namespace fitrank {

inline constexpr absl::string_view kDash = "—";

// Memory sizes as sold are binary: a "24 GB" card, "128 GB" of Apple or APU unified RAM and
// "64 GB" of host DIMMs hold 24, 128, 64 GiB (2^30 bytes). The estimator counts every byte in
// GB = 1e9 bytes (weights, KV cache, overheads, every report), so each capacity is converted
// once with this factor (2^30 / 1e9). A unit, not a calibration constant.
inline constexpr double kGbPerGib = 1.073741824;

// "1,008" with thousands separators, `decimals` after the point; never "-0".
std::string FormatNumber(double v, int decimals = 0);
// "420 ms" below 10 s, "16.2 s" above; 0 or not finite: "—".
std::string FormatMs(double ms);
// A duration in seconds: "40 ms" below a second (FormatMs), "2.5 s", "130 s", "12 min" from
// ten minutes; 0 or not finite: "—". Image and video generation times use it.
std::string FormatSeconds(double seconds);
// "4K", "131K", "1M" (binary K = 1024 tokens, as runtimes count them; the nearest K, printed
// as the rules' sentences print {fit.context_k:.0f}K); 0: "—".
std::string FormatContext(int tokens);
// "22.2 GB" (one decimal below 100, none above); not finite: "—".
std::string FormatGb(double gb);
// "24.0 GiB" (one decimal below 100, none above): memory in GiB (2^30 bytes), the unit a
// "24 GB" card is sold in (detected memory); not finite: "—".
std::string FormatGib(double gib);
// A capacity as sold ("24 GB" cards, Apple/APU RAM, DIMMs are GiB: 2^30 bytes) in the display
// unit, GB = 1e9 bytes, which every other figure uses, with the size as sold beside it:
// "25.8 GB (24 GiB)". Not finite or not positive: "—".
std::string FormatCapacity(double gib);
// A multiplier to two significant digits, as a mode's changes print it after an "x": "1.3",
// "0.75", "4"; not finite: "—".
std::string FormatFactor(double factor);

}  // namespace fitrank

#endif  // FITRANK_BASE_QUANTITIES_H_
