#!/usr/bin/env python3
"""Drafts docs/schemas/<report>.schema.json from real output of `fitrank <report> --json`.

Usage: tools/report_schemas.py FITRANK_BINARY [REPORT ...]

Runs each report over a panel of setups, merges what it sees (a key present in every object
is required; integers and decimals merge to "number"; null joins the types of a key that was
null somewhere) and writes a JSON Schema (draft 2020-12, the subset tests/cli/
json_schema_test.cc checks: type, properties, required, additionalProperties, items).
Descriptions already written in an existing schema file are kept. Review the diff: a key that
is null or empty in every sample run needs its type written by hand.
"""
import json
import os
import subprocess
import sys

PANEL = [["--gpu", "geforce-rtx-4060"], ["--gpu", "geforce-rtx-4090"],
         ["--gpu", "geforce-rtx-4090", "--gpu", "geforce-rtx-3090"],
         ["--gpu", "apple-m4-max-40-core-gpu-64gb"], ["--gpu", "nvidia-h100-sxm5-80gb"],
         ["--gpu", "instinct-mi325x"], ["--gpu", "instinct-mi325x", "--gpus", "2"]]

RUNS = {
    "recommend": [["recommend", "--workload", "all"] + p for p in PANEL] +
                 [["recommend", "--gpu", "mi325x", "--mode", "scale-out"]],
    "gpu": [["gpu"] + p for p in PANEL],
    "fit": [["fit", m] + p for m in ["llama-3.3-70b-instruct", "llama 3.1 405b", "qwen3 8b"]
            for p in PANEL],
    "upgrade": [["upgrade", "--workload", w] + p for w in ["coding", "chat"] for p in PANEL] +
               [["upgrade", "--gpu", "4060", "--budget", "2000"]],
    "compare": [["compare", "instinct-mi325x", "nvidia-h200-sxm-141gb"],
                ["compare", "geforce-rtx-4090", "geforce-rtx-3090", "geforce-rtx-5090"],
                ["compare", "geforce-rtx-4060", "apple-m4-max-40-core-gpu-64gb",
                 "amd-ryzen-ai-maxplus-395-radeon-8060s-128gb"]],
    "estimate": [["estimate", "--model", m, "--quant", q] + p
                 for m, q in [("llama-3.3-70b-instruct", "Q4_K_M"), ("qwen3 8b", "Q8_0"),
                              ("llama 3.1 405b", "Q2_K")]
                 for p in PANEL] +
                [["estimate", "--model", "llama-3.3-70b-instruct", "--gpu", "mi325x", "--gpus", "8",
                  "--runtime", "vllm", "--quant", "FP8", "--batch", "4000"]],
}


def type_of(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def merge(schema, v):
    """Folds value `v` into `schema` (a dict being built)."""
    t = type_of(v)
    types = set(schema.get("_types", set()))
    types.add(t)
    if "integer" in types and "number" in types:
        types.discard("integer")
    schema["_types"] = types
    if t == "object":
        props = schema.setdefault("_props", {})
        seen = schema.setdefault("_seen", None)
        keys = list(v.keys())
        schema["_seen"] = set(keys) if seen is None else seen & set(keys)
        for k in keys:
            merge(props.setdefault(k, {}), v[k])
    elif t == "array":
        items = schema.setdefault("_items", {})
        for x in v:
            merge(items, x)
    return schema


def finish(s, old, key=""):
    out = {}
    if old and "description" in old:
        out["description"] = old["description"]
    types = set(s.get("_types", set()))
    # Numbers go through JNum (cli/render_json.h): whole values print as integers and a value
    # that is not finite as null, so every number may be either. schema_version stays integer.
    if key != "schema_version" and types & {"integer", "number"}:
        types -= {"integer"}
        types |= {"number", "null"}
    types = sorted(types, key=lambda t: (t == "null", t))
    out["type"] = types[0] if len(types) == 1 else types
    if "_props" in s:
        old_props = (old or {}).get("properties", {})
        out["properties"] = {k: finish(v, old_props.get(k), k) for k, v in s["_props"].items()}
        out["required"] = [k for k in s["_props"] if k in s["_seen"]]
        out["additionalProperties"] = False
    if "array" in types:
        if s.get("_items"):
            out["items"] = finish(s["_items"], (old or {}).get("items"))
        elif (old or {}).get("items"):
            out["items"] = old["items"]  # empty in every sample: keep what was written
    return out


def main():
    binary = sys.argv[1]
    reports = sys.argv[2:] or list(RUNS)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for report in reports:
        acc = {}
        for args in RUNS[report]:
            r = subprocess.run([binary] + args + ["--json"], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{' '.join(args)}: exit {r.returncode}: {r.stderr}")
            merge(acc, json.loads(r.stdout))
        path = os.path.join(root, "docs", "schemas", f"{report}.schema.json")
        old = json.load(open(path)) if os.path.exists(path) else {}
        body = finish(acc, old)
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                  "title": old.get("title", f"fitrank {report} --json"),
                  "description": old.get("description", ""),
                  **{k: v for k, v in body.items() if k != "description"}}
        with open(path, "w") as f:
            json.dump(schema, f, indent=2)
            f.write("\n")
        print(path)


if __name__ == "__main__":
    main()
