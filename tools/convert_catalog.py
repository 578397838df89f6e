#!/usr/bin/env python3
"""Builds the shipped fitrank catalog (catalog/*.yaml) from shared/data/sources.

    cd /work/main && python3 tools/convert_catalog.py [--sources DIR] [--out DIR] [--check]

Reads gpus.csv, llm_models.csv, diffusion_models.csv, llmfit_hf_models.json (and the
hand-checked additions in tools/catalog_*.py), writes gpus.yaml, models.yaml, diffusion.yaml,
quants.yaml, runtimes.yaml, interconnects.yaml and prices.yaml in the frame of catalog/README.md
with the field names of catalog/types.h, then re-reads them and runs a consistency check that
fails loudly (exit 1) on any problem. Output is deterministic: same inputs, same bytes.

Python 3.11, standard library + PyYAML. No network.
"""

import argparse
import os
import re
import signal
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalog_gpus  # noqa: E402
import catalog_models  # noqa: E402
import catalog_quality  # noqa: E402
import catalog_other  # noqa: E402
from catalog_yaml import emit_file, fmt_float, normalize_name, struct_fields  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_SOURCES = os.path.join(os.path.dirname(REPO), "shared", "data", "sources")

# Fields marked "optional" in catalog/types.h: omitted from the YAML when zero / empty.
OPTIONAL = {
    "Gpu": {"form_factor", "memory_bus_bits", "fp32_tflops", "fp16_fp32acc_tflops", "int8_tops",
            "fp8_tflops", "fp4_tflops", "gpu_cores", "msrp_usd", "notes"},
    "Model": {"experts", "experts_per_token", "vocab_size", "tied_embeddings", "ollama_tag",
              "gguf_repo", "awq_repo", "gptq_repo", "fp8_repo", "release_quant",
              # never in YAML: set only for a model read from a local GGUF file
              "file_weights_bytes", "file_quant",
              # never in YAML: derived from release_date when the catalog is built
              "release_month"},
    "DiffusionModel": {"vae_params_b", "hidden_size", "attention_layers", "token_params_b",
                       "text_tokens", "context_images", "gflops_per_pass",
                       "attention_gflops_per_pass", "per_frame_attention", "vram_min_gb",
                       "vram_recommended_gb"},
    "Quant": {"requires_precision", "quantize_with"},
    "Runtime": {"tag_quant", "server_command"},
    "Interconnect": set(),
    "Price": {"street_usd", "cloud_usd_per_hour"},
}

# Closed vocabularies (catalog/vocabulary.cc).
VOCAB = {
    "vendor": {"NVIDIA", "AMD", "Intel", "Apple", "Qualcomm", "CPU"},
    "precision": {"FP64", "FP32", "TF32", "FP16", "BF16", "FP8", "FP6", "FP4", "INT8", "INT4"},
    "platform": {"CUDA", "ROCm", "Metal", "Vulkan", "SYCL", "OpenCL", "CPU"},
    "segment": {"consumer", "workstation", "datacenter", "apple", "apu", "embedded", "cpu"},
    "model_kind": {"instruct", "chat", "reasoning", "hybrid-reasoning", "code", "base",
                   "embedding"},
    "modality": {"text", "text+image", "text+image+audio", "text+image+video",
                 "text+image+audio+video"},
    "capability": {"code", "reasoning", "tools", "vision", "multilingual", "long-context",
                   "audio", "math"},
    "attention": {"full", "sliding", "mla", "hybrid", "none"},
    "diffusion_kind": {"image", "video"},
    "quant_family": {"gguf-legacy", "gguf-k", "gguf-iq", "float", "fp8", "fp4", "gptq", "awq",
                     "exl2", "mlc"},
    "parallelism": {"layer", "tensor", "pipeline", "expert"},
}

INT_FIELDS = {
    "Gpu": {"memory_bus_bits", "gpu_cores", "launch_year"},
    "Model": {"experts", "experts_per_token", "layers", "hidden_size", "attention_heads",
              "kv_heads", "head_dim", "vocab_size", "max_context"},
    "Attention": {"kv_layers", "sliding_window", "sliding_window_layers", "kv_lora_rank",
                  "qk_rope_head_dim"},
    "DiffusionModel": {"width", "height", "steps", "frames", "latent_downsample",
                       "temporal_downsample", "patch_size", "cfg_passes", "hidden_size",
                       "attention_layers", "text_tokens", "context_images"},
}


class Problems:
    def __init__(self):
        self.items = []

    def add(self, msg):
        self.items.append(msg)

    def fail_if_any(self, stage):
        if self.items:
            print(f"convert_catalog: {len(self.items)} problem(s) at {stage}:", file=sys.stderr)
            for p in self.items:
                print(f"  - {p}", file=sys.stderr)
            sys.exit(1)


# --------------------------------------------------------------------------------------------
# Aliases: keep a candidate only if no other entry claims the same normalised form.
# --------------------------------------------------------------------------------------------
def resolve_aliases(records, candidates):
    owner = {}  # normalised id/name -> index (these are reserved)
    for i, r in enumerate(records):
        for form in (r["id"], r.get("name", r["id"])):
            owner.setdefault(normalize_name(form), set()).add(i)
    claims = {}
    for i, cands in enumerate(candidates):
        for c in cands:
            n = normalize_name(c)
            if not n:
                continue
            claims.setdefault(n, set()).add(i)
    dropped = 0
    for i, (r, cands) in enumerate(zip(records, candidates)):
        own = {normalize_name(r["id"]), normalize_name(r.get("name", r["id"]))}
        seen = set(own)
        out = []
        for c in list(r.get("aliases", [])) + cands:
            n = normalize_name(c)
            if not n or n in seen:
                continue
            if n in owner and owner[n] != {i}:
                dropped += 1
                continue
            if claims.get(n, {i}) != {i}:
                dropped += 1
                continue
            seen.add(n)
            out.append(c)
        r["aliases"] = out
    return dropped


# --------------------------------------------------------------------------------------------
# Record shaping: struct field order, optional fields dropped when empty, ints as ints.
# --------------------------------------------------------------------------------------------
def shape(rec, struct, fields, problems, where):
    out = {}
    extra = set(k for k in rec if not k.startswith("_")) - set(fields)
    if extra:
        problems.add(f"{where}: keys not in struct {struct}: {sorted(extra)}")
    for f in fields:
        if f not in rec:
            if f in OPTIONAL.get(struct, set()):
                continue
            problems.add(f"{where}: missing required field {struct}.{f}")
            continue
        v = rec[f]
        if f in OPTIONAL.get(struct, set()) and (v in (0, 0.0, "", None, False) or v == []):
            continue
        if f in INT_FIELDS.get(struct, set()):
            if isinstance(v, float):
                if v != int(v):
                    problems.add(f"{where}: {f}={v} is not an integer")
                v = int(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        out[f] = _round(v)
    return out


def _round(v):
    """Floats as they will be written (4 decimals), so the YAML round trip compares equal."""
    if isinstance(v, float):
        return float(fmt_float(v))
    if isinstance(v, dict):
        return {k: _round(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_round(x) for x in v]
    return v


def shape_model(m, fields, problems):
    rec = dict(m)
    att = shape(m["attention"], "Attention", fields["Attention"], problems, f"{m['id']}.attention")
    rec["attention"] = att
    q = m["quality"]
    rec["quality"] = {"score": float(q["score"]), "estimated": bool(q["estimated"]),
                      "coding": float(q["coding"]),
                      "coding_estimated": bool(q["coding_estimated"]),
                      "math": float(q["math"]), "math_estimated": bool(q["math_estimated"]),
                      "source": q["source"]}
    rec["workload_quality"] = {
        w: shape(m["workload_quality"][w], "WorkloadQuality", fields["WorkloadQuality"],
                 problems, f"{m['id']}.workload_quality.{w}")
        for w in fields["WorkloadQualities"]}
    rec["long_context"] = shape(m["long_context"], "LongContext", fields["LongContext"],
                                problems, f"{m['id']}.long_context")
    return shape(rec, "Model", fields["Model"], problems, m["id"])


# --------------------------------------------------------------------------------------------
# Consistency checks on the data as written (re-read from YAML).
# --------------------------------------------------------------------------------------------
def check_unique(kind, entries, problems, name_field="name"):
    seen = {}
    for e in entries:
        forms = [("id", e["id"])]
        if name_field and name_field in e:
            forms.append(("name", e[name_field]))
        forms += [("alias", a) for a in e.get("aliases", [])]
        local = set()
        for what, f in forms:
            n = normalize_name(f)
            if n in local and what == "alias":
                problems.add(f"{kind} {e['id']}: alias {f!r} repeats its own id/name/alias")
            local.add(n)
            if n in seen and seen[n][0] != e["id"]:
                problems.add(f"{kind}: {what} {f!r} of {e['id']} collides with "
                             f"{seen[n][1]} of {seen[n][0]}")
            else:
                seen.setdefault(n, (e["id"], f"{what} {f!r}"))


def check_frame(doc, kind, problems):
    if doc.get("schema") != "fitrank.catalog/v1" or doc.get("kind") != kind:
        problems.add(f"{kind}.yaml: bad frame (schema/kind)")
    if set(doc) != {"schema", "kind", "sources", kind}:
        problems.add(f"{kind}.yaml: top-level keys {sorted(doc)}")
    srcs = doc.get("sources") or {}
    for e in doc.get(kind) or []:
        if e.get("source") not in srcs:
            problems.add(f"{kind} {e.get('id', e.get('gpu_id'))}: source {e.get('source')!r} "
                         "is not a key of sources:")


def in_vocab(kind, ident, field, values, vocab, problems):
    for v in values if isinstance(values, list) else [values]:
        if v not in VOCAB[vocab]:
            problems.add(f"{kind} {ident}: {field} {v!r} not in {sorted(VOCAB[vocab])}")


def check_all(docs, problems):
    gpus = docs["gpus"]["gpus"]
    models = docs["models"]["models"]
    diff = docs["diffusion"]["diffusion"]
    quants = docs["quants"]["quants"]
    runtimes = docs["runtimes"]["runtimes"]
    inter = docs["interconnects"]["interconnects"]
    prices = docs["prices"]["prices"]
    for kind, doc in docs.items():
        check_frame(doc, kind, problems)
    check_unique("gpu", gpus, problems)
    check_unique("model", models, problems)
    check_unique("diffusion", diff, problems)
    check_unique("quant", quants, problems, name_field=None)
    check_unique("runtime", runtimes, problems)
    check_unique("interconnect", inter, problems)
    inter_ids = {i["id"] for i in inter}
    gpu_ids = {g["id"] for g in gpus}
    for g in gpus:
        gid = g["id"]
        if g["id"] != g["id"].lower():
            problems.add(f"gpu {gid}: id not lower-case")
        if not g["memory_gb"] > 0 or not g["bandwidth_gbps"] > 0:
            problems.add(f"gpu {gid}: memory_gb and bandwidth_gbps must be > 0")
        if not g["fp16_tflops"] > 0:
            problems.add(f"gpu {gid}: fp16_tflops must be > 0")
        if g["interconnect"] not in inter_ids:
            problems.add(f"gpu {gid}: interconnect {g['interconnect']!r} not in interconnects")
        if not 0 < g["gpu_memory_share"] <= 1:
            problems.add(f"gpu {gid}: gpu_memory_share out of (0, 1]")
        if g["gpu_memory_share"] < 1 and not g["unified_memory"]:
            problems.add(f"gpu {gid}: gpu_memory_share < 1 on non-unified memory")
        in_vocab("gpu", gid, "vendor", g["vendor"], "vendor", problems)
        in_vocab("gpu", gid, "segment", g["segment"], "segment", problems)
        in_vocab("gpu", gid, "precisions", g["precisions"], "precision", problems)
        in_vocab("gpu", gid, "platforms", g["platforms"], "platform", problems)
        if g.get("fp8_tflops", 0) > 0 and "FP8" not in g["precisions"]:
            problems.add(f"gpu {gid}: fp8_tflops without FP8 precision")
        if g.get("fp4_tflops", 0) > 0 and "FP4" not in g["precisions"]:
            problems.add(f"gpu {gid}: fp4_tflops without FP4 precision")
        if g["segment"] == "apple" and not g["unified_memory"]:
            problems.add(f"gpu {gid}: Apple entry without unified memory")
    for i in inter:
        if i["bandwidth_gbps"] < 0 or i["latency_us"] < 0:
            problems.add(f"interconnect {i['id']}: negative figure")
    for m in models:
        mid = m["id"]
        a = m["attention"]
        if m["id"] != m["id"].lower():
            problems.add(f"model {mid}: id not lower-case")
        in_vocab("model", mid, "kind", m["kind"], "model_kind", problems)
        in_vocab("model", mid, "modality", m["modality"], "modality", problems)
        in_vocab("model", mid, "capabilities", m["capabilities"], "capability", problems)
        in_vocab("model", mid, "attention.kind", a["kind"], "attention", problems)
        if not m["params_b"] > 0:
            problems.add(f"model {mid}: params_b must be > 0")
        if not 0 < m["active_params_b"] <= m["params_b"] + 1e-9:
            problems.add(f"model {mid}: active_params_b {m['active_params_b']} not in "
                         f"(0, params_b {m['params_b']}]")
        if not m["layers"] > 0:
            problems.add(f"model {mid}: layers must be > 0")
        if not m["max_context"] > 0:
            problems.add(f"model {mid}: max_context must be > 0")
        if not 0 <= a["kv_layers"] <= m["layers"]:
            problems.add(f"model {mid}: attention.kv_layers {a['kv_layers']} not in 0..layers")
        if a["kind"] in ("full", "sliding", "hybrid") and a["kv_layers"] > 0:
            if not m["head_dim"] > 0 or not m["kv_heads"] > 0 or not m["attention_heads"] > 0:
                problems.add(f"model {mid}: head_dim, kv_heads and attention_heads must be > 0")
            elif m["attention_heads"] % m["kv_heads"]:
                problems.add(f"model {mid}: kv_heads {m['kv_heads']} does not divide "
                             f"attention_heads {m['attention_heads']}")
        if a["kind"] == "mla" and not (a["kv_lora_rank"] > 0 and a["qk_rope_head_dim"] > 0):
            problems.add(f"model {mid}: MLA without kv_lora_rank / qk_rope_head_dim")
        if a["kind"] == "sliding":
            if not (a["sliding_window"] > 0 and 0 < a["sliding_window_layers"] <= a["kv_layers"]):
                problems.add(f"model {mid}: sliding attention without window/layers")
        elif a["sliding_window"] or a["sliding_window_layers"]:
            problems.add(f"model {mid}: sliding-window fields on {a['kind']} attention")
        if a["kind"] == "none" and a["kv_layers"]:
            problems.add(f"model {mid}: attention none with kv_layers")
        if m.get("experts", 0) > 0 and not m["active_params_b"] < m["params_b"]:
            problems.add(f"model {mid}: MoE (experts > 0) with active == total params")
        if m.get("experts_per_token", 0) > m.get("experts", 0):
            problems.add(f"model {mid}: experts_per_token > experts")
        q = m["quality"]
        if not 0 <= q["score"] <= 100 or not q["source"]:
            problems.add(f"model {mid}: quality score/source")
        if not (0 <= q["coding"] <= 100 and 0 <= q["math"] <= 100):
            problems.add(f"model {mid}: quality coding/math outside 0-100")
        if q["estimated"] and not (q["coding_estimated"] and q["math_estimated"]):
            problems.add(f"model {mid}: a measured coding/math score on an estimated model")
        if not q["estimated"] and not q["source"].startswith("LMArena"):
            problems.add(f"model {mid}: non-estimated quality must cite LMArena")
        if not m["release_date"] or not m["hf_repo"] or not m["license"]:
            problems.add(f"model {mid}: release_date, hf_repo and license are required")
    for d in diff:
        did = d["id"]
        in_vocab("diffusion", did, "kind", d["kind"], "diffusion_kind", problems)
        if not (d["params_b"] > 0 and 0 < d["active_params_b"] <= d["params_b"]):
            problems.add(f"diffusion {did}: params")
        if not (d["width"] > 0 and d["height"] > 0 and d["steps"] > 0):
            problems.add(f"diffusion {did}: width/height/steps must be > 0")
        if (d["kind"] == "video") != (d["frames"] > 0):
            problems.add(f"diffusion {did}: frames > 0 iff video")
        if d["kind"] == "image" and d["temporal_downsample"] != 1:
            problems.add(f"diffusion {did}: image model with temporal downsample")
        if not (d["latent_downsample"] > 0 and d["patch_size"] > 0):
            problems.add(f"diffusion {did}: latent_downsample/patch_size")
        if d["cfg_passes"] not in (1, 2):
            problems.add(f"diffusion {did}: cfg_passes must be 1 or 2")
        if d.get("token_params_b", 0) > d["active_params_b"]:
            problems.add(f"diffusion {did}: token_params_b > active_params_b")
        if d.get("attention_gflops_per_pass", 0) > d.get("gflops_per_pass", 0):
            problems.add(f"diffusion {did}: attention_gflops_per_pass > gflops_per_pass")
    runtime_ids = {r["id"] for r in runtimes}
    fam_of = {r["id"]: set(r["quant_families"]) for r in runtimes}
    for r in runtimes:
        in_vocab("runtime", r["id"], "platforms", r["platforms"], "platform", problems)
        in_vocab("runtime", r["id"], "quant_families", r["quant_families"], "quant_family",
                 problems)
        in_vocab("runtime", r["id"], "parallelism", r["parallelism"], "parallelism", problems)
    for q in quants:
        in_vocab("quant", q["id"], "family", q["family"], "quant_family", problems)
        if not (q["bpw"] > 0 and 0 < q["quality_retention"] <= 1):
            problems.add(f"quant {q['id']}: bpw/quality_retention")
        for rt in q["runtimes"]:
            if rt not in runtime_ids:
                problems.add(f"quant {q['id']}: runtime {rt!r} not in runtimes.yaml")
            elif q["family"] not in fam_of[rt]:
                problems.add(f"quant {q['id']}: runtime {rt} does not list family {q['family']}")
        if q.get("requires_precision"):
            in_vocab("quant", q["id"], "requires_precision", q["requires_precision"],
                     "precision", problems)
    for p in prices:
        if p["gpu_id"] not in gpu_ids:
            problems.add(f"price: unknown gpu_id {p['gpu_id']}")
        if not (p.get("street_usd", 0) > 0 or p.get("cloud_usd_per_hour", 0) > 0):
            problems.add(f"price {p['gpu_id']}: no figure")
    if len({p["gpu_id"] for p in prices}) != len(prices):
        problems.add("prices: more than one entry for a GPU")


_BAD_NUM = re.compile(r"^-?(\d+(\.\d+)?[eE][-+]?\d+|\.?nan|\.?inf)$", re.I)


def check_floats(text, fname, problems):
    """No exponent / NaN / infinity scalars anywhere in the file."""
    for line in text.splitlines():
        if line.lstrip().startswith("#") or ":" not in line:
            continue
        value = line.split(":", 1)[1].strip()
        items = value[1:-1].split(",") if value.startswith("[") else [value]
        for it in items:
            if _BAD_NUM.match(it.strip()):
                problems.add(f"{fname}: bad number formatting: {line.strip()}")


# --------------------------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sources", default=DEFAULT_SOURCES)
    ap.add_argument("--out", default=os.path.join(REPO, "catalog"))
    ap.add_argument("--check", action="store_true",
                    help="do not write; fail if the files on disk differ from the output")
    args = ap.parse_args()
    src = args.sources
    problems = Problems()
    fields = struct_fields(open(os.path.join(REPO, "catalog", "types.h"), encoding="utf-8").read())
    for s in ("Gpu", "Model", "Attention", "Quality", "DiffusionModel", "Quant", "Runtime",
              "Interconnect", "Price"):
        if not fields.get(s):
            problems.add(f"catalog/types.h: struct {s} not found")
    problems.fail_if_any("reading catalog/types.h")

    # ---- GPUs and interconnects
    gpus, gpu_cands, gpu_skipped = catalog_gpus.build_gpus(os.path.join(src, "gpus.csv"))
    gpu_alias_drops = resolve_aliases(gpus, gpu_cands)
    used = {g["interconnect"] for g in gpus}
    inter = catalog_gpus.build_interconnects(used)

    # ---- Models
    models, model_cands, model_dropped, qm, add_problems = catalog_models.build_models(
        os.path.join(src, "llm_models.csv"), os.path.join(src, "llmfit_hf_models.json"))
    for p in add_problems:
        problems.add(p)
    problems.fail_if_any("building models (llmfit cross-check)")
    qreport = catalog_quality.build(models, os.path.join(src, "quality_scores.tsv"))
    model_alias_drops = resolve_aliases(models, model_cands)

    # ---- Diffusion, quants, runtimes, prices
    diff = catalog_other.build_diffusion(os.path.join(src, "diffusion_models.csv"))
    resolve_aliases(diff, [catalog_other.diffusion_alias_candidates(d) for d in diff])
    quants = catalog_other.build_quants()
    resolve_aliases(quants, [[] for _ in quants])
    runtimes = [dict(r) for r in catalog_other.RUNTIMES]
    resolve_aliases(runtimes, [[] for _ in runtimes])
    prices = [dict(p) for p in catalog_other.PRICES]

    # ---- Shape records to the structs and write
    shaped = {
        "gpus": [shape(g, "Gpu", fields["Gpu"], problems, g["id"]) for g in gpus],
        "models": [shape_model(m, fields, problems) for m in models],
        "diffusion": [shape(d, "DiffusionModel", fields["DiffusionModel"], problems, d["id"])
                      for d in diff],
        "quants": [shape(q, "Quant", fields["Quant"], problems, q["id"]) for q in quants],
        "runtimes": [shape(r, "Runtime", fields["Runtime"], problems, r["id"]) for r in runtimes],
        "interconnects": [shape(i, "Interconnect", fields["Interconnect"], problems, i["id"])
                          for i in inter],
        "prices": [shape(p, "Price", fields["Price"], problems, p["gpu_id"]) for p in prices],
    }
    sources = {
        "gpus": catalog_gpus.GPU_SOURCES,
        "models": catalog_models.MODEL_SOURCES,
        "diffusion": catalog_other.DIFFUSION_SOURCES,
        "quants": catalog_other.QUANT_SOURCES,
        "runtimes": catalog_other.RUNTIME_SOURCES,
        "interconnects": catalog_gpus.INTERCONNECT_SOURCES,
        "prices": catalog_other.PRICE_SOURCES,
    }
    used_sources = {k: {e["source"] for e in v} for k, v in shaped.items()}
    used_sources["models"] |= {"quality-lmarena", "quality-estimate", "quality-workloads"}
    sources = {k: {sk: sv for sk, sv in v.items() if sk in used_sources[k]}
               for k, v in sources.items()}
    problems.fail_if_any("shaping records")

    texts = {kind: emit_file(kind, sources[kind], shaped[kind]) for kind in shaped}
    quality_md = catalog_quality.render_markdown(qreport, models)

    # ---- Re-read what will be written and check it
    docs = {}
    for kind, text in texts.items():
        check_floats(text, f"{kind}.yaml", problems)
        try:
            docs[kind] = yaml.safe_load(text)
        except yaml.YAMLError as e:
            problems.add(f"{kind}.yaml does not parse: {e}")
    problems.fail_if_any("YAML round trip")
    for kind in shaped:
        if docs[kind][kind] != shaped[kind]:
            for a, b in zip(docs[kind][kind], shaped[kind]):
                if a != b:
                    problems.add(f"{kind}.yaml round trip differs for {b.get('id')}: "
                                 f"{ {k: (a.get(k), b.get(k)) for k in b if a.get(k) != b.get(k)} }")
                    break
    check_all(docs, problems)
    problems.fail_if_any("consistency check")

    # ---- Write (or compare)
    stale = []
    for kind, text in texts.items():
        path = os.path.join(args.out, f"{kind}.yaml")
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if args.check:
            if old != text:
                stale.append(path)
        elif old != text:
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
    qpath = os.path.join(args.out, "QUALITY.md")
    old = open(qpath, encoding="utf-8").read() if os.path.exists(qpath) else None
    if args.check and old != quality_md:
        stale.append(qpath)
    elif not args.check and old != quality_md:
        with open(qpath, "w", encoding="utf-8", newline="\n") as f:
            f.write(quality_md)
    if stale:
        print("convert_catalog: out of date: " + ", ".join(stale), file=sys.stderr)
        sys.exit(1)

    # ---- Report
    g = shaped["gpus"]
    m = shaped["models"]
    seg = {}
    for x in g:
        seg[x["segment"]] = seg.get(x["segment"], 0) + 1
    scored = sum(1 for x in m if not x["quality"]["estimated"])
    print("catalog written" if not args.check else "catalog up to date")
    print(f"  gpus.yaml          {len(g):4d}  ({', '.join(f'{k} {v}' for k, v in sorted(seg.items()))};"
          f" {sum(len(x['aliases']) for x in g)} aliases, {gpu_alias_drops} ambiguous dropped)")
    print(f"  models.yaml        {len(m):4d}  ({scored} LMArena-scored, {len(m) - scored} estimated;"
          f" {sum(len(x['aliases']) for x in m)} aliases, {model_alias_drops} ambiguous dropped)")
    print(f"  diffusion.yaml     {len(shaped['diffusion']):4d}  "
          f"(image {sum(1 for d in shaped['diffusion'] if d['kind'] == 'image')}, "
          f"video {sum(1 for d in shaped['diffusion'] if d['kind'] == 'video')})")
    print(f"  quants.yaml        {len(shaped['quants']):4d}")
    print(f"  runtimes.yaml      {len(shaped['runtimes']):4d}")
    print(f"  interconnects.yaml {len(shaped['interconnects']):4d}")
    print(f"  prices.yaml        {len(shaped['prices']):4d}")
    print(f"  quality: score = clamp((elo - {catalog_models.ELO_OFFSET:g}) / "
          f"{catalog_models.ELO_PER_POINT:g}, 0, 100); family curve {qm['k_small']:.2f} / "
          f"{qm['k_large']:.2f} elo per doubling below / above 8B (leave-one-out error "
          f"{qm['sigma_family']['same']:.0f} same release, n={qm['n_family_loo']['same']}; "
          f"{qm['sigma_family']['other']:.0f} other, n={qm['n_family_loo']['other']}); prior "
          f"elo = {qm['coef'][0]:.1f} + {qm['coef'][1]:.2f}*min(log2 B, 3) + "
          f"{qm['coef'][2]:.2f}*max(log2 B - 3, 0) + {qm['coef'][3]:.2f}*(year-2024) over "
          f"{qm['n']} scored models (leave-one-out error {qm['sigma_global']:.0f})")
    for cat in ("coding", "math"):
        off = qm["offsets"][cat]
        print(f"  {cat} - text elo offset: mean {off['all']:+.1f}; by kind " +
              ", ".join(f"{k} {v:+.1f}" for k, v in sorted(off["kind"].items())))
    for rid, why in gpu_skipped:
        print(f"  skipped gpus.csv row {rid}: {why}")
    for rid, why in model_dropped:
        print(f"  skipped llm_models.csv row {rid}: {why}")
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into `head`
    sys.exit(main())
