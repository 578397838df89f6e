"""GPUs and interconnects: gpus.csv rows converted to catalog/gpus.yaml records, one record per
memory size, plus the rows gpus.csv lacks and reference CPU-only hosts; and the interconnect
records every GPU points at.

All numbers come from shared/data/sources/gpus.csv unless an ADDED_GPUS / CPU_HOSTS entry below
says otherwise (each names its source).
"""

import csv
import re

# --------------------------------------------------------------------------------------------
# Sources (keys of gpus.yaml `sources:`)
# --------------------------------------------------------------------------------------------
GPU_SOURCES = {
    "gpus-csv": (
        "shared/data/sources/gpus.csv (written for fitrank, 2025-11): vendor datasheets and "
        "whitepapers, cross-checked against Epoch AI 'Data on Machine Learning Hardware' (CC BY "
        "4.0) for datacenter parts. Dense (no sparsity) tensor rates; GeForce FP16 = FP16-"
        "accumulate rate, fp16_fp32acc = FP32-accumulate rate."),
    "gpus-csv-apple": (
        "gpus.csv Apple rows, one entry per RAM size (memory_configs_gb). gpu_memory_share = "
        "0.667 for <= 36 GB and 0.75 above: the commonly cited macOS default GPU working-set "
        "(wired memory) limit, i.e. Metal recommendedMaxWorkingSetSize; it can be raised with "
        "`sudo sysctl iogpu.wired_limit_mb=...`. msrp_usd (cheapest Mac with the chip) is kept "
        "only on the smallest RAM size."),
    "gpus-csv-strix-halo": (
        "gpus.csv AMD Ryzen AI Max rows, one entry per RAM size. gpu_memory_share = 0.75: the "
        "BIOS lets the iGPU take up to 96 GB of 128 GB (75%) as dedicated VRAM under Windows; "
        "Linux (GTT) can give it more. msrp_usd is the Framework Desktop 128 GB board price, "
        "kept on the 128 GB entry only."),
    "gpus-csv-apu": (
        "gpus.csv iGPU/APU rows, one entry per RAM size. gpu_memory_share = 0.5: Windows lets "
        "an integrated GPU use at most half of system RAM as shared GPU memory by default "
        "(BIOS UMA carve-outs and Linux GTT limits differ)."),
    "gpus-csv-jetson": (
        "gpus.csv Jetson rows (NVIDIA module datasheets; dense FP16/INT8 derived from sparse "
        "TOPS, approximate). Unified LPDDR5(X); gpu_memory_share = 0.9 is an estimate of what "
        "is left after the OS and CPU processes."),
    "gpus-csv-dgx-spark": (
        "gpus.csv DGX Spark row (GB10; dense rates derived from the '1 PFLOP FP4 sparse' "
        "rating). gpu_memory_share = 0.93 from the row's note: ~119 GB of the 128 GB unified "
        "LPDDR5X is usable by the GPU."),
    "added-a10g": (
        "Added here (not in gpus.csv). NVIDIA A10G (AWS G5 instances only; GA102 like the A10): "
        "24 GB GDDR6 384-bit, 600 GB/s, 72 SMs, FP32 31.52 TFLOPS at 1710 MHz (Epoch AI row "
        "'NVIDIA A10G', from TechPowerUp; TDP 150 W from the same row). Tensor FP16 70 TFLOPS "
        "and INT8 140 TOPS dense are the figures published for A10G in AWS-oriented A10-vs-A10G comparisons (the A10 lists "
        "125/250); approximate."),
    "added-rx-5700-xt": (
        "Added here (not in gpus.csv). AMD Radeon RX 5700 XT launch specifications: RDNA 1 "
        "(Navi 10, 40 CU, 2560 SP), 8 GB GDDR6 256-bit 14 Gbps = 448 GB/s, boost 1905 MHz -> "
        "FP32 9.75 TFLOPS, packed FP16 19.5 TFLOPS, 225 W board power, USD 399, 2019-07-07, "
        "PCIe 4.0 x16."),
    "added-radeon-vii": (
        "Added here (not in gpus.csv). AMD Radeon VII launch specifications: Vega 20 (60 CU, "
        "3840 SP), 16 GB HBM2 4096-bit = 1024 GB/s, peak 1800 MHz -> FP32 13.8 TFLOPS, packed "
        "FP16 27.6 TFLOPS, 300 W, USD 699, 2019-02-07, PCIe 3.0 x16. INT8 = 2x FP16 (DOT4, "
        "as gpus.csv does for the MI50)."),
    "added-mi60": (
        "Added here (not in gpus.csv). AMD Radeon Instinct MI60 datasheet: Vega 20 (64 CU), "
        "32 GB HBM2 4096-bit = 1024 GB/s, FP32 14.7 TFLOPS, FP16 29.5 TFLOPS, INT8 59 TOPS, "
        "300 W, announced 2018-11, PCIe 4.0 x16, two Infinity Fabric links (same Vega 20 links "
        "as the MI50: 184 GB/s peer-to-peer)."),
    "added-max-1550": (
        "Added here (not in gpus.csv). Intel Data Center GPU Max 1550 (Ponte Vecchio, OAM): "
        "128 GB HBM2e, 3276.8 GB/s, FP32 52.4 TFLOPS, 600 W, 2023-01-10 (all matching Epoch AI "
        "row 'Intel Data Center GPU Max 1550'); XMX BF16/FP16 839 TFLOPS and INT8 1678 TOPS "
        "from Intel's Max Series product brief."),
    "cpu-host": (
        "Reference CPU-only hosts written for fitrank. Bandwidth = channels x 8 bytes x MT/s "
        "(exact for the named DDR configuration). Compute is the theoretical peak of the named "
        "representative CPU (cores x FLOP/cycle x all-core clock): an estimate, see notes. "
        "gpu_memory_share is the part of RAM left for model weights and KV cache after the OS "
        "and applications: an estimate."),
}

# --------------------------------------------------------------------------------------------
# Interconnects
# --------------------------------------------------------------------------------------------
INTERCONNECT_SOURCES = {
    "pcie-spec": (
        "PCI-SIG line rates after 128b/130b encoding, one direction: PCIe 3.0 x16 15.75 GB/s, "
        "4.0 x16 31.5 GB/s, 5.0 x16 63 GB/s; x8 and x4 scale by lanes. latency_us: estimate "
        "for one small-message all-reduce step between GPUs through the host PCIe fabric "
        "(NCCL/RCCL over PCIe, typically 10-20 us)."),
    "nvlink-spec": (
        "NVIDIA NVLink figures as published per GPU (bidirectional totals in gpus.csv) halved "
        "to one direction: NVLink 2 bridge 50/100 GB/s (1/2 links), V100 SXM2 300, GA102 "
        "NVLink 3 bridge 112.5, A30 bridge 200, A100 bridge/SXM4 600, H100 PCIe/NVL bridge 600, "
        "H200 NVL 900, SXM5 NVLink 4 900, NVLink 5 1800. latency_us: estimate (NVLink small-"
        "message all-reduce step ~3-5 us)."),
    "amd-infinity-fabric": (
        "AMD Instinct Infinity Fabric (xGMI) peer bandwidth as published per GPU (bidirectional "
        "totals in gpus.csv) halved to one direction: MI50/MI60 184, MI100 276, MI210 300, "
        "MI250 600, MI250X 800, MI300A 768, MI300X/MI325X 896, MI350X/MI355X 1075 GB/s. "
        "latency_us: estimate (~5 us)."),
    "gaudi-roce": (
        "Intel Gaudi 2/3 on-chip RoCE: 24 x 100 GbE (Gaudi 2) or 24 x 200 GbE (Gaudi 3); in an "
        "8-card server 21 ports connect to the other 7 cards (3 each) and 3 go to scale-out, so "
        "intra-node bandwidth per card per direction = 21 x 12.5 = 262.5 GB/s (Gaudi 2) or "
        "525 GB/s (Gaudi 3). latency_us: estimate (~10 us, Ethernet RDMA)."),
    "host-network": (
        "Host networking used to pool machines (exo, llama.cpp RPC, vLLM over Ethernet): "
        "Thunderbolt 4 / USB4 40 Gb/s = 5 GB/s, Thunderbolt 5 80 Gb/s = 10 GB/s, DGX Spark "
        "ConnectX-7 200 Gb/s = 25 GB/s per direction. latency_us: estimate (TCP/IP over "
        "Thunderbolt ~50 us; RDMA over ConnectX-7 ~10 us; RDMA over Thunderbolt 5 in macOS 26.2+ "
        "is lower than the figure given)."),
    "none": "No GPU-to-GPU or host link to pool memory (SoC iGPUs, embedded modules, CPU hosts).",
}

# id -> (name, bandwidth_gbps per GPU one direction, latency_us, source key)
INTERCONNECTS = {
    "pcie3-x16": ("PCIe 3.0 x16", 15.75, 15, "pcie-spec"),
    "pcie4-x4": ("PCIe 4.0 x4", 7.875, 15, "pcie-spec"),
    "pcie4-x8": ("PCIe 4.0 x8", 15.75, 15, "pcie-spec"),
    "pcie4-x16": ("PCIe 4.0 x16", 31.5, 15, "pcie-spec"),
    "pcie5-x8": ("PCIe 5.0 x8", 31.5, 15, "pcie-spec"),
    "pcie5-x16": ("PCIe 5.0 x16", 63.0, 15, "pcie-spec"),
    "nvlink2-bridge-x1": ("NVLink 2.0 bridge, 1 link (Turing GeForce)", 25.0, 5, "nvlink-spec"),
    "nvlink2-bridge": ("NVLink 2.0 bridge, 2 links (TU102)", 50.0, 5, "nvlink-spec"),
    "nvlink2": ("NVLink 2.0 (V100 SXM2)", 150.0, 4, "nvlink-spec"),
    "nvlink3-bridge": ("NVLink 3.0 bridge (GA102: RTX 3090, RTX A-series, A40)", 56.25, 5,
                       "nvlink-spec"),
    "nvlink3-bridge-a30": ("NVLink 3.0 bridge (A30)", 100.0, 5, "nvlink-spec"),
    "nvlink3-bridge-a100": ("NVLink 3.0 bridge (A100 PCIe)", 300.0, 5, "nvlink-spec"),
    "nvlink3": ("NVLink 3.0 (A100 SXM4, NVSwitch)", 300.0, 3, "nvlink-spec"),
    "nvlink4-bridge": ("NVLink 4.0 bridge (H100 PCIe / H100 NVL)", 300.0, 5, "nvlink-spec"),
    "nvlink4-bridge-h200nvl": ("NVLink 4.0 2/4-way bridge (H200 NVL)", 450.0, 5, "nvlink-spec"),
    "nvlink4": ("NVLink 4.0 (SXM5 / Grace Hopper, NVSwitch)", 450.0, 3, "nvlink-spec"),
    "nvlink5": ("NVLink 5.0 (Blackwell, NVSwitch)", 900.0, 3, "nvlink-spec"),
    "infinity-fabric-link-mi50": ("Infinity Fabric Link, 2 links (Vega 20)", 92.0, 5,
                                  "amd-infinity-fabric"),
    "infinity-fabric-link-mi100": ("Infinity Fabric Link, 3 links (MI100)", 138.0, 5,
                                   "amd-infinity-fabric"),
    "infinity-fabric-link-mi210": ("Infinity Fabric Link, 3 links (MI210)", 150.0, 5,
                                   "amd-infinity-fabric"),
    "infinity-fabric-mi250": ("Infinity Fabric, 6 links (MI250)", 300.0, 5, "amd-infinity-fabric"),
    "infinity-fabric-mi250x": ("Infinity Fabric, 8 links (MI250X)", 400.0, 5,
                               "amd-infinity-fabric"),
    "infinity-fabric-mi300a": ("Infinity Fabric (MI300A)", 384.0, 5, "amd-infinity-fabric"),
    "infinity-fabric-mi300x": ("Infinity Fabric, 7 x 128 GB/s links (MI300X / MI325X)", 448.0, 5,
                               "amd-infinity-fabric"),
    "infinity-fabric-mi350": ("Infinity Fabric, 7 links (MI350X / MI355X)", 537.5, 5,
                              "amd-infinity-fabric"),
    "roce-gaudi2": ("Gaudi 2 on-chip RoCE (21 x 100 GbE intra-node)", 262.5, 10, "gaudi-roce"),
    "roce-gaudi3": ("Gaudi 3 on-chip RoCE (21 x 200 GbE intra-node)", 525.0, 10, "gaudi-roce"),
    "connectx7-200gbe": ("ConnectX-7 200 GbE (DGX Spark pairing)", 25.0, 10, "host-network"),
    "thunderbolt4": ("Thunderbolt 4 networking (40 Gb/s)", 5.0, 50, "host-network"),
    "thunderbolt5": ("Thunderbolt 5 networking (80 Gb/s)", 10.0, 50, "host-network"),
    "usb4": ("USB4 networking (40 Gb/s)", 5.0, 50, "host-network"),
    "none": ("No GPU interconnect", 0.0, 0, "none"),
}

# gpus.csv `interconnect` text (prefix) and quoted bandwidth -> interconnect id.
_LINK_TABLE = [
    ("NVLink 2.0 bridge (x1)", 50.0, "nvlink2-bridge-x1"),
    ("NVLink 2.0 bridge", 100.0, "nvlink2-bridge"),
    ("NVLink 2.0", 300.0, "nvlink2"),
    ("NVLink 3.0 bridge", 112.5, "nvlink3-bridge"),
    ("NVLink 3.0 bridge", 200.0, "nvlink3-bridge-a30"),
    ("NVLink 3.0 bridge", 600.0, "nvlink3-bridge-a100"),
    ("NVLink 3.0", 600.0, "nvlink3"),
    ("NVLink 4.0 bridge (2/4-way)", 900.0, "nvlink4-bridge-h200nvl"),
    ("NVLink 4.0 bridge", 600.0, "nvlink4-bridge"),
    ("NVLink 4.0", 900.0, "nvlink4"),
    ("NVLink 5.0", 1800.0, "nvlink5"),
    ("ConnectX-7", 25.0, "connectx7-200gbe"),
    ("Infinity Fabric Link", 184.0, "infinity-fabric-link-mi50"),
    ("Infinity Fabric Link", 276.0, "infinity-fabric-link-mi100"),
    ("Infinity Fabric Link", 300.0, "infinity-fabric-link-mi210"),
    ("Infinity Fabric", 600.0, "infinity-fabric-mi250"),
    ("Infinity Fabric", 800.0, "infinity-fabric-mi250x"),
    ("Infinity Fabric", 768.0, "infinity-fabric-mi300a"),
    ("Infinity Fabric", 896.0, "infinity-fabric-mi300x"),
    ("Infinity Fabric", 1075.0, "infinity-fabric-mi350"),
    ("24x 100GbE", 300.0, "roce-gaudi2"),
    ("24x 200GbE", 600.0, "roce-gaudi3"),
]

_PCIE_GBPS = {("3.0", 16): 15.75, ("3.0", 8): 7.875, ("4.0", 16): 31.5, ("4.0", 8): 15.75,
              ("4.0", 4): 7.875, ("5.0", 16): 63.0, ("5.0", 8): 31.5}

# Host link of boards that are not PCIe cards (SXM/OAM sit behind the server's PCIe fabric).
_FORM_HOST = {
    "SXM2": ("3.0", 16), "SXM4": ("4.0", 16), "SXM5": ("5.0", 16),
    "SXM (HGX B200)": ("5.0", 16),
    # HGX B300 puts PCIe 6 switches (ConnectX-8) next to the GPUs, but the host CPUs of
    # current B300 systems are PCIe 5.0: host<->GPU copies run at Gen5 x16.
    "SXM (HGX B300)": ("5.0", 16),
}

# Rows gpus.csv marks UNVERIFIED (bandwidth from llmfit's table, memory sizes assumed): left out.
SKIP_IDS = {"apple-m5-pro": "UNVERIFIED row (bandwidth from llmfit's table, RAM sizes assumed)",
            "apple-m5-max": "UNVERIFIED row (bandwidth from llmfit's table, RAM sizes assumed)"}

_PLATFORM_ORDER = ["CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "CPU"]


def _num(s):
    s = (s or "").strip()
    return float(s) if s else 0.0


def _platforms(text):
    out = set()
    for tok in text.split(";"):
        t = tok.strip()
        if t.startswith("CUDA"):
            out.add("CUDA")
        elif t.startswith("ROCm") or t.startswith("HIP"):
            out.add("ROCm")
        elif t.startswith("Metal") or t.startswith("MLX") or t == "llama.cpp Metal":
            out.add("Metal")
        elif t.startswith("Vulkan"):
            out.add("Vulkan")
        elif t.startswith("SYCL") or t.startswith("oneAPI"):
            out.add("SYCL")
        # OpenCL, OpenVINO, TensorRT, DirectML, QNN, SynapseAI, vLLM-Gaudi, bare "llama.cpp":
        # dropped (not a fitrank platform).
    return [p for p in _PLATFORM_ORDER if p in out]


def _has_bf16(vendor, arch):
    a = arch.lower()
    if vendor == "NVIDIA":
        return any(k in a for k in ("ampere", "ada", "hopper", "blackwell"))
    if vendor == "AMD":
        # RDNA 3/3.5/4 (WMMA) and CDNA 1-4 matrix cores; not RDNA 1/2 or Vega/GCN.
        return bool(re.search(r"rdna ?(3|4)|cdna", a))
    if vendor == "Intel":
        return True  # Xe-HPG/Xe2 XMX, Xe-HPC and Gaudi MME all do BF16
    if vendor == "Apple":
        return "(m1)" not in a  # bfloat16 in Metal from the M2 generation on (M1 emulates)
    return False


def _precisions(vendor, arch, fp16, int8, fp8, fp4):
    p = ["FP32"]
    if fp16 > 0:
        p.append("FP16")
    if _has_bf16(vendor, arch):
        p.append("BF16")
    if fp8 > 0:
        p.append("FP8")
    if fp4 > 0:
        p.append("FP4")
    if int8 > 0:
        p.append("INT8")
    return p


def _host_pcie(host, form):
    m = re.match(r"PCIe (\d\.\d) x(\d+)", host)
    if m:
        gen, lanes = m.group(1), int(m.group(2))
        return gen, lanes
    if host in _FORM_HOST:
        return _FORM_HOST[host]
    return None


def _pcie_id(gen_lanes):
    gen, lanes = gen_lanes
    return f"pcie{gen[0]}-x{lanes}"


def _apple_tb(row_id):
    # Thunderbolt 5 on M4 Pro / M4 Max / M3 Ultra Macs; Thunderbolt 4 (USB4) on the rest.
    if row_id.startswith(("apple-m4-pro", "apple-m4-max", "apple-m3-ultra")):
        return "thunderbolt5"
    return "thunderbolt4"


def _link(row):
    """(interconnect id, interconnect_gbps as quoted, pcie_gbps) for a gpus.csv row."""
    text = row["interconnect"].strip()
    bw = _num(row["interconnect_bw_gbs"])
    host = row["host_interface"].strip()
    form = row["form_factor"].strip()
    gl = _host_pcie(host, form)
    pcie = _PCIE_GBPS[gl] if gl else 0.0
    if host.startswith("NVLink-C2C to Grace"):
        pcie = 450.0  # NVLink-C2C 900 GB/s bidirectional CPU<->GPU
    for prefix, qbw, ident in _LINK_TABLE:
        if text.startswith(prefix) and abs(bw - qbw) < 1e-6:
            return ident, bw, pcie
    if text.startswith("Thunderbolt (exo") or text == "Thunderbolt":
        return _apple_tb(row["id"]), 0.0, 0.0
    if text.startswith("USB4"):
        return "usb4", 0.0, 0.0
    if text == "Thunderbolt 4":
        return "thunderbolt4", 0.0, 0.0
    if text.startswith("none") or text == "":
        if gl:
            return _pcie_id(gl), 0.0, pcie
        return "none", 0.0, 0.0
    raise ValueError(f"{row['id']}: unmapped interconnect {text!r} ({bw})")


def _segment(row):
    seg = row["segment"]
    if seg != "igpu-apu":
        return seg
    if "jetson" in row["id"]:
        return "embedded"
    return "apu"


def _gpu_cores(row):
    n = row["notes"]
    m = re.search(r"GPU cores (\d+)(?:/(\d+))?", n)
    if m:
        return int(m.group(2) or m.group(1))
    m = re.search(r"(\d+) CU iGPU", n) or re.search(r"(\d+) Xe2 cores", n)
    if m:
        return int(m.group(1))
    m = re.search(r"(\d+) cores/\d+ TC", n) or re.search(r"\((?:[^)]*?)(\d+) CUDA cores\)", n)
    if m:  # NVIDIA SoCs: CUDA cores / 128 per SM (Ampere, Blackwell)
        return int(m.group(1)) // 128
    return 0


def _unified(row, seg, mem):
    """(unified_memory, gpu_memory_share, source key)."""
    rid = row["id"]
    if seg == "apple":
        return True, (0.667 if mem <= 36 else 0.75), "gpus-csv-apple"
    if rid.startswith("amd-ryzen-ai-max"):
        return True, 0.75, "gpus-csv-strix-halo"
    if seg == "embedded":
        return True, 0.9, "gpus-csv-jetson"
    if rid == "nvidia-dgx-spark-gb10":
        return True, 0.93, "gpus-csv-dgx-spark"
    if seg == "apu":
        return True, 0.5, "gpus-csv-apu"
    if rid == "instinct-mi300a":
        return True, 0.9, "gpus-csv"
    return False, 1.0, "gpus-csv"


def _notes(row, extra):
    parts = [row["notes"].strip().rstrip(".")] if row["notes"].strip() else []
    if row["gpu_target"].strip():
        parts.append(f"target {row['gpu_target'].strip()}")
    if row["rocm_support"].strip():
        parts.append(f"ROCm support: {row['rocm_support'].strip()}")
    if row["npu_tops"].strip():
        parts.append(f"NPU {row['npu_tops'].strip()} TOPS (not used by fitrank)")
    parts.extend(extra)
    return "; ".join(parts)


def _record(row, mem, mem_suffix, expanded):
    seg = _segment(row)
    vendor = row["vendor"]
    arch = row["architecture"]
    fp16 = _num(row["fp16_tflops_dense"])
    int8 = _num(row["int8_tops_dense"])
    fp8 = _num(row["fp8_tflops_dense"])
    fp4 = _num(row["fp4_tflops_dense"])
    ident, ic_gbps, pcie = _link(row)
    unified, share, src = _unified(row, seg, mem)
    extra = []
    msrp = _num(row["msrp_usd"])
    configs = [float(x) for x in row["memory_configs_gb"].split("|")]
    if expanded:
        if seg == "apple" and mem != min(configs):
            msrp = 0.0
            extra.append("msrp is for the base RAM configuration; none recorded for this size")
        elif row["id"].startswith("amd-ryzen-ai-maxplus-395") and mem != 128:
            msrp = 0.0
            extra.append("msrp (Framework Desktop board) recorded on the 128 GB entry only")
        elif row["id"] == "amd-ryzen-7-8700g-radeon-780m":
            extra.append("msrp is the APU alone (RAM not included)")
    if row["id"] == "instinct-mi300a":
        extra.append("gpu_memory_share 0.9 is an estimate: CPU cores and GPU share the HBM3 pool")
    if row["id"] == "nvidia-gh200-144gb":
        extra.append("HBM3e is the GPU's own memory (not unified for fitrank); Grace LPDDR5X "
                     "is reachable over NVLink-C2C at 450 GB/s per direction")
    if row["id"] in ("nvidia-gb200-per-gpu", "nvidia-gb300-per-gpu-blackwell-ultra"):
        extra.append("host link = NVLink-C2C to Grace (450 GB/s per direction)")
    if row["id"] == "nvidia-b300-hgx-blackwell-ultra":
        extra.append("pcie_gbps assumes the PCIe 5.0 x16 host CPUs of current HGX B300 systems")
    if vendor == "Intel" and "Gaudi" in arch:
        extra.append("runs PyTorch/vLLM through Intel's SynapseAI (HPU) stack: no fitrank "
                     "platform name covers it")
    name = row["name"] + (f" {mem_suffix}" if expanded else "")
    rec = {
        "id": row["id"] + (f"-{mem_suffix.lower()}" if expanded else ""),
        "name": name,
        "vendor": vendor,
        "aliases": [],
        "family": row["family"],
        "architecture": arch,
        "segment": seg,
        "form_factor": row["form_factor"],
        "memory_gb": mem,
        "memory_type": row["memory_type"],
        "memory_bus_bits": int(_num(row["memory_bus_bits"])),
        "bandwidth_gbps": _num(row["memory_bandwidth_gbs"]),
        "fp32_tflops": _num(row["fp32_tflops"]),
        "fp16_tflops": fp16,
        "fp16_fp32acc_tflops": _num(row["fp16_fp32acc_tflops_dense"]),
        "int8_tops": int8,
        "fp8_tflops": fp8,
        "fp4_tflops": fp4,
        "precisions": _precisions(vendor, arch, fp16, int8, fp8, fp4),
        "platforms": _platforms(row["compute_platforms"]),
        "gpu_cores": _gpu_cores(row),
        "interconnect": ident,
        "interconnect_gbps": ic_gbps,
        "pcie_gbps": pcie,
        "tdp_w": _num(row["tdp_w"]),
        "launch_year": int(_num(row["launch_year"])),
        "msrp_usd": msrp,
        "unified_memory": unified,
        "gpu_memory_share": share,
        "notes": _notes(row, extra),
        "source": src,
    }
    return rec


# --------------------------------------------------------------------------------------------
# Rows gpus.csv lacks. Values as published (see each source key); written as gpus.csv columns.
# --------------------------------------------------------------------------------------------
ADDED_GPUS = [
    dict(id="nvidia-a10g", name="NVIDIA A10G", vendor="NVIDIA", family="Ampere datacenter",
         architecture="Ampere", segment="datacenter", form_factor="pcie-card", memory_gb=24,
         memory_type="GDDR6", memory_bus_bits=384, bandwidth_gbps=600, fp32_tflops=31.52,
         fp16_tflops=70, fp16_fp32acc_tflops=70, int8_tops=140, fp8_tflops=0, fp4_tflops=0,
         platforms=["CUDA", "Vulkan"], gpu_cores=72, host=("4.0", 16), interconnect=None,
         interconnect_gbps=0, tdp_w=150, launch_year=2021, msrp_usd=0,
         notes=("AWS-only variant of the A10 (GA102), sold only inside EC2 G5 instances; tensor "
                "FP16/INT8 rates approximate (see source); 150 W TDP from the Epoch AI row "
                "(TechPowerUp); target sm_86"),
         source="added-a10g"),
    dict(id="radeon-rx-5700-xt", name="Radeon RX 5700 XT", vendor="AMD", family="Radeon RX 5000",
         architecture="RDNA 1", segment="consumer", form_factor="pcie-card", memory_gb=8,
         memory_type="GDDR6", memory_bus_bits=256, bandwidth_gbps=448, fp32_tflops=9.75,
         fp16_tflops=19.5, fp16_fp32acc_tflops=0, int8_tops=0, fp8_tflops=0, fp4_tflops=0,
         platforms=["Vulkan"], gpu_cores=40, host=("4.0", 16), interconnect=None,
         interconnect_gbps=0, tdp_w=225, launch_year=2019, msrp_usd=399,
         notes=("No matrix units; FP16 = 2x FP32 packed math; target gfx1010; ROCm support: "
                "none (RDNA 1 is not a ROCm target): llama.cpp runs it through Vulkan"),
         source="added-rx-5700-xt"),
    dict(id="radeon-vii", name="Radeon VII", vendor="AMD", family="Radeon VII",
         architecture="Vega 20 (GCN5)", segment="consumer", form_factor="pcie-card", memory_gb=16,
         memory_type="HBM2", memory_bus_bits=4096, bandwidth_gbps=1024, fp32_tflops=13.8,
         fp16_tflops=27.6, fp16_fp32acc_tflops=0, int8_tops=55.3, fp8_tflops=0, fp4_tflops=0,
         platforms=["ROCm", "Vulkan"], gpu_cores=60, host=("3.0", 16), interconnect=None,
         interconnect_gbps=0, tdp_w=300, launch_year=2019, msrp_usd=699,
         notes=("FP16 packed (no matrix cores); INT8 via DOT4, derived; target gfx906; ROCm "
                "support: deprecated (as MI50)"),
         source="added-radeon-vii"),
    dict(id="instinct-mi60", name="Instinct MI60", vendor="AMD", family="Instinct",
         architecture="Vega 20 (GCN5)", segment="datacenter", form_factor="pcie-card",
         memory_gb=32, memory_type="HBM2", memory_bus_bits=4096, bandwidth_gbps=1024,
         fp32_tflops=14.7, fp16_tflops=29.5, fp16_fp32acc_tflops=0, int8_tops=59.0,
         fp8_tflops=0, fp4_tflops=0, platforms=["ROCm"], gpu_cores=64, host=("4.0", 16),
         interconnect="infinity-fabric-link-mi50", interconnect_gbps=184, tdp_w=300,
         launch_year=2018, msrp_usd=0,
         notes=("FP16 packed (no matrix cores); target gfx906; ROCm support: deprecated"),
         source="added-mi60"),
    dict(id="intel-data-center-gpu-max-1550", name="Intel Data Center GPU Max 1550",
         vendor="Intel", family="Data Center GPU Max", architecture="Xe-HPC (Ponte Vecchio)",
         segment="datacenter", form_factor="oam", memory_gb=128, memory_type="HBM2e",
         memory_bus_bits=8192, bandwidth_gbps=3276.8, fp32_tflops=52.4, fp16_tflops=839,
         fp16_fp32acc_tflops=0, int8_tops=1678, fp8_tflops=0, fp4_tflops=0,
         platforms=["SYCL"], gpu_cores=128, host=("5.0", 16), interconnect=None,
         interconnect_gbps=0, tdp_w=600, launch_year=2023, msrp_usd=0,
         notes=("FP16/BF16/INT8 = XMX matrix peak; 128 Xe cores; Xe Link GPU-GPU fabric exists "
                "on OAM systems but its bandwidth is not recorded here (PCIe host link used); "
                "Intel discontinued the line in 2024"),
         source="added-max-1550"),
]


def _added_record(a):
    ident = a["interconnect"] or _pcie_id(a["host"])
    rec = {
        "id": a["id"], "name": a["name"], "vendor": a["vendor"], "aliases": [],
        "family": a["family"], "architecture": a["architecture"], "segment": a["segment"],
        "form_factor": a["form_factor"], "memory_gb": float(a["memory_gb"]),
        "memory_type": a["memory_type"], "memory_bus_bits": a["memory_bus_bits"],
        "bandwidth_gbps": float(a["bandwidth_gbps"]), "fp32_tflops": float(a["fp32_tflops"]),
        "fp16_tflops": float(a["fp16_tflops"]),
        "fp16_fp32acc_tflops": float(a["fp16_fp32acc_tflops"]),
        "int8_tops": float(a["int8_tops"]), "fp8_tflops": float(a["fp8_tflops"]),
        "fp4_tflops": float(a["fp4_tflops"]),
        "precisions": _precisions(a["vendor"], a["architecture"], a["fp16_tflops"],
                                  a["int8_tops"], a["fp8_tflops"], a["fp4_tflops"]),
        "platforms": a["platforms"], "gpu_cores": a["gpu_cores"], "interconnect": ident,
        "interconnect_gbps": float(a["interconnect_gbps"]), "pcie_gbps": _PCIE_GBPS[a["host"]],
        "tdp_w": float(a["tdp_w"]), "launch_year": a["launch_year"],
        "msrp_usd": float(a["msrp_usd"]), "unified_memory": False, "gpu_memory_share": 1.0,
        "notes": a["notes"], "source": a["source"],
    }
    return rec


# --------------------------------------------------------------------------------------------
# CPU-only hosts. Bandwidth exact for the DDR configuration; compute from the named CPU.
# --------------------------------------------------------------------------------------------
# (id stem, name stem, family, arch, memory_type, bus bits, bandwidth, sizes, share,
#  fp32, int8, precisions, tdp, year, representative-CPU note)
CPU_HOSTS = [
    ("cpu-ddr4-3200-2ch", "CPU host, dual-channel DDR4-3200", "CPU host (desktop DDR4)",
     "x86-64 Zen 3 (AVX2)", "DDR4-3200", 128, 51.2, [32, 64, 128], 0.8, 0.97, 3.9,
     ["FP32", "INT8"], 105, 2020,
     "Representative CPU: AMD Ryzen 7 5800X (8 Zen 3 cores, 2x256-bit FMA = 32 FP32 FLOP/"
     "cycle/core, 3.8 GHz base): FP32 peak 0.97 TFLOPS; INT8 3.9 TOPS via AVX2 VPMADDUBSW "
     "(128 ops/cycle/core); no native FP16 math (fp16_tflops = FP32 rate after conversion). "
     "Estimates, theoretical peaks. Bandwidth = 2 x 8 B x 3200 MT/s"),
    ("cpu-ddr5-5600-2ch", "CPU host, dual-channel DDR5-5600", "CPU host (desktop DDR5)",
     "x86-64 Zen 4 (AVX-512)", "DDR5-5600", 128, 89.6, [32, 64, 96, 128], 0.8, 2.3, 9.2,
     ["FP32", "BF16", "INT8"], 170, 2022,
     "Representative CPU: AMD Ryzen 9 7950X (16 Zen 4 cores, AVX-512 on 2x256-bit datapaths = "
     "32 FP32 FLOP/cycle/core, 4.5 GHz base): FP32 peak 2.3 TFLOPS; INT8 9.2 TOPS via "
     "AVX512-VNNI (128 ops/cycle/core); AVX512-BF16 supported; fp16_tflops = FP32 rate. "
     "Estimates, theoretical peaks. Bandwidth = 2 x 8 B x 5600 MT/s (DDR5 DIMMs are 2 x 32-bit "
     "subchannels; same total width)"),
    ("cpu-ddr5-4800-8ch", "CPU server, 8-channel DDR5-4800", "CPU server (8-channel DDR5)",
     "x86-64 Sapphire Rapids (AVX-512, AMX)", "DDR5-4800 RDIMM", 512, 307.2,
     [256, 512, 1024], 0.9, 7.2, 28.7, ["FP32", "FP16", "BF16", "INT8"], 350, 2023,
     "Representative CPU: Intel Xeon Platinum 8480+ (56 cores, 2x512-bit FMA = 64 FP32 FLOP/"
     "cycle/core at a 2.0 GHz AVX-512 clock): FP32 peak 7.2 TFLOPS; INT8 28.7 TOPS via "
     "AVX512-VNNI (256 ops/cycle/core). AMX tiles reach far higher BF16/INT8 peaks but "
     "llama.cpp uses them only for some quant types, so fp16_tflops = AVX-512 FP32 rate. "
     "Estimates, theoretical peaks, one socket. Bandwidth = 8 x 8 B x 4800 MT/s"),
    ("cpu-ddr5-4800-12ch", "CPU server, 12-channel DDR5-4800", "CPU server (12-channel DDR5)",
     "x86-64 Zen 4 Genoa (AVX-512)", "DDR5-4800 RDIMM", 768, 460.8, [384, 768, 1536], 0.9,
     10.9, 43.6, ["FP32", "BF16", "INT8"], 360, 2022,
     "Representative CPU: AMD EPYC 9654 (96 Zen 4 cores, 32 FP32 FLOP/cycle/core at the 3.55 GHz "
     "all-core boost): FP32 peak 10.9 TFLOPS; INT8 43.6 TOPS via AVX512-VNNI (128 ops/cycle/"
     "core); fp16_tflops = FP32 rate. Estimates, theoretical peaks, one socket. Bandwidth = "
     "12 x 8 B x 4800 MT/s"),
]


def _cpu_records():
    out = []
    for (stem, name, family, arch, mtype, bus, bw, sizes, share, fp32, int8, prec, tdp, year,
         note) in CPU_HOSTS:
        for mem in sizes:
            out.append({
                "id": f"{stem}-{mem}gb", "name": f"{name} {mem}GB", "vendor": "CPU",
                "aliases": [], "family": family, "architecture": arch, "segment": "cpu",
                "form_factor": "host", "memory_gb": float(mem), "memory_type": mtype,
                "memory_bus_bits": bus, "bandwidth_gbps": bw, "fp32_tflops": fp32,
                "fp16_tflops": fp32, "fp16_fp32acc_tflops": 0.0, "int8_tops": int8,
                "fp8_tflops": 0.0, "fp4_tflops": 0.0, "precisions": prec, "platforms": ["CPU"],
                "gpu_cores": 0, "interconnect": "none", "interconnect_gbps": 0.0,
                "pcie_gbps": 0.0, "tdp_w": float(tdp), "launch_year": year, "msrp_usd": 0.0,
                "unified_memory": True, "gpu_memory_share": share,
                "notes": (note + f"; gpu_memory_share {share} = RAM left for the model after OS "
                          "and applications (estimate); tdp_w is the representative CPU's TDP"),
                "source": "cpu-host",
            })
    return out


# --------------------------------------------------------------------------------------------
# Aliases
# --------------------------------------------------------------------------------------------
_BRAND_WORDS = ("NVIDIA ", "GeForce ", "AMD ", "Radeon ", "Intel ", "Apple ", "Tesla ",
                "Instinct ", "Qualcomm ")

# Extra hand-written short names, per gpus.csv id (memory suffix added for expanded rows).
# The bare datacenter product names "h100" and "h200" go to the SXM board: NVIDIA's datasheets
# and the cloud instances that say "H100"/"H200" without a qualifier mean the SXM (HGX) part;
# PCIe and NVL are the variants that are always named. A bare name whose variants differ in
# memory size (A100 40/80GB) stays ambiguous.
_EXTRA_ALIASES = {
    "nvidia-dgx-spark-gb10": ["dgx spark", "gb10", "spark"],
    "nvidia-jetson-orin-nano-super-8gb": ["jetson orin nano", "orin nano", "orin nano super"],
    "nvidia-jetson-agx-orin-64gb": ["agx orin 64gb"],
    "nvidia-jetson-agx-orin-32gb": ["agx orin 32gb"],
    "nvidia-jetson-orin-nx-16gb": ["orin nx", "orin nx 16gb"],
    "nvidia-jetson-agx-thor-t5000": ["jetson thor", "agx thor", "thor"],
    "nvidia-h100-sxm5-80gb": ["h100", "h100 sxm", "h100 sxm5"],
    "nvidia-h100-pcie-80gb": ["h100 pcie"],
    "nvidia-h100-nvl-94gb": ["h100 nvl"],
    "nvidia-h200-sxm-141gb": ["h200", "h200 sxm"],
    "nvidia-h200-nvl-141gb": ["h200 nvl"],
    "nvidia-gh200-144gb": ["gh200", "grace hopper"],
    "nvidia-b200-hgx": ["b200", "hgx b200"],
    "nvidia-gb200-per-gpu": ["gb200"],
    "nvidia-b300-hgx-blackwell-ultra": ["b300", "hgx b300"],
    "nvidia-gb300-per-gpu-blackwell-ultra": ["gb300"],
    "nvidia-a100-sxm4-80gb": ["a100 sxm 80gb", "a100 80gb sxm"],
    "nvidia-a100-sxm4-40gb": ["a100 sxm 40gb", "a100 40gb sxm"],
    "nvidia-a100-pcie-80gb": ["a100 80gb pcie"],
    "nvidia-a100-pcie-40gb": ["a100 40gb pcie"],
    "rtx-pro-6000-blackwell-workstation-edition": ["rtx pro 6000", "rtx pro 6000 workstation",
                                                   "pro 6000 blackwell"],
    "rtx-pro-6000-blackwell-max-q": ["rtx pro 6000 max-q"],
    "rtx-pro-6000-blackwell-server-edition": ["rtx pro 6000 server"],
    "rtx-pro-5000-blackwell-48gb": ["rtx pro 5000"],
    "rtx-pro-4500-blackwell": ["rtx pro 4500"],
    "rtx-pro-4000-blackwell": ["rtx pro 4000"],
    "rtx-pro-2000-blackwell": ["rtx pro 2000"],
    "rtx-6000-ada-generation": ["rtx 6000 ada", "6000 ada"],
    "rtx-5000-ada-generation": ["rtx 5000 ada", "5000 ada"],
    "rtx-4500-ada-generation": ["rtx 4500 ada", "4500 ada"],
    "rtx-4000-ada-generation": ["rtx 4000 ada", "4000 ada"],
    "rtx-4000-sff-ada-generation": ["rtx 4000 sff ada", "4000 sff"],
    "rtx-2000-ada-generation": ["rtx 2000 ada", "2000 ada"],
    "rtx-a2000-12gb": ["a2000", "rtx a2000"],
    "amd-ryzen-ai-maxplus-395-radeon-8060s": ["strix halo", "ryzen ai max+ 395", "ai max+ 395",
                                              "ryzen ai max 395", "8060s", "radeon 8060s"],
    "amd-ryzen-ai-max-385-390-radeon-8050s": ["ryzen ai max 390", "ryzen ai max 385", "8050s",
                                              "radeon 8050s"],
    "amd-ryzen-ai-9-hx-370-radeon-890m": ["hx 370", "ryzen ai 9 hx 370", "strix point", "890m",
                                          "radeon 890m"],
    "amd-ryzen-7-8700g-radeon-780m": ["8700g", "ryzen 7 8700g", "780m", "radeon 780m"],
    "intel-core-ultra-7-258v-arc-140v": ["258v", "core ultra 7 258v", "lunar lake", "arc 140v"],
    "qualcomm-snapdragon-x-elite-x1e-84-100": ["snapdragon x elite", "x elite", "x1e-84-100"],
    "instinct-mi300a": ["mi300a"],
    "nvidia-a10g": ["a10g"],
    "quadro-rtx-8000": ["rtx 8000", "quadro 8000"],
    "quadro-rtx-6000": ["quadro 6000"],
    "intel-data-center-gpu-max-1550": ["max 1550", "gpu max 1550", "ponte vecchio"],
    "intel-gaudi-2": ["gaudi2"],
    "intel-gaudi-3": ["gaudi3"],
}


def _strip_brand(name):
    s = name
    changed = True
    while changed:
        changed = False
        for w in _BRAND_WORDS:
            if s.startswith(w):
                s = s[len(w):]
                changed = True
    return s


def gpu_alias_candidates(rec, base_id, base_name, mem_suffix):
    """Candidate short names; convert_catalog.py drops the ambiguous ones."""
    c = []
    name = rec["name"]
    short = _strip_brand(base_name)
    mem = f" {mem_suffix.lower()}" if mem_suffix else ""
    vendor = rec["vendor"]
    if not name.lower().startswith(vendor.lower()) and vendor not in ("CPU",):
        c.append(f"{vendor} {name}".lower())
    c.append((short + mem).lower())
    # Without parentheses: "M3 Max (40-core GPU)" -> "M3 Max"
    no_paren = re.sub(r"\s*\([^)]*\)", "", short).strip()
    c.append((no_paren + mem).lower())
    m = re.search(r"\((\d+)-core GPU\)", short)
    if m:
        c.append(f"{no_paren} {m.group(1)}c{mem}".lower())
        c.append(f"{no_paren} {m.group(1)}-core{mem}".lower())
    # Model number without the series word: "RTX 4090" -> "4090", "RX 7900 XTX" -> "7900 xtx"
    for pre in ("RTX PRO ", "RTX ", "GTX ", "RX ", "Arc Pro ", "Arc ", "PRO ", "AI PRO "):
        if no_paren.startswith(pre):
            c.append((no_paren[len(pre):] + mem).lower())
            break
    # Datacenter: "A100 SXM4 80GB" -> "a100 sxm 80gb"; drop memory -> "a100 sxm4"
    if re.search(r"\bSXM\d\b", no_paren):
        c.append(re.sub(r"\bSXM\d\b", "SXM", no_paren).lower() + mem)
    if re.search(r"\b\d+GB$", no_paren):
        c.append(re.sub(r"\s*\b\d+GB$", "", no_paren).lower())
    for extra in _EXTRA_ALIASES.get(base_id, []):
        c.append(extra + mem)
    return [x for x in c if x not in _DENY_ALIASES]


# Too generic to be useful as a GPU name on its own.
_DENY_ALIASES = {"vii"}


# --------------------------------------------------------------------------------------------
def build_gpus(csv_path):
    """Returns (records, alias candidates per record index, skipped rows)."""
    rows = list(csv.DictReader(open(csv_path, newline="", encoding="utf-8")))
    recs, cands, skipped = [], [], []
    for row in rows:
        if row["id"] in SKIP_IDS:
            skipped.append((row["id"], SKIP_IDS[row["id"]]))
            continue
        configs = [float(x) for x in row["memory_configs_gb"].split("|")]
        # Apple chips always carry their RAM size (one entry per size, even for a single one).
        expand = len(configs) > 1 or row["segment"] == "apple"
        if expand and row["segment"] not in ("apple", "igpu-apu"):
            raise ValueError(f"{row['id']}: several memory sizes on a discrete card")
        for mem in (configs if expand else [_num(row["memory_gb"])]):
            suffix = f"{int(mem)}GB" if expand else ""
            rec = _record(row, mem, suffix, expand)
            recs.append(rec)
            cands.append(gpu_alias_candidates(rec, row["id"], row["name"], suffix))
    for a in ADDED_GPUS:
        rec = _added_record(a)
        recs.append(rec)
        cands.append(gpu_alias_candidates(rec, a["id"], a["name"], ""))
    for rec in _cpu_records():
        recs.append(rec)
        mem = f"{int(rec['memory_gb'])}gb"
        kind = rec["memory_type"].split()[0].lower()
        chans = {"cpu-ddr4-3200-2ch": "dual channel", "cpu-ddr5-5600-2ch": "dual channel",
                 "cpu-ddr5-4800-8ch": "8 channel", "cpu-ddr5-4800-12ch": "12 channel"}
        stem = rec["id"][: -len(mem) - 1]
        cands.append([f"cpu {kind} {chans[stem]} {mem}", f"{kind} {chans[stem]} {mem}",
                      f"cpu only {kind} {chans[stem]} {mem}"])
    return recs, cands, skipped


def build_interconnects(used_ids):
    out = []
    for ident in sorted(INTERCONNECTS):
        name, bw, lat, src = INTERCONNECTS[ident]
        if ident not in used_ids and not ident.startswith("pcie"):
            continue
        out.append({"id": ident, "name": name, "bandwidth_gbps": bw, "latency_us": float(lat),
                    "source": src})
    return out
