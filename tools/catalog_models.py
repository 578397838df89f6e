"""LLMs: llm_models.csv rows plus tools/catalog_model_additions.py, converted to the Model records
of catalog/types.h, with derived capabilities and a 0-100 quality score.

Quality score (one formula for every LMArena-scored model):
    score = clamp((elo - 975) / 5, 0, 100)
on the LMArena text leaderboard of 2025-12-11 (llm_models.csv `lmarena_elo`). It puts the best
open models of late 2025 (elo ~1420-1440) at ~89-93 and the 2023 chat models (Llama 2 7B Chat
1055, Vicuna 13B 1060, Mixtral 8x7B 1133) at ~16-32.

Models without an elo get an ESTIMATED elo (quality.estimated = true), then the same formula.
The estimate is deliberately conservative (LMArena rates small recent models generously, and an
extrapolated figure must not outrank a measured one of the same value):
  1. A base or fine-tuned checkpoint of a scored catalog model takes that model's elo.
  2. Prior: elo = a + b_s*min(x, 3) + b_l*max(x - 3, 0) + c*(year - 2024), x = log2(effective
     size), least squares over every scored model, the year clamped to the scored models' range
     (no extrapolation into the future). The hinge at 8B lets small models fall faster (~56 elo
     per doubling below 8B, ~17 above); its leave-one-out error (~38 elo) is its uncertainty.
  3. Family: the scored model(s) of the same `family` nearest in effective size (averaged if
     several at that size), moved along a within-family size curve (elo per doubling below and
     above 8B, fitted by least squares with family fixed effects). Its uncertainty is the
     leave-one-out error of this method, measured separately for relatives released within
     3 months (~33 elo) and further apart (~73 elo), plus SIGMA_PER_DOUBLING per doubling moved.
  4. The two are blended by inverse variance (a long extrapolation from a flagship leans on the
     prior), and the result lowered by CONSERVATIVE_Z standard errors of the blend.
  5. Caps: never above a scored model of the same family that is larger, nor above the best
     LMArena elo in the data.
  (effective size = total params for dense models, sqrt(total x active) for MoE.)
Coding and math (quality.coding / quality.math): the LMArena coding and math category elos
(llm_models.csv lmarena_coding_elo / lmarena_math_elo) on the same scale. Missing ones are
estimated (marked *_estimated) as the (possibly estimated) text elo plus the mean category -
text offset of the model's family, else of its kind (code models run ~+34 in coding), else of
all scored models.
Embedding models are not rated (score 0, estimated). Base (pretrained, not instruction-tuned)
checkpoints get the estimate of their family like any other model; their `kind` says what they
are.

Capabilities (vocabulary of catalog/vocabulary.cc), derived per model:
  code         kind code, or a code model by name (coder, codestral, devstral, starcoder,
               codellama, codegemma, codeqwen, deepcoder, stable-code, granite code, kimi-dev)
  reasoning    kind reasoning / hybrid-reasoning, or R1 / QwQ / thinking / reasoning in the name
  tools        tool/function calling advertised on the model card: see TOOLS_FAMILIES and
               TOOLS_IDS below (never for base or embedding models)
  vision       'image' in modality;  audio: 'audio' in modality
  multilingual families advertised as multilingual (MULTILINGUAL_FAMILIES / _IDS)
  long-context max_context >= 131072
  math         math-specialised models (Qwen2.5-Math, DeepSeek-Math)
"""

import csv
import json
import math
import re

from catalog_model_additions import ADDITIONS, KNOWN_VOCAB

MODEL_SOURCES = {
    "csv-config": (
        "shared/data/sources/llm_models.csv (written for fitrank, 2025-11): layers, hidden size, "
        "heads, KV heads and head_dim confirmed automatically against Hugging Face config.json "
        "values scraped by llmfit (llmfit_hf_models.json, AlexsJones/llmfit @5bdc9df, MIT); "
        "MLA dimensions composed from the vendor config where the row says so. vocab_size from "
        "llmfit where it has the repo or an ungated mirror."),
    "csv-composed": (
        "llm_models.csv rows composed from model cards and config.json facts (not "
        "auto-confirmed against llmfit); see each entry's notes for caveats."),
    "llmfit-config": (
        "Added in tools/catalog_model_additions.py: architecture from llmfit_hf_models.json "
        "(MIT), every value cross-checked by tools/convert_catalog.py; max_context is the "
        "config's max_position_embeddings (llmfit multiplies it by the RoPE factor); parameter "
        "counts corrected where llmfit's are wrong (the entry's notes say so)."),
    "config-composed": (
        "Added in tools/catalog_model_additions.py from well-known config.json values of the "
        "named Hugging Face repo (layers, hidden size, heads, KV heads, head_dim, vocab, "
        "max_position_embeddings) and the model card's parameter count."),
    "sibling-arch": (
        "Added in tools/catalog_model_additions.py: a base or fine-tuned checkpoint whose "
        "architecture is identical to the catalog entry named in its notes; architecture values "
        "copied from that entry."),
    "quality-lmarena": (
        "quality.score = clamp((elo - 975) / 5, 0, 100) with elo from the LMArena text "
        "leaderboard of 2025-12-11 (lmarena/arena-catalog @c9558b6, ratings of catalog models "
        "only, as recorded in llm_models.csv)."),
    "quality-estimate": (
        "quality.estimated = true: a conservative elo estimate, then the same score formula. "
        "Prior: least squares over all scored models of elo on log2(effective size) with a "
        "hinge at 8B and on release year (clamped to the scored range); family: the nearest "
        "scored model of the same family moved along a within-family size curve (fitted with "
        "family fixed effects). The two are blended by inverse variance (uncertainties: "
        "leave-one-out errors, the family's growing with the distance moved), lowered by one "
        "standard error, and capped at any larger scored model of the family. Coding and math "
        "categories: measured where LMArena has them, else the text elo plus the family's (or "
        "kind's) mean category offset, marked estimated. Each entry's source gives its numbers. "
        "Not a leaderboard figure."),
    "quality-workloads": (
        "workload_quality and long_context: shared/data/sources/quality_scores.tsv (2,198 "
        "published scores, each with its benchmark string, date and source) and the LMArena "
        "columns above, put on one 0-100 scale per workload by a latent quality per model and "
        "a linear map per benchmark string; estimates where a model has no row. Method, "
        "leave-one-out errors and the maps: catalog/QUALITY.md (tools/catalog_quality.py)."),
}

TOOLS_FAMILIES = {
    "Llama 3.1", "Llama 3.2", "Llama 3.3", "Llama 4", "Qwen2.5", "Qwen2.5-Coder", "QwQ",
    "Qwen3", "Qwen3-2507", "Qwen3-Coder", "Qwen3-Next", "Qwen3-VL", "Qwen3.5", "Qwen3.6",
    "Mistral NeMo", "Ministral", "Mistral Small", "Mistral Large", "Devstral", "Magistral",
    "Command R", "Command A", "gpt-oss", "GLM-4", "GLM-4.5", "GLM-4.6", "GLM-4.7", "GLM-5",
    "Kimi K2", "DeepSeek-V3", "DeepSeek-V4", "Hermes 2", "Hermes 3", "Hermes 4", "Granite 3",
    "Granite 4", "MiniMax-M1", "MiniMax-M2", "Nemotron 3", "xLAM", "Jamba", "SmolLM3", "Cogito",
    "Hunyuan", "Seed-OSS", "LFM2", "InternLM",
}
TOOLS_IDS = {
    # Individual models whose cards advertise function calling in families that mostly do not.
    "mistral-7b-instruct-v0.3", "mixtral-8x22b-instruct-v0.1", "deepseek-r1-0528",
    "phi-4-mini-instruct", "exaone-4.0-1.2b", "exaone-4.0-32b", "deepseek-v2.5-1210",
    "llama-3_3-nemotron-super-49b-v1", "llama-3_3-nemotron-super-49b-v1_5",
    "llama-3_1-nemotron-ultra-253b-v1", "llama-3.1-nemotron-nano-8b-v1",
    "nvidia-nemotron-nano-9b-v2",
}
TOOLS_EXCLUDE_IDS = {
    # In a tools family, but the card does not offer tool calling.
    "nous-hermes-2-mixtral-8x7b-dpo",
}
MULTILINGUAL_FAMILIES = {
    "Llama 3.1", "Llama 3.2", "Llama 3.2 Vision", "Llama 3.3", "Llama 4", "Qwen1.5", "Qwen2",
    "Qwen2-VL", "Qwen2.5", "Qwen2.5-VL", "Qwen3", "Qwen3-2507", "Qwen3-VL", "Qwen3-Next",
    "Qwen3.5", "Qwen3.6", "QwQ", "Gemma 3", "Gemma 3n", "Gemma 4", "Mistral NeMo",
    "Mistral Small", "Mistral Large", "Ministral", "Magistral", "Pixtral", "Command R",
    "Command A", "Aya", "BLOOM", "GLM-4", "GLM-4.5", "GLM-4.6", "GLM-4.7", "GLM-5", "Apertus",
    "Granite 3", "Granite 4", "Jamba", "SmolLM3", "Falcon 3", "Qwen3-Embedding",
}
MULTILINGUAL_IDS = {
    "phi-3.5-mini-instruct", "phi-3.5-moe-instruct", "phi-4-mini-instruct",
    "phi-4-multimodal-instruct", "mixtral-8x22b-instruct-v0.1", "mixtral-8x22b-v0.1-base",
    "bge-m3", "xlam-8x22b-r",
}
_CODE_RE = re.compile(r"coder|codestral|devstral|starcoder|codellama|code-llama|codegemma|"
                      r"codeqwen|deepcoder|stable-code|granite-8b-code|kimi-dev")
_REASON_RE = re.compile(r"(^|-)r1(-|$)|qwq|think|reasoning|magistral")
_CAP_ORDER = ["code", "reasoning", "tools", "vision", "multilingual", "long-context", "audio",
              "math"]

# Models whose published weights are below 16 bits: the catalog quant they were released in
# (their quality scores were measured on those weights). From each repo's config.json
# `quantization_config` and model card; catalog/catalog.h QualityRetention uses it.
_MXFP4 = ("MXFP4", "config.json quantization_config quant_method mxfp4: MoE expert weights "
                   "trained and released in MXFP4, attention in BF16 (model card)")
_FP8_BLOCK = ("FP8", "config.json quantization_config quant_method fp8 (e4m3, 128x128 weight "
                     "blocks): weights released in FP8 (model card)")
RELEASE_QUANT = {
    "gpt-oss-20b": _MXFP4, "gpt-oss-120b": _MXFP4,
    "deepseek-v3": _FP8_BLOCK, "deepseek-v3-base": _FP8_BLOCK, "deepseek-v3-0324": _FP8_BLOCK,
    "deepseek-r1": _FP8_BLOCK, "deepseek-r1-0528": _FP8_BLOCK, "deepseek-v3.1": _FP8_BLOCK,
    "deepseek-v3.1-terminus": _FP8_BLOCK, "deepseek-v3.2-exp": _FP8_BLOCK,
    "deepseek-v3.2": _FP8_BLOCK, "kimi-k2-instruct": _FP8_BLOCK,
    "kimi-k2-instruct-0905": _FP8_BLOCK, "minimax-m2": _FP8_BLOCK, "minimax-m2.1": _FP8_BLOCK,
}

ELO_OFFSET = 975.0
ELO_PER_POINT = 5.0


def elo_to_score(elo):
    return max(0.0, min(100.0, (elo - ELO_OFFSET) / ELO_PER_POINT))


def _num(s):
    s = (s or "").strip()
    return float(s) if s else 0.0


def _int(s):
    return int(round(_num(s)))


# --------------------------------------------------------------------------------------------
# llmfit index (used for vocab sizes and for cross-checking additions)
# --------------------------------------------------------------------------------------------
class Llmfit:
    def __init__(self, path):
        self.rows = json.load(open(path, encoding="utf-8"))
        self.by_name = {r["name"].lower(): r for r in self.rows}

    def get(self, repo):
        return self.by_name.get(repo.lower()) if repo else None

    def vocab_for(self, rec, arch_source):
        """vocab_size and the repo it came from, or (0, '') — only from an llmfit entry whose
        layers and hidden size match the catalog record (guards against wrong mirrors)."""
        names = [rec["hf_repo"]]
        m = re.search(r"\(([\w.-]+/[\w.-]+)\)", arch_source or "")
        if m:
            names.append(m.group(1))
        base = rec["hf_repo"].split("/")[-1]
        names += [f"unsloth/{base}", f"NousResearch/{base}"]
        for n in names:
            e = self.get(n)
            if not e or not e.get("vocab_size"):
                continue
            if e.get("num_hidden_layers") not in (None, rec["layers"]):
                continue
            if e.get("hidden_size") not in (None, rec["hidden_size"]):
                continue
            return int(e["vocab_size"]), e["name"]
        return 0, ""

    # Publishers of GGUF conversions, most preferred first: llama.cpp's own, then the ones
    # whose files carry the standard quant names that `llama-server -hf repo:QUANT` matches.
    GGUF_PUBLISHERS = ["ggml-org", "unsloth", "bartowski", "lmstudio-community", "mradermacher"]

    def gguf_repo_for(self, rec):
        """A Hugging Face repo with GGUF files of the model, or '': from the `gguf_sources`
        llmfit lists for the model's own repo, else an llmfit entry named
        <publisher>/<repo name>-GGUF."""
        e = self.get(rec["hf_repo"])
        repos = [g["repo"] for g in (e or {}).get("gguf_sources") or [] if g.get("repo")]
        base = rec["hf_repo"].split("/")[-1]
        repos += [n for n in (f"{p}/{base}-GGUF" for p in self.GGUF_PUBLISHERS) if self.get(n)]
        if not repos:
            return ""
        rank = {p.lower(): i for i, p in enumerate(self.GGUF_PUBLISHERS)}
        return min(repos, key=lambda r: (rank.get(r.split("/")[0].lower(), len(rank)), r))


    # Name suffixes of quantized checkpoints of a repo (after "<repo name>" or "Meta-<repo
    # name>"), per catalog quant: the 4-bit AWQ and GPTQ builds and the FP8 ones vLLM, SGLang
    # and TensorRT-LLM load as they are.
    QUANTIZED_SUFFIXES = {
        "awq_repo": ["-awq", "-awq-int4", "-awq-4bit"],
        "gptq_repo": ["-gptq-int4", "-gptq"],
        "fp8_repo": ["-fp8", "-fp8-dynamic"],
    }
    # Publishers preferred when several publish the same quantized build: the model's own
    # organisation first (ranked in quantized_repos_for), then these, then by name.
    QUANTIZED_PUBLISHERS = ["nvidia", "RedHatAI", "hugging-quants", "Qwen", "QuantTrio"]

    def quantized_repos_for(self, rec):
        """{field: repo} of the AWQ 4-bit, GPTQ 4-bit and FP8 checkpoints llmfit lists for the
        model (entries named <publisher>/[Meta-]<repo name><suffix> whose layer count, when
        listed, matches the catalog record); '' where none is listed."""
        base = rec["hf_repo"].split("/")[-1].lower()
        owner = rec["hf_repo"].split("/")[0].lower()
        rank = {p.lower(): i + 1 for i, p in enumerate(self.QUANTIZED_PUBLISHERS)}
        out = {}
        for field, suffixes in self.QUANTIZED_SUFFIXES.items():
            names = {p + base + s for s in suffixes for p in ("", "meta-")}
            found = []
            for r in self.rows:
                publisher, _, name = r["name"].partition("/")
                if name.lower() not in names:
                    continue
                if r.get("num_hidden_layers") not in (None, rec["layers"]):
                    continue
                if field != "fp8_repo" and "8bit" in (r.get("quantization") or "").lower():
                    continue
                p = publisher.lower()
                found.append((0 if p == owner else rank.get(p, len(rank) + 1), r["name"]))
            out[field] = min(found)[1] if found else ""
        return out


# --------------------------------------------------------------------------------------------
# llm_models.csv rows
# --------------------------------------------------------------------------------------------
def _incomplete(row):
    """Why a row cannot be shipped (missing numbers the estimator needs), or ''."""
    at = row["attention_type"]
    if not row["num_layers"] or not at:
        return "architecture numbers not captured in llm_models.csv"
    if at.startswith("hybrid") and not row["kv_cache_layers"]:
        return "number of KV-cache (attention) layers not captured"
    if at in ("GQA", "MHA", "MQA") and not (row["num_kv_heads"] and row["head_dim"]):
        return "KV heads / head_dim not captured"
    return ""


def _attention(row, layers):
    at = row["attention_type"]
    kv_layers = _int(row["kv_cache_layers"]) if row["kv_cache_layers"] else layers
    sw = _int(row["sliding_window"])
    swl = _int(row["sliding_window_layers"])
    att = {"kind": "full", "kv_layers": kv_layers, "sliding_window": 0,
           "sliding_window_layers": 0, "kv_lora_rank": 0, "qk_rope_head_dim": 0}
    if at == "MLA":
        att["kind"] = "mla"
        att["kv_lora_rank"] = _int(row["kv_lora_rank"])
        att["qk_rope_head_dim"] = _int(row["qk_rope_head_dim"])
    elif at.startswith("hybrid"):
        att["kind"] = "hybrid"
    elif at == "encoder":
        att["kind"] = "none"
        att["kv_layers"] = 0
    elif sw and swl:
        att["kind"] = "sliding"
        att["sliding_window"] = sw
        att["sliding_window_layers"] = swl
    return att


def _csv_record(row):
    layers = _int(row["num_layers"])
    params = _num(row["total_params_b"])
    active = _num(row["active_params_b"]) or params
    kind = row["kind"]
    notes = []
    if kind == "code-completion":
        kind = "base"
        notes.append("Code completion (base) model")
    if row["notes"].strip():
        notes.append(row["notes"].strip().rstrip("."))
    notes.append(f"Architecture: {row['arch_source'].strip()}")
    att = _attention(row, layers)
    if row["attention_type"].startswith("hybrid") and att["kv_layers"] == 0:
        notes.append("no attention layers: constant-size recurrent state, no KV cache")
    src = "csv-config" if "confirmed" in row["arch_source"] else "csv-composed"
    rec = {
        "id": row["id"], "name": row["name"], "aliases": [], "family": row["family"],
        "org": row["org"], "kind": kind, "params_b": params, "active_params_b": active,
        "experts": _int(row["num_experts"]), "experts_per_token": _int(row["experts_per_token"]),
        "layers": layers, "hidden_size": _int(row["hidden_size"]),
        "attention_heads": _int(row["num_attention_heads"]), "kv_heads": _int(row["num_kv_heads"]),
        "head_dim": _int(row["head_dim"]), "attention": att, "vocab_size": 0,
        "max_context": _int(row["max_context"]), "release_date": row["release_date"],
        "license": row["license"], "modality": row["modality"], "capabilities": [],
        "hf_repo": row["hf_repo"], "ollama_tag": row["ollama_tag"].strip(),
        "quality": None, "notes": "; ".join(notes), "source": src,
        "_elo": _num(row["lmarena_elo"]), "_coding_elo": _num(row["lmarena_coding_elo"]),
        "_math_elo": _num(row["lmarena_math_elo"]), "_arch_source": row["arch_source"],
    }
    return rec


# --------------------------------------------------------------------------------------------
# Additions
# --------------------------------------------------------------------------------------------
_LLMFIT_FIELDS = [("layers", "num_hidden_layers"), ("hidden_size", "hidden_size"),
                  ("attention_heads", "num_attention_heads"), ("kv_heads", "num_key_value_heads"),
                  ("head_dim", "head_dim"), ("vocab_size", "vocab_size")]


def _check_llmfit(a, e, problems):
    if e is None:
        problems.append(f"{a['id']}: llmfit has no entry {a['llmfit']!r}")
        return
    for ours, theirs in _LLMFIT_FIELDS:
        v = e.get(theirs)
        if v is None or ours in a["fix"]:
            continue
        if int(v) != int(a[ours]):
            problems.append(f"{a['id']}: {ours}={a[ours]} but llmfit {a['llmfit']} has {v}")
    raw = e.get("parameters_raw")
    if raw and "params_b" not in a["fix"]:
        if abs(raw / 1e9 - a["params_b"]) > 0.015 * a["params_b"] + 0.005:
            problems.append(f"{a['id']}: params_b={a['params_b']} but llmfit has {raw / 1e9:.3f}")


def _addition_record(a, by_id, llmfit, problems):
    if a["how"] == "sibling":
        like = by_id[a["like"]]
        rec = {k: (json.loads(json.dumps(v)) if isinstance(v, (dict, list)) else v)
               for k, v in like.items() if not k.startswith("_")}
        rec.update(id=a["id"], name=a["name"], aliases=[], hf_repo=a["hf_repo"], kind=a["kind"],
                   release_date=a["release_date"], license=a["license"], capabilities=[],
                   ollama_tag=a["ollama_tag"], quality=None, source="sibling-arch")
        if a["family"]:
            rec["family"] = a["family"]
        if a["org"]:
            rec["org"] = a["org"]
        if a["modality"]:
            rec["modality"] = a["modality"]
        if a["max_context"]:
            rec["max_context"] = a["max_context"]
        if a["vocab_size"]:
            rec["vocab_size"] = a["vocab_size"]
        if a["params_b"]:
            rec["params_b"] = a["params_b"]
            rec["active_params_b"] = a["params_b"]
        notes = [a["notes"]] if a["notes"] else []
        notes.append(f"Architecture as catalog entry {a['like']}")
        rec["notes"] = "; ".join(notes)
        rec["_like"] = a["like"]
        rec["_elo"] = rec["_coding_elo"] = rec["_math_elo"] = 0.0
        return rec
    notes = [a["notes"]] if a["notes"] else []
    if a["llmfit"]:
        _check_llmfit(a, llmfit.get(a["llmfit"]), problems)
        src = "llmfit-config"
        notes.append(f"Architecture from llmfit entry {a['llmfit']}")
        for field, why in sorted(a["fix"].items()):
            notes.append(f"{field}: {why}")
    else:
        src = "config-composed"
    att = {"kind": a["attn"], "kv_layers": a["kv_layers"], "sliding_window": a["sliding_window"],
           "sliding_window_layers": a["sliding_window_layers"],
           "kv_lora_rank": a["kv_lora_rank"], "qk_rope_head_dim": a["qk_rope_head_dim"]}
    rec = {
        "id": a["id"], "name": a["name"], "aliases": [], "family": a["family"], "org": a["org"],
        "kind": a["kind"], "params_b": a["params_b"], "active_params_b": a["active_params_b"],
        "experts": a["experts"], "experts_per_token": a["experts_per_token"],
        "layers": a["layers"], "hidden_size": a["hidden_size"],
        "attention_heads": a["attention_heads"], "kv_heads": a["kv_heads"],
        "head_dim": a["head_dim"], "attention": att, "vocab_size": a["vocab_size"],
        "max_context": a["max_context"], "release_date": a["release_date"],
        "license": a["license"], "modality": a["modality"], "capabilities": [],
        "hf_repo": a["hf_repo"], "ollama_tag": a["ollama_tag"], "quality": None,
        "notes": "; ".join(notes), "source": src,
        "_elo": 0.0, "_coding_elo": 0.0, "_math_elo": 0.0,
    }
    return rec


# --------------------------------------------------------------------------------------------
# Derived fields
# --------------------------------------------------------------------------------------------
def capabilities(m):
    caps = set()
    ident = m["id"]
    if m["kind"] == "code" or _CODE_RE.search(ident):
        caps.add("code")
    if m["kind"] in ("reasoning", "hybrid-reasoning") or _REASON_RE.search(ident):
        caps.add("reasoning")
    if m["kind"] not in ("base", "embedding") and ident not in TOOLS_EXCLUDE_IDS and (
            m["family"] in TOOLS_FAMILIES or ident in TOOLS_IDS):
        caps.add("tools")
    if "image" in m["modality"]:
        caps.add("vision")
    if "audio" in m["modality"]:
        caps.add("audio")
    if m["family"] in MULTILINGUAL_FAMILIES or ident in MULTILINGUAL_IDS:
        caps.add("multilingual")
    if m["max_context"] >= 131072:
        caps.add("long-context")
    if "math" in ident:
        caps.add("math")
    if m["kind"] == "embedding":
        caps -= {"reasoning", "tools", "code"}
    return [c for c in _CAP_ORDER if c in caps]


def _year(date):
    parts = [int(p) for p in date.split("-")]
    if len(parts) == 1:
        return parts[0] + 0.5
    if len(parts) == 2:
        return parts[0] + (parts[1] - 1) / 12 + 0.5 / 12
    return parts[0] + (parts[1] - 1) / 12 + (parts[2] - 1) / 365


def _eff(m):
    p, a = m["params_b"], m["active_params_b"]
    return math.sqrt(p * a) if a < p else p


def _solve(a, b):
    """Gaussian elimination for a small dense system."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


HINGE_LOG2 = 3.0  # 8B effective parameters: both size curves flatten above it
# Uncertainty of an estimate moved along the family size curve, in elo: the leave-one-out
# error of the family method (printed by the script) for a relative released within
# SAME_RELEASE_MONTHS (~32 elo: one model line at several sizes) or further apart (~73 elo:
# successive versions differ that much), plus SIGMA_PER_DOUBLING per doubling moved. The
# per-doubling term is judgement, not a fit: the scored data hold too few long extrapolations
# (a 9B from a 355B flagship) to measure it, and such small siblings are often different
# products (vision, distilled, "flash") rather than points on one scaling curve.
SAME_RELEASE_MONTHS = 3.0
SIGMA_PER_DOUBLING = 10.0
# How far below the point estimate the shipped estimate sits, in standard errors of the
# blended estimate: an estimate is a conservative (lower) figure, so that an extrapolated model
# does not outrank a measured one of the same point value.
CONSERVATIVE_Z = 1.0


def _size_curve(x, k_small, k_large):
    """Piecewise-linear elo-vs-log2(size) curve: slope k_small below 8B, k_large above."""
    return k_small * min(x, HINGE_LOG2) + k_large * max(x - HINGE_LOG2, 0.0)


def _global_features(m, year):
    x = math.log2(_eff(m))
    return [1.0, min(x, HINGE_LOG2), max(x - HINGE_LOG2, 0.0), year - 2024]


def _fit_global(scored):
    """Least squares elo = a + b_small*min(x, 3) + b_large*max(x - 3, 0) + c*(year - 2024)."""
    years = [_year(m["release_date"]) for m in scored]
    rows = [_global_features(m, y) for m, y in zip(scored, years)]
    ys = [m["_elo"] for m in scored]
    n = len(rows[0])
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    aty = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(n)]
    return _solve(ata, aty), min(years), max(years)


def _global_elo(m, coef, year_min, year_max):
    yr = min(max(_year(m["release_date"]), year_min), year_max)
    return sum(c * f for c, f in zip(coef, _global_features(m, yr))), yr


def _fit_family_slopes(scored):
    # Pooled within-family (family fixed effects) least squares of elo on the two hinge
    # features min(x, 3) and max(x - 3, 0), x = log2(effective size).
    fam = {}
    for m in scored:
        fam.setdefault(m["family"], []).append(m)
    s11 = s12 = s22 = s1y = s2y = 0.0
    for ms in fam.values():
        if len(ms) < 2:
            continue
        f1 = [min(math.log2(_eff(m)), HINGE_LOG2) for m in ms]
        f2 = [max(math.log2(_eff(m)) - HINGE_LOG2, 0.0) for m in ms]
        ys = [m["_elo"] for m in ms]
        m1, m2, my = sum(f1) / len(ms), sum(f2) / len(ms), sum(ys) / len(ms)
        for a, b, y in zip(f1, f2, ys):
            a, b, y = a - m1, b - m2, y - my
            s11 += a * a
            s12 += a * b
            s22 += b * b
            s1y += a * y
            s2y += b * y
    return _solve([[s11, s12], [s12, s22]], [s1y, s2y])


def _nearest_scored_relatives(m, pool):
    """The scored models of m's family nearest in effective size (all of them if several are
    at the same size, e.g. successive versions of one checkpoint), or []."""
    x = math.log2(_eff(m))
    rel = [r for r in pool if r is not m and r["family"] == m["family"] and r["_elo"] > 0
           and r["kind"] != "embedding"]
    if not rel:
        return []
    dmin = min(abs(math.log2(_eff(r)) - x) for r in rel)
    return sorted((r for r in rel if abs(math.log2(_eff(r)) - x) - dmin < 1e-9),
                  key=lambda r: r["id"])


def _release_line(m, rel):
    """"same" if a relative was released within SAME_RELEASE_MONTHS of m, else "other"."""
    gap = min(abs(_year(r["release_date"]) - _year(m["release_date"])) for r in rel) * 12
    return "same" if gap <= SAME_RELEASE_MONTHS else "other"


def _rms(xs):
    return math.sqrt(sum(v * v for v in xs) / len(xs)) if xs else 0.0


def fit_quality_model(models):
    scored = [m for m in models if m["_elo"] > 0 and m["kind"] != "embedding"]
    k_small, k_large = _fit_family_slopes(scored)
    coef, year_min, year_max = _fit_global(scored)
    # Leave-one-out errors of both methods over the scored models: the standard errors that
    # weigh them against each other.
    fam_err = {"same": [], "other": []}
    glob_err = []
    for m in scored:
        rest = [r for r in scored if r is not m]
        c2, y0, y1 = _fit_global(rest)
        glob_err.append(_global_elo(m, c2, y0, y1)[0] - m["_elo"])
        rel = _nearest_scored_relatives(m, rest)
        if rel:
            ks, kl = _fit_family_slopes(rest)
            xr = math.log2(_eff(rel[0]))
            base = sum(r["_elo"] for r in rel) / len(rel)
            est = base + _size_curve(math.log2(_eff(m)), ks, kl) - _size_curve(xr, ks, kl)
            fam_err[_release_line(m, rel)].append(est - m["_elo"])
    # Typical LMArena coding and math offsets (category elo - text elo), per family and per
    # kind, over the models that have both.
    offsets = {}
    for cat in ("coding", "math"):
        by_family, by_kind = {}, {}
        for m in scored:
            if m[f"_{cat}_elo"] > 0:
                d = m[f"_{cat}_elo"] - m["_elo"]
                by_family.setdefault(m["family"], []).append(d)
                by_kind.setdefault(m["kind"], []).append(d)
        every = [d for ds in by_kind.values() for d in ds]
        offsets[cat] = {"family": {k: sum(v) / len(v) for k, v in by_family.items()},
                        "kind": {k: sum(v) / len(v) for k, v in by_kind.items()},
                        "all": sum(every) / len(every)}
    return {"k_small": k_small, "k_large": k_large, "coef": coef, "n": len(scored),
            "year_min": year_min, "year_max": year_max,
            "sigma_family": {k: _rms(v) for k, v in fam_err.items()},
            "n_family_loo": {k: len(v) for k, v in fam_err.items()},
            "sigma_global": _rms(glob_err), "offsets": offsets,
            "elo_max": max(m["_elo"] for m in scored)}


def estimate_elo(m, models, qm):
    """(elo, how) for a model without an LMArena text elo: see the module docstring."""
    x = math.log2(_eff(m))
    by_id = {r["id"]: r for r in models}
    like = by_id.get(m.get("_like", ""))
    if like is not None and like["_elo"] > 0:
        # A base or fine-tuned checkpoint of a scored model: that model's figures.
        return like["_elo"], (f"estimate: the LMArena elo of {like['id']} ({like['_elo']:.1f}), "
                              f"whose checkpoint this is; not a leaderboard figure")
    ks, kl = qm["k_small"], qm["k_large"]
    a, bs, bl, c = qm["coef"]
    glob, yr = _global_elo(m, qm["coef"], qm["year_min"], qm["year_max"])
    sg = qm["sigma_global"]
    parts = [f"size-and-date prior {a:.0f} + {bs:.1f}*min(log2 B, 3) + {bl:.1f}*max(log2 B - 3, "
             f"0) + {c:.1f}*(year - 2024) at {_eff(m):.3g}B effective, {yr:.2f} = {glob:.0f} "
             f"(+-{sg:.0f})"]
    rel = _nearest_scored_relatives(m, models)
    if rel:
        xr = math.log2(_eff(rel[0]))
        base = sum(r["_elo"] for r in rel) / len(rel)
        fam = base + _size_curve(x, ks, kl) - _size_curve(xr, ks, kl)
        line = _release_line(m, rel)
        sf = qm["sigma_family"][line] + SIGMA_PER_DOUBLING * abs(x - xr)
        w = sg * sg / (sg * sg + sf * sf)
        point = w * fam + (1 - w) * glob
        sigma = 1 / math.sqrt(1 / (sf * sf) + 1 / (sg * sg))
        who = (f"{rel[0]['id']} (elo {base:.1f}" if len(rel) == 1 else
               f"{', '.join(r['id'] for r in rel)} (mean elo {base:.1f}")
        parts.insert(0, f"nearest LMArena-scored relative {who}, {_eff(rel[0]):.3g}B effective) "
                        f"moved along the family size curve ({ks:.1f} elo per doubling below 8B, "
                        f"{kl:.1f} above) = {fam:.0f} (+-{sf:.0f}, "
                        f"{'same release' if line == 'same' else 'another release'})")
        how = f"{parts[0]}, weighted {w:.2f} against the {parts[1]}: {point:.0f}"
    else:
        point, sigma = glob, sg
        how = f"no scored relative; {parts[0]}"
    elo = point - CONSERVATIVE_Z * sigma
    how += f", minus {CONSERVATIVE_Z:g} standard error ({sigma:.0f}) = elo {elo:.0f}"
    bigger = [r for r in models if r["family"] == m["family"] and r["_elo"] > 0
              and r["kind"] != "embedding" and _eff(r) > _eff(m) * 1.05]
    if bigger:
        cap = min(bigger, key=lambda r: r["_elo"])
        if elo > cap["_elo"]:
            elo = cap["_elo"]
            how += f"; capped at the elo of the larger {cap['id']} ({elo:.1f})"
    if elo > qm["elo_max"]:
        elo = qm["elo_max"]
        how += f"; capped at the best LMArena elo in the data ({elo:.1f})"
    return elo, f"estimate: {how}; not a leaderboard figure"


def _category(m, cat, text_elo, text_estimated, models, qm):
    """(score, estimated, source) of LMArena category `cat` (coding / math)."""
    measured = m[f"_{cat}_elo"]
    by_id = {r["id"]: r for r in models}
    like = by_id.get(m.get("_like", ""))
    if measured > 0:
        return round(elo_to_score(measured), 2), False, f"LMArena {cat} elo {measured:.1f}"
    if like is not None and like[f"_{cat}_elo"] > 0:
        v = like[f"_{cat}_elo"]
        return (round(elo_to_score(v), 2), True,
                f"estimate: the LMArena {cat} elo of {like['id']} ({v:.1f})")
    off = qm["offsets"][cat]
    if m["family"] in off["family"]:
        d, whose = off["family"][m["family"]], f"the {m['family']} family's"
    elif m["kind"] in off["kind"]:
        d, whose = off["kind"][m["kind"]], f"{m['kind']} models'"
    else:
        d, whose = off["all"], "all scored models'"
    elo = text_elo + d
    text = "estimated text elo" if text_estimated else "text elo"
    return (round(elo_to_score(elo), 2), True,
            f"estimate: {text} {text_elo:.0f} {d:+.0f} ({whose} mean LMArena {cat} - text "
            f"offset) = {elo:.0f}")


def quality(m, models, qm):
    if m["kind"] == "embedding":
        return {"score": 0.0, "estimated": True, "coding": 0.0, "coding_estimated": True,
                "math": 0.0, "math_estimated": True,
                "source": "not rated: embedding model (no chat quality score)"}
    if m["_elo"] > 0:
        elo, estimated = m["_elo"], False
        src = f"LMArena text leaderboard 2025-12-11: elo {elo:.1f}"
    else:
        elo, src = estimate_elo(m, models, qm)
        estimated = True
    q = {"score": round(elo_to_score(elo), 2), "estimated": estimated}
    tails = []
    for cat in ("coding", "math"):
        score, est, how = _category(m, cat, elo, estimated, models, qm)
        q[cat] = score
        q[f"{cat}_estimated"] = est
        tails.append(f"{cat} {score:.1f}: {how}" if est or estimated else how)
    if not estimated and not q["coding_estimated"] and not q["math_estimated"]:
        src += f" (coding {m['_coding_elo']:.1f}, math {m['_math_elo']:.1f})"
    else:
        src += "; " + "; ".join(tails)
    q["source"] = src
    return q


_STRIP_WORDS = re.compile(r"\s+(Instruct|Chat|IT)\b")


def alias_candidates(m):
    c = []
    name = m["name"]
    if name.endswith(" (base)"):
        stem = name[: -len(" (base)")]
        c.append(f"{stem} base")
    else:
        no_paren = re.sub(r"\s*\(([^)]*)\)", "", name).strip()
        inline = re.sub(r"\s*\(([^)]*)\)", r" \1", name).strip()
        for n in dict.fromkeys([no_paren, inline]):
            c.append(n)
            stripped = _STRIP_WORDS.sub("", n).strip()
            if stripped:
                c.append(stripped)
        stripped_id = re.sub(r"-(instruct|chat|it|hf)(?=-|$)", "", m["id"])
        c.append(stripped_id)
    if m["ollama_tag"]:
        c.append(m["ollama_tag"])
    if m["hf_repo"]:
        c.append(m["hf_repo"].lower())
    return [x.lower() for x in c]


# --------------------------------------------------------------------------------------------
def build_models(csv_path, llmfit_path):
    """Returns (records, alias candidates per record, dropped rows, fitted quality model,
    problems)."""
    llmfit = Llmfit(llmfit_path)
    rows = list(csv.DictReader(open(csv_path, newline="", encoding="utf-8")))
    recs, dropped, problems = [], [], []
    for row in rows:
        why = _incomplete(row)
        if why:
            dropped.append((row["id"], why))
            continue
        rec = _csv_record(row)
        v, repo = llmfit.vocab_for(rec, row["arch_source"])
        if v:
            rec["vocab_size"] = v
            rec["notes"] += f"; vocab_size from llmfit entry {repo}"
        elif rec["id"] in KNOWN_VOCAB:
            rec["vocab_size"] = KNOWN_VOCAB[rec["id"]]
            rec["notes"] += "; vocab_size from the model's config.json (known value)"
        recs.append(rec)
    by_id = {r["id"]: r for r in recs}
    for a in ADDITIONS:
        rec = _addition_record(a, by_id, llmfit, problems)
        recs.append(rec)
        by_id[rec["id"]] = rec
    qm = fit_quality_model(recs)
    for m in recs:
        m["capabilities"] = capabilities(m)
        m["quality"] = quality(m, recs, qm)
        m["gguf_repo"] = llmfit.gguf_repo_for(m)
        m.update(llmfit.quantized_repos_for(m))
        quant, why = RELEASE_QUANT.get(m["id"], ("", ""))
        m["release_quant"] = quant
        if why:
            m["notes"] += f"; release_quant {quant}: {why}"
    unknown = set(RELEASE_QUANT) - {m["id"] for m in recs}
    if unknown:
        problems.append(f"RELEASE_QUANT names models not in the catalog: {sorted(unknown)}")
    cands = [alias_candidates(m) for m in recs]
    return recs, cands, dropped, qm, problems

