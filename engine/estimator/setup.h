// The hardware an estimate runs on: one or more GPUs (possibly of different kinds), the host's
// RAM and memory bandwidth, and how a model is spread over the GPUs.
//
// A Setup is built once (BuildSetup) and then shared read-only by any number of estimates; it
// holds pointers into the catalog, which must outlive it. It is the unit the ranker sweeps
// models over, so everything that depends only on the hardware is decided here, not per
// estimate.
#ifndef FITRANK_ENGINE_ESTIMATOR_SETUP_H_
#define FITRANK_ENGINE_ESTIMATOR_SETUP_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "base/quantities.h"
#include "catalog/types.h"

namespace fitrank {

class Estimator;

// The software stack a runtime drives the GPU with. kAuto: chosen from the runtime and the GPU
// (Estimator::DefaultBackend).
enum class Backend : uint8_t { kAuto, kCuda, kRocm, kMetal, kVulkan, kSycl, kCpu };
inline constexpr int kBackendCount = 7;

// "CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "CPU", "auto".
absl::string_view BackendName(Backend b);
// Case-insensitive; also accepts "HIP", "ROCm/HIP", "oneAPI". False if unknown.
bool ParseBackend(absl::string_view text, Backend* out);

// How a model is spread over several GPUs.
//   kLayer  : consecutive layers on each GPU (llama.cpp, ExLlamaV2); memory adds, batch-1 speed
//             does not (tokens pass the GPUs in turn).
//   kTensor : every layer split N ways (vLLM, SGLang, TensorRT-LLM, MLC); each GPU reads 1/N of
//             the weights, two all-reduces per layer.
enum class Parallelism : uint8_t { kLayer, kTensor };
absl::string_view ParallelismName(Parallelism p);  // "layer" | "tensor"

// The memory technology of a device, from Gpu::memory_type. It sets how much of the peak
// bandwidth latency-bound decode kernels reach (Little's law: HBM's long latency needs more
// bytes in flight than a batch-1 matrix-vector kernel keeps).
enum class MemoryKind : uint8_t { kGddr, kHbm, kLpddr, kDdr };
inline constexpr int kMemoryKindCount = 4;
MemoryKind MemoryKindOf(const Gpu& gpu);
absl::string_view MemoryKindName(MemoryKind k);  // "gddr" | "hbm" | "lpddr" | "ddr"

// kGbPerGib (base/quantities.h) converts a capacity as sold (GiB) to GB once.
// Capacity of one `gpu` in GB (1e9 bytes): Gpu::memory_gb, the size as sold (GiB), x kGbPerGib.
inline double CapacityGb(const Gpu& gpu) { return gpu.memory_gb * kGbPerGib; }

// `count` identical GPUs.
struct DeviceGroup {
  const Gpu* gpu = nullptr;  // not owned; catalog lifetime
  int count = 1;             // >= 1
};

// At most this many device groups (kinds of GPU) in one setup; BuildSetup refuses more.
inline constexpr int kMaxDeviceGroups = 8;
// At most this many GPUs in one setup.
inline constexpr int kMaxDevices = 64;

struct Setup {
  std::vector<DeviceGroup> devices;  // in the order given; the first group drives the display

  // Host (CPU) memory, for offload. On a unified-memory machine this is the whole unified pool
  // and host_bandwidth_gbps is what the CPU side reaches in it.
  double host_ram_gb = 0;            // installed RAM as sold (GiB; x kGbPerGib for 1e9 bytes)
  double host_bandwidth_gbps = 0;    // peak host memory bandwidth, GB/s
  double host_tflops = 0;            // CPU matrix throughput for offloaded prefill, TFLOPS
  bool host_defaulted = true;        // RAM/bandwidth came from a host profile, not the user
  std::string host_profile;          // "consumer desktop (dual-channel DDR5-5600)", ...

  Parallelism parallelism = Parallelism::kLayer;
  bool parallelism_defaulted = true;  // true: chosen per runtime at estimate time

  // The GPU-to-GPU link tensor parallelism uses: the GPUs' fabric when every device has one
  // (NVLink on SXM, Infinity Fabric on OAM), else the PCIe host link (PCIe cards are assumed
  // to have no bridge). Built from the catalog.
  double link_bandwidth_gbps = 0;    // per GPU, one direction
  double link_latency_us = 0;        // per all-reduce step, small messages
  std::string link_name;             // "NVLink 4", "PCIe 4.0 x16"

  std::string label;                 // "2x GeForce RTX 3090 + GeForce RTX 4090"

  // Derived once by BuildSetup.
  int device_count = 0;              // sum of counts
  bool unified = false;              // a single unified-memory device (Apple, APU)
  bool mixed = false;                // more than one kind of GPU
};

// Options for BuildSetup; every field has a default.
struct SetupOptions {
  std::optional<double> host_ram_gb;          // default: the host profile's RAM for the GPU class
  std::optional<double> host_bandwidth_gbps;  // default: the host profile's bandwidth
  std::optional<Parallelism> parallelism;     // default: per runtime (layer for llama.cpp ...)
  // GPU-to-GPU link; nullptr: the GPUs' own fabric if the catalog names one and every device
  // has it, else PCIe. (Pass catalog.InterconnectById(gpu.interconnect) to force one.)
  const Interconnect* link = nullptr;
  // The catalog's interconnect table, used to look up the GPUs' fabric by id; may be empty.
  const std::vector<Interconnect>* interconnects = nullptr;
};

// Validates `devices` (non-empty, GPUs set, counts >= 1, at most kMaxDeviceGroups groups and
// kMaxDevices GPUs; a unified-memory device cannot be combined with others) and fills the
// derived fields and defaults from `estimator`'s host profiles. Errors are InvalidArgument
// with a message fit for the user.
absl::StatusOr<Setup> BuildSetup(const Estimator& estimator, std::vector<DeviceGroup> devices,
                                 const SetupOptions& options = {});

// True if `a` and `b` hold the same devices (same catalog GPUs, same counts) and every other
// field equal: an estimate on one gives the same numbers as on the other.
bool SameSetup(const Setup& a, const Setup& b);
// True if `a` and `b` are each a single device group of the same Gpu, in different counts (a
// sizing on one is a start for the other: Estimator::SizeLike).
bool SameGpuOtherCount(const Setup& a, const Setup& b);

// "GeForce RTX 4090", "2x GeForce RTX 3090 + GeForce RTX 4090".
std::string SetupLabel(const std::vector<DeviceGroup>& devices);

}  // namespace fitrank

#endif  // FITRANK_ENGINE_ESTIMATOR_SETUP_H_
