"""LLMs: llm_models.csv rows plus tools/catalog_model_additions.py, converted to the Model records
of catalog/types.h, with derived capabilities and a 0-100 quality score.

Quality score (one formula for every LMArena-scored model):
    score = clamp((elo - 975) / 5, 0, 100)
on the LMArena text leaderboard of 2025-12-11 (llm_models.csv `lmarena_elo`). It puts the best
open models of late 2025 (elo ~1420-1440) at ~89-93 and the 2023 chat models (Llama 2 7B Chat
1055, Vicuna 13B 1060, Mixtral 8x7B 1133) at ~16-32.

Models without an elo get an ESTIMATED elo (quality.estimated = true), then the same formula:
  1. Same-family relative: a base or fine-tuned checkpoint of a scored catalog model takes that
     model; otherwise take the LMArena-scored model(s) of the same `family` whose effective
     size is nearest (several at the same size are averaged) (effective size = total params for dense models, sqrt(total x active) for
     MoE), and move its elo along a size curve: K_small elo per doubling of effective size
     below 16B and K_large above, the two slopes fitted by least squares on all scored families
     with family fixed effects (printed by the script and written into each source text).
  2. No scored relative: elo = a + b*log2(effective size) + c*(release year - 2024), an
     ordinary least-squares fit over every scored catalog model, the year clamped to the range
     of the scored models' release dates (no extrapolation into the future).
  Estimates never exceed the best LMArena elo in the data.
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
        "quality.estimated = true: elo estimated from the nearest LMArena-scored model of the "
        "same family, moved along a within-family size curve (elo per doubling of effective "
        "size, one slope below and one above 16B, fitted by least squares with family fixed "
        "effects; effective size = total params, or sqrt(total x active) for MoE), else from a "
        "least-squares fit elo = a + b*log2(size) + c*(year - 2024) over all scored models "
        "(year clamped to their range), capped at the best scored elo; then the same score "
        "formula. Not a leaderboard figure."),
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


HINGE_LOG2 = 4.0  # 16B effective parameters: the size curve flattens above it


def _size_curve(x, k_small, k_large):
    """Piecewise-linear elo-vs-log2(size) curve: slope k_small below 16B, k_large above."""
    return k_small * min(x, HINGE_LOG2) + k_large * max(x - HINGE_LOG2, 0.0)


def fit_quality_model(models):
    scored = [m for m in models if m["_elo"] > 0 and m["kind"] != "embedding"]
    # Pooled within-family (family fixed effects) least squares of elo on the two hinge
    # features min(x, 4) and max(x - 4, 0), x = log2(effective size).
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
    k_small, k_large = _solve([[s11, s12], [s12, s22]], [s1y, s2y])
    # Global fit elo = a + b*log2(size) + c*(year - 2024), year clamped to the scored range.
    years = [_year(m["release_date"]) for m in scored]
    rows = [[1.0, math.log2(_eff(m)), y - 2024] for m, y in zip(scored, years)]
    ys = [m["_elo"] for m in scored]
    ata = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    aty = [sum(r[i] * y for r, y in zip(rows, ys)) for i in range(3)]
    coef = _solve(ata, aty)
    return {"k_small": k_small, "k_large": k_large, "coef": coef, "n": len(scored),
            "year_min": min(years), "year_max": max(years),
            "elo_max": max(m["_elo"] for m in scored)}


def quality(m, models, qm):
    if m["kind"] == "embedding":
        return {"score": 0.0, "estimated": True,
                "source": "not rated: embedding model (no chat quality score)"}
    if m["_elo"] > 0:
        extra = []
        if m["_coding_elo"]:
            extra.append(f"coding {m['_coding_elo']:.1f}")
        if m["_math_elo"]:
            extra.append(f"math {m['_math_elo']:.1f}")
        tail = f" ({', '.join(extra)})" if extra else ""
        return {"score": round(elo_to_score(m["_elo"]), 2), "estimated": False,
                "source": f"LMArena text leaderboard 2025-12-11: elo {m['_elo']:.1f}{tail}"}
    x = math.log2(_eff(m))
    by_id = {r["id"]: r for r in models}
    like = by_id.get(m.get("_like", ""))
    if like is not None and like["_elo"] > 0:
        rel = [like]  # a base/fine-tuned checkpoint of a scored model: that model
    else:
        rel = [r for r in models if r["family"] == m["family"] and r["_elo"] > 0
               and r["kind"] != "embedding"]
        if rel:
            # The scored relatives nearest in effective size (all of them if several are at the
            # same size, e.g. successive versions of one checkpoint).
            dmin = min(abs(math.log2(_eff(r)) - x) for r in rel)
            rel = sorted((r for r in rel if abs(math.log2(_eff(r)) - x) - dmin < 1e-9),
                         key=lambda r: r["id"])
    ks, kl = qm["k_small"], qm["k_large"]
    if rel:
        xr = math.log2(_eff(rel[0]))
        base = sum(r["_elo"] for r in rel) / len(rel)
        elo = base + _size_curve(x, ks, kl) - _size_curve(xr, ks, kl)
        who = (f"{rel[0]['id']} (elo {base:.1f}" if len(rel) == 1 else
               f"{', '.join(r['id'] for r in rel)} (mean elo {base:.1f}")
        src = (f"estimate: nearest LMArena-scored relative {who}, {_eff(rel[0]):.3g}B effective)"
               f" moved to {_eff(m):.3g}B along the within-family size curve ({ks:.1f} elo per "
               f"doubling below 16B, {kl:.1f} above) = elo {elo:.0f}; not a leaderboard figure")
    else:
        a, b, c = qm["coef"]
        yr = min(max(_year(m["release_date"]), qm["year_min"]), qm["year_max"])
        elo = a + b * x + c * (yr - 2024)
        src = (f"estimate: no scored relative; elo = {a:.0f} + {b:.1f}*log2({_eff(m):.3g}B) + "
               f"{c:.1f}*({yr:.2f} - 2024) = {elo:.0f} (least squares over {qm['n']} "
               f"LMArena-scored catalog models; year clamped to their range); not a leaderboard "
               f"figure")
    if elo > qm["elo_max"]:
        elo = qm["elo_max"]
        src += f"; capped at the best LMArena elo in the data ({elo:.1f})"
    return {"score": round(elo_to_score(elo), 2), "estimated": True, "source": src}


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
    cands = [alias_candidates(m) for m in recs]
    return recs, cands, dropped, qm, problems

