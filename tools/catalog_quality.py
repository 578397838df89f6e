"""Per-workload quality: one figure per catalog model and workload (chat, coding, agentic, rag,
reasoning) on a common 0-100 scale, with its source, plus a long-context figure (RULER at 32K,
64K, 128K and the effective context), from shared/data/sources/quality_scores.tsv and the
LMArena columns of llm_models.csv. QUALITY.md (catalog/) documents the method and the numbers
this module printed; convert_catalog.py writes them into models.yaml.

Method (deterministic, standard library only):
  1. Rows. Every (model, benchmark string) keeps one score (the best, as the boards do). Rows
     whose source says CAUTION (Open LLM Leaderboard rows of reasoning models or without a chat
     template) are dropped. Self-reported rows (vendor cards, a competing vendor's report, a
     curation of vendor figures) weigh SELF_REPORTED_WEIGHT, independent leaderboards 1. The
     LMArena text / coding / math elos of llm_models.csv (2025-12-11) join as chat / coding /
     reasoning strings; the coding and math categories weigh LMARENA_CATEGORY_WEIGHT (a chat
     Elo on coding prompts is a weak proxy for coding).
  2. Common scale. Per workload, a latent quality z per model and a linear map per benchmark
     string (score = a_s + b_s z, residual sd sigma_s) fitted by alternating weighted least
     squares over the models each string shares with the others, with a N(0, 1) prior on z
     (a model seen by one string is pulled towards the mean in proportion to that string's
     noise). Strings with fewer than MIN_MODELS_PER_STRING models are not used. Scores are never
     compared across strings: each string only enters through its own map.
  3. 0-100. z is put on the scale of the familiar overall score (LMArena text, (elo-975)/5) by
     matching mean and sd over the models measured on both, so 90 is a late-2025 flagship in
     every workload and 30 a 2023 7B chat model.
  4. Estimates, for a (model, workload) with no usable row: the inverse-variance blend of
     (X) the model's measured figures in other workloads (including `general`), each mapped by a
     least-squares line fitted over models measured in both; (F) the nearest measured relative
     of the same family (else of the same maker, released up to PREDECESSOR_YEARS earlier)
     moved along a within-family size curve (slopes per doubling below and above 8B, fitted
     with family fixed effects); (P) the same size curve plus an intercept and a release-year
     slope fitted over the workload's measured models (year clamped to their range). A base or fine-tuned checkpoint of a measured model
     takes that model's figure. The estimate's uncertainty is the leave-one-out RMS error of
     the same estimator (LOO below) for its situation (with or without figures in other
     workloads). Figures are never lowered here. A measured figure's uncertainty is its
     posterior standard error on the 0-100 scale (b / sqrt(precision) of step 2: few, noisy or
     self-reported rows give a wide one).
  5. Leave-one-out: for every catalog model with a measured figure, the estimator is rerun with
     that model removed from every fit it uses (prior, family slopes, relatives, cross-workload
     lines), (a) hiding all its scores, (b) hiding only this workload's; the benchmark maps stay
     as fitted (they use hundreds of rows; one model moves them little).
  6. Long context: RULER 32K/64K/128K measured where the TSV has them (independent or author-
     reported), else a_s + b_s z_rag from the RULER string's map (the model's measured or
     estimated rag latent), 0 beyond the model's max_context. Effective context: the longest of
     32K/64K/128K whose RULER score is at least RULER_EFFECTIVE_PCT (RULER's own threshold: the
     Llama-2-7B score at 4K), within max_context; SHORT_EFFECTIVE_TOKENS when even 32K falls
     below it (lengths under 32K are not in the data: an assumption, marked estimated).
  7. RAG: the rag figure is RAG_CHAT_WEIGHT x the chat figure + the rest x the long-document
     latent of step 2 (RULER, LongBench, ...): answering from documents needs both. The LOO
     table's rag rows are the long-document latent's. Its uncertainty combines both parts'
     (standard errors or LOO RMS) in quadrature.
  8. Ranking under uncertainty: the rules rank every figure, measured or estimated, at its
     score minus quality_ranking_z (profiles/grades.yaml) of its uncertainty, once, in
     quant.workload_quality: thin evidence (one self-report, one LMArena category, an
     estimate) ranks below a well-measured figure of the same score.
"""

import csv
import math

WORKLOADS = ("chat", "coding", "agentic", "rag", "reasoning")
LATENTS = WORKLOADS + ("general",)
SELF_REPORTED_WEIGHT = 0.4
LMARENA_CATEGORY_WEIGHT = 0.5
MIN_MODELS_PER_STRING = 4
PRIOR_PRECISION = 1.0
# The least noise a string is credited with, in latent sd: a string shared by few models can fit
# them almost exactly, which says nothing about its noise.
NOISE_FLOOR_Z = 0.3
ITERATIONS = 60
RULER_EFFECTIVE_PCT = 85.6
SHORT_EFFECTIVE_TOKENS = 16384
PREDECESSOR_YEARS = 1.5
PREDECESSOR_EXTRA_SIGMA = 4.0  # score points added to the family method's spread (judgement)
RAG_CHAT_WEIGHT = 0.5     # rag figure = this x chat + the rest x the long-document latent
RULER_LENGTHS = ((32768, "RULER 32K"), (65536, "RULER 64K"), (131072, "RULER 128K"))
HINGE_LOG2 = 3.0
SIGMA_PER_DOUBLING = 2.0  # score points per doubling moved from the relative (judgement)

# TSV spellings that the catalog knows under another name (the rest match id, name, hf repo).
TSV_TO_CATALOG = {
    "Command-R-Plus": "c4ai-command-r-plus",
    "Command-R-Plus-08-2024": "c4ai-command-r-plus-08-2024",
    "MiniMax-M1": "minimax-m1-80k",
    "Hermes-3-Llama-3.1-405B": None,
    "Command-A-03-2025": "c4ai-command-a-03-2025",
    "Command-R-08-2024": "c4ai-command-r-08-2024",
    "Command-R-v01": "c4ai-command-r-v01",
}

LMARENA_STRINGS = {
    "_elo": ("chat", "LMArena text Elo (2025-12-11, llm_models.csv)", 1.0),
    "_coding_elo": ("coding", "LMArena coding category Elo (2025-12-11, llm_models.csv)",
                    LMARENA_CATEGORY_WEIGHT),
    "_math_elo": ("reasoning", "LMArena math category Elo (2025-12-11, llm_models.csv)",
                  LMARENA_CATEGORY_WEIGHT),
}


def _norm(s):
    return "".join(c for c in s.lower() if c.isalnum() or c == ".")


def _year(date):
    parts = [int(p) for p in date.split("-")]
    if len(parts) == 1:
        return parts[0] + 0.5
    if len(parts) == 2:
        return parts[0] + (parts[1] - 1) / 12
    return parts[0] + (parts[1] - 1) / 12 + (parts[2] - 1) / 365


def _eff(p, a):
    return math.sqrt(p * a) if 0 < a < p else p


def _self_reported(row):
    s = (row["benchmark"] + " " + row["source"]).lower()
    return ("self-reported" in s or "competing vendor" in s or "meta eval" in s
            or "qwen eval" in s or "curation of a vendor" in s)


def _solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def _line(xs, ys):
    """Least squares y = a + b x; returns (a, b, residual rms with n-2 dof)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
    a = my - b * mx
    rss = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    return a, b, math.sqrt(rss / max(n - 2, 1))


def _rms(xs):
    return math.sqrt(sum(v * v for v in xs) / len(xs)) if xs else 0.0


# --------------------------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------------------------
def load_rows(tsv_path, models):
    """(rows, unmatched TSV names). A row: {key, workload, bench, score, weight, source, date}.
    key is the catalog id, or "ext:<TSV name>" for models outside the catalog (they still
    calibrate the benchmark maps); ext_params gives their sizes."""
    index = {}
    for m in models:
        for k in [m["id"], m["name"], m["hf_repo"].split("/")[-1] if m["hf_repo"] else ""]:
            if k:
                index.setdefault(_norm(k), m["id"])
    raw = list(csv.DictReader(open(tsv_path, newline="", encoding="utf-8"), delimiter="\t"))
    best, unmatched, ext = {}, set(), {}
    for r in raw:
        if "CAUTION" in r["source"]:
            continue
        name = r["model"]
        if name in TSV_TO_CATALOG:
            key = TSV_TO_CATALOG[name] or f"ext:{name}"
        else:
            key = index.get(_norm(name)) or f"ext:{name}"
        if key.startswith("ext:"):
            unmatched.add(name)
            ext[key] = (float(r["params_b"] or 0), float(r["active_params_b"] or 0))
        w = SELF_REPORTED_WEIGHT if _self_reported(r) else 1.0
        row = {"key": key, "workload": r["workload"], "bench": r["benchmark"],
               "score": float(r["score"]), "weight": w, "date": r["date"],
               "independent": w == 1.0}
        k = (key, r["benchmark"])
        if k not in best or row["score"] > best[k]["score"]:
            best[k] = row
    for m in models:
        for col, (wl, bench, w) in LMARENA_STRINGS.items():
            if m.get(col, 0) > 0:
                best[(m["id"], bench)] = {"key": m["id"], "workload": wl, "bench": bench,
                                          "score": m[col], "weight": w, "date": "2025-12-11",
                                          "independent": True}
    rows = sorted(best.values(), key=lambda r: (r["workload"], r["bench"], r["key"]))
    return rows, sorted(unmatched), ext


# --------------------------------------------------------------------------------------------
# Common scale: latent z per model, linear map per benchmark string
# --------------------------------------------------------------------------------------------
def fit_latent(rows):
    """Alternating weighted least squares. Returns {z, precision, maps, strings_dropped}."""
    by_bench = {}
    for r in rows:
        by_bench.setdefault(r["bench"], []).append(r)
    used = {b: rs for b, rs in by_bench.items() if len(rs) >= MIN_MODELS_PER_STRING}
    dropped = sorted(b for b in by_bench if b not in used)
    if not used:
        return {"z": {}, "precision": {}, "maps": {}, "dropped": dropped}
    z = {}
    acc = {}
    for b, rs in used.items():  # start: mean within-string z-score
        ys = [r["score"] for r in rs]
        mu = sum(ys) / len(ys)
        sd = math.sqrt(sum((y - mu) ** 2 for y in ys) / len(ys)) or 1.0
        for r in rs:
            acc.setdefault(r["key"], []).append((r["score"] - mu) / sd)
    z = {k: sum(v) / len(v) for k, v in acc.items()}
    maps = {}
    for _ in range(ITERATIONS):
        mu = sum(z.values()) / len(z)
        sd = math.sqrt(sum((v - mu) ** 2 for v in z.values()) / len(z)) or 1.0
        z = {k: (v - mu) / sd for k, v in z.items()}
        for b, rs in used.items():
            a, s, e = _line([z[r["key"]] for r in rs], [r["score"] for r in rs])
            if s <= 0:  # a string that does not order the models it shares: no information
                s = 1e-6
            maps[b] = (a, s, max(e, NOISE_FLOOR_Z * s))
        num, den = {}, {}
        for b, rs in used.items():
            a, s, e = maps[b]
            for r in rs:
                num[r["key"]] = num.get(r["key"], 0.0) + r["weight"] * s * (r["score"] - a) / e**2
                den[r["key"]] = den.get(r["key"], 0.0) + r["weight"] * s * s / e**2
        z = {k: num[k] / (den[k] + PRIOR_PRECISION) for k in num}
    precision = {k: den[k] + PRIOR_PRECISION for k in den}
    benches = {}
    for b, rs in used.items():
        for r in rs:
            benches.setdefault(r["key"], []).append(r)
    return {"z": z, "precision": precision, "maps": maps, "dropped": dropped,
            "rows_by_key": benches, "n_rows": {b: len(rs) for b, rs in used.items()}}


def to_score_scale(fit, models):
    """Linear map z -> 0-100 matching mean and sd of the overall LMArena score over the models
    measured on both (all fitted models if fewer than 5 overlap)."""
    overall = {m["id"]: (m["_elo"] - 975) / 5 for m in models if m.get("_elo", 0) > 0}
    both = [k for k in fit["z"] if k in overall]
    if len(both) < 5:
        return 60.0, 15.0, len(both)
    zs = [fit["z"][k] for k in both]
    ss = [overall[k] for k in both]
    mz, ms = sum(zs) / len(zs), sum(ss) / len(ss)
    sz = math.sqrt(sum((v - mz) ** 2 for v in zs) / len(zs))
    s_s = math.sqrt(sum((v - ms) ** 2 for v in ss) / len(ss))
    slope = s_s / sz
    return ms - slope * mz, slope, len(both)


# --------------------------------------------------------------------------------------------
# Estimates
# --------------------------------------------------------------------------------------------
class Estimator:
    """Estimates a catalog model's figure in a workload from `measured` ({workload: {id:
    score}}) without using `exclude` (a model id) anywhere."""

    def __init__(self, models, measured, exclude=None):
        self.models = models
        self.by_id = {m["id"]: m for m in models}
        self.measured = {w: {k: v for k, v in d.items() if k != exclude}
                         for w, d in measured.items()}
        self.own = measured  # the estimated model's own figures in other workloads
        self.exclude = exclude
        self._lines = {}
        self._prior = {}
        self._slopes = {}

    def _x(self, m):
        return math.log2(max(_eff(m["params_b"], m["active_params_b"]), 0.01))

    def cross_line(self, w, v):
        if (w, v) not in self._lines:
            both = [k for k in self.measured[w] if k in self.measured[v]]
            self._lines[(w, v)] = (_line([self.measured[v][k] for k in both],
                                         [self.measured[w][k] for k in both]) + (len(both),)
                                   if len(both) >= 6 else None)
        return self._lines[(w, v)]

    def prior(self, w):
        """The size curve of w's families (within-family slopes, slopes()) plus an intercept and
        a release-year slope fitted by least squares over w's measured models, the year clamped
        to their range. Size slopes come from within families because across families size and
        date are confounded (the recent measured models are mostly large flagships). Returns
        (intercept, year slope, year range, rms)."""
        if w not in self._prior:
            ks, kl = self.slopes(w)
            ms = [self.by_id[k] for k in self.measured[w] if k in self.by_id]
            xs = [_year(m["release_date"]) - 2024 for m in ms]
            ys = [self.measured[w][m["id"]] - self._curve(self._x(m), ks, kl) for m in ms]
            a, c, e = _line(xs, ys)
            years = [_year(m["release_date"]) for m in ms]
            self._prior[w] = (a, c, min(years), max(years), e)
        return self._prior[w]

    @staticmethod
    def _curve(x, ks, kl):
        return ks * min(x, HINGE_LOG2) + kl * max(x - HINGE_LOG2, 0.0)

    def slopes(self, w):
        if w not in self._slopes:
            fam = {}
            for k in self.measured[w]:
                if k in self.by_id:
                    fam.setdefault(self.by_id[k]["family"], []).append(self.by_id[k])
            s11 = s12 = s22 = s1y = s2y = 0.0
            for ms in fam.values():
                if len(ms) < 2:
                    continue
                f1 = [min(self._x(m), HINGE_LOG2) for m in ms]
                f2 = [max(self._x(m) - HINGE_LOG2, 0.0) for m in ms]
                ys = [self.measured[w][m["id"]] for m in ms]
                m1, m2, my = sum(f1) / len(ms), sum(f2) / len(ms), sum(ys) / len(ms)
                for a, b, y in zip(f1, f2, ys):
                    a, b, y = a - m1, b - m2, y - my
                    s11 += a * a
                    s12 += a * b
                    s22 += b * b
                    s1y += a * y
                    s2y += b * y
            self._slopes[w] = _solve([[s11 + 1e-6, s12], [s12, s22 + 1e-6]], [s1y, s2y])
        return self._slopes[w]

    def estimate(self, m, w, hide_all):
        """(point, parts) where parts lists (method text, value, sigma) of each method used.
        hide_all: the model's figures in other workloads are not used either."""
        parts = []
        if not hide_all:
            for v in LATENTS:
                if v == w or m["id"] not in self.own.get(v, {}):
                    continue
                ln = self.cross_line(w, v)
                if ln is None:
                    continue
                a, b, e, n = ln
                val = a + b * self.own[v][m["id"]]
                parts.append((f"its {v} figure {self.own[v][m['id']]:.1f} mapped by "
                              f"{a:.1f} + {b:.2f}x (n={n})", val, e))
        rel = [self.by_id[k] for k in self.measured[w] if k in self.by_id
               and k != m["id"] and self.by_id[k]["family"] == m["family"]]
        x = self._x(m)
        extra, who = 0.0, "relative"
        if not rel:
            # No measured model of its family: the previous generation of the same maker
            # (released up to PREDECESSOR_YEARS before it), with a wider uncertainty.
            y = _year(m["release_date"])
            rel = [self.by_id[k] for k in self.measured[w] if k in self.by_id and k != m["id"]
                   and self.by_id[k]["org"] == m["org"]
                   and 0 <= y - _year(self.by_id[k]["release_date"]) <= PREDECESSOR_YEARS]
            extra, who = PREDECESSOR_EXTRA_SIGMA, "same-maker predecessor"
        if rel:
            dmin = min(abs(self._x(r) - x) for r in rel)
            near = sorted((r for r in rel if abs(self._x(r) - x) - dmin < 1e-9),
                          key=lambda r: r["id"])
            ks, kl = self.slopes(w)
            xr = self._x(near[0])
            curve = lambda t: ks * min(t, HINGE_LOG2) + kl * max(t - HINGE_LOG2, 0.0)
            base = sum(self.measured[w][r["id"]] for r in near) / len(near)
            val = base + curve(x) - curve(xr)
            sigma = self._family_sigma(w) + extra + SIGMA_PER_DOUBLING * abs(x - xr)
            parts.append((f"{who} {near[0]['id']} ({base:.1f}) moved along the family size "
                          f"curve ({ks:.1f}/{kl:.1f} per doubling below/above 8B)", val, sigma))
        a, c, y0, y1, sg = self.prior(w)
        ks, kl = self.slopes(w)
        yr = min(max(_year(m["release_date"]), y0), y1)
        val = a + self._curve(x, ks, kl) + c * (yr - 2024)
        parts.append((f"size-and-date prior {a:.1f} + size curve + {c:.1f}*(year - 2024) at "
                      f"{2 ** x:.3g}B, {yr:.2f}", val, sg))
        wsum = sum(1 / (p[2] ** 2) for p in parts)
        point = sum(p[1] / (p[2] ** 2) for p in parts) / wsum
        # Never above a larger measured relative of the same family.
        bigger = [self.measured[w][r["id"]] for r in rel if r["family"] == m["family"]
                  and _eff(r["params_b"], r["active_params_b"]) >
                  1.05 * _eff(m["params_b"], m["active_params_b"])]
        capped = None
        if bigger and point > min(bigger):
            point, capped = min(bigger), True
        top = max(self.measured[w].values())
        if point > top:  # no extrapolation above the best measured model
            point, capped = top, True
        return max(0.0, min(100.0, point)), parts, capped

    def _family_sigma(self, w):
        # A rough spread of relatives within a family; the LOO error of the whole estimator
        # is what the catalog reports as the uncertainty.
        return 6.0


# --------------------------------------------------------------------------------------------
# The whole pass
# --------------------------------------------------------------------------------------------
def build(models, tsv_path):
    """Fills m["workload_quality"] and m["long_context"] for every model; returns the report
    (numbers QUALITY.md quotes)."""
    rows, unmatched, ext = load_rows(tsv_path, models)
    fits, scales, measured = {}, {}, {}
    for w in LATENTS:
        fit = fit_latent([r for r in rows if r["workload"] == w])
        fits[w] = fit
        c0, c1, n_overlap = to_score_scale(fit, models)
        scales[w] = (c0, c1, n_overlap)
        measured[w] = {k: max(0.0, min(100.0, c0 + c1 * z)) for k, z in fit["z"].items()
                       if not k.startswith("ext:")}
    by_id = {m["id"]: m for m in models}
    chatty = [m for m in models if m["kind"] != "embedding"]

    # Leave-one-out validation of the estimator.
    loo = {}
    for w in WORKLOADS:
        for situation, hide_all in (("no scores", True), ("other workloads", False)):
            errs = []
            for k in sorted(measured[w]):
                m = by_id[k]
                if m["kind"] == "embedding":
                    continue
                if not hide_all and not any(k in measured[v] for v in LATENTS if v != w):
                    continue
                est = Estimator(models, measured, exclude=k)
                point, _, _ = est.estimate(m, w, hide_all)
                errs.append(point - measured[w][k])
            loo[(w, situation)] = {
                "n": len(errs), "rms": _rms(errs),
                "mae": sum(abs(e) for e in errs) / len(errs) if errs else 0.0,
                "bias": sum(errs) / len(errs) if errs else 0.0}

    est = Estimator(models, measured)
    for m in models:
        wq = {}
        for w in WORKLOADS:
            wq[w] = _figure(m, w, fits[w], scales[w], measured, est, loo, by_id)
        m["long_context"] = _long_context(m, fits["rag"], scales["rag"], wq["rag"])
        wq["rag"] = _rag_figure(wq["chat"], wq["rag"])
        m["workload_quality"] = wq
    return {"rows": len(rows), "unmatched": unmatched, "fits": fits, "scales": scales,
            "loo": loo, "measured": {w: len(measured[w]) for w in LATENTS},
            "estimated": {w: sum(1 for m in chatty if m["workload_quality"][w]["estimated"])
                          for w in WORKLOADS}}


def _measured_source(key, fit):
    rs = fit["rows_by_key"].get(key, [])
    ind = sorted({r["bench"] for r in rs if r["independent"]})
    self_rep = sorted({r["bench"] for r in rs if not r["independent"]})
    if not ind:
        return "self-reported only: " + "; ".join(self_rep)
    text = "; ".join(ind)
    if self_rep:
        text += "; self-reported: " + "; ".join(self_rep)
    return text


def _figure(m, w, fit, scale, measured, est, loo, by_id):
    c0, c1, _ = scale
    if m["kind"] == "embedding":
        return {"score": 0.0, "estimated": True, "uncertainty": 0.0,
                "source": "not rated: embedding model"}
    if m["id"] in measured[w]:
        se = c1 / math.sqrt(fit["precision"][m["id"]])
        return {"score": round(measured[w][m["id"]], 2), "estimated": False,
                "uncertainty": round(se, 2),
                "source": f"measured: {_measured_source(m['id'], fit)}"}
    like = by_id.get(m.get("_like", ""))
    if like is not None and like["id"] in measured[w]:
        return {"score": round(measured[w][like["id"]], 2), "estimated": True,
                "uncertainty": round(loo[(w, "other workloads")]["rms"], 2),
                "source": f"estimate: the measured figure of {like['id']}, whose checkpoint "
                          f"this is"}
    has_other = any(m["id"] in measured[v] for v in LATENTS if v != w)
    point, parts, capped = est.estimate(m, w, hide_all=False)
    sigma = loo[(w, "other workloads" if has_other else "no scores")]["rms"]
    how = "; ".join(f"{t} = {v:.1f} (+-{s:.1f})" for t, v, s in parts)
    src = f"estimate {point:.1f} +- {sigma:.1f} (leave-one-out RMS): blend of {how}"
    if capped:
        src += "; capped at a larger measured relative or the best measured figure"
    return {"score": round(point, 2), "estimated": True, "uncertainty": round(sigma, 2),
            "source": src}


def _rag_figure(chat, docs):
    """RAG answers need both: answering well (the chat figure) and finding what is in a long
    prompt (the long-document latent: RULER, LongBench, ...). Equal weights (judgement)."""
    if chat["source"].startswith("not rated"):
        return chat
    # The parts' errors (a measured part's standard error, an estimated part's LOO RMS) are
    # independent: the figure's is their weighted sum in quadrature, whichever part is estimated.
    u = math.hypot(RAG_CHAT_WEIGHT * chat["uncertainty"],
                   (1 - RAG_CHAT_WEIGHT) * docs["uncertainty"])
    score = RAG_CHAT_WEIGHT * chat["score"] + (1 - RAG_CHAT_WEIGHT) * docs["score"]
    est = chat["estimated"] or docs["estimated"]
    def part(name, f):
        return f"{name} {f['score']:.1f} ({'estimated' if f['estimated'] else f['source']})"
    return {"score": round(score, 2), "estimated": est,
            "uncertainty": round(u, 2),
            "source": f"{RAG_CHAT_WEIGHT:g} x {part('chat', chat)} + {1 - RAG_CHAT_WEIGHT:g} x "
                      f"{part('long-document', docs)}"}


def _long_context(m, fit, scale, rag):
    c0, c1, _ = scale
    z = (rag["score"] - c0) / c1 if c1 else 0.0
    rows = {r["bench"]: r for r in fit.get("rows_by_key", {}).get(m["id"], [])}
    out, measured_any, est_any = {}, [], False
    for tokens, bench in RULER_LENGTHS:
        key = f"ruler_{tokens // 1024}k"
        got = rows.get(bench) or rows.get(bench + " (self-reported)")
        if m["max_context"] < tokens or m["kind"] == "embedding":
            out[key] = 0.0
        elif got is not None:
            out[key] = got["score"]
            measured_any.append(got["bench"])
        elif bench in fit["maps"]:
            a, s, _ = fit["maps"][bench]
            out[key] = round(max(0.0, min(100.0, a + s * z)), 2)
            est_any = True
        else:
            out[key] = 0.0
            est_any = True
    eff = 0
    for tokens, _ in RULER_LENGTHS:
        if out[f"ruler_{tokens // 1024}k"] >= RULER_EFFECTIVE_PCT:
            eff = tokens
    short = eff == 0
    if short:
        eff = min(SHORT_EFFECTIVE_TOKENS, m["max_context"])
    eff = min(eff, m["max_context"])
    estimated = est_any or short or rag["estimated"] and not measured_any
    if measured_any and not est_any:
        src = "measured: " + "; ".join(measured_any)
    elif measured_any:
        src = ("measured: " + "; ".join(measured_any) + "; other lengths from the RULER map "
               "of its rag figure")
    else:
        src = (f"estimate: RULER maps of its {'estimated ' if rag['estimated'] else ''}rag "
               f"figure {rag['score']:.1f}")
    if short:
        src += (f"; below {RULER_EFFECTIVE_PCT:g}% at 32K: effective context assumed "
                f"{SHORT_EFFECTIVE_TOKENS // 1024}K (shorter lengths not in the data)")
    out.update({"effective_context": int(eff), "estimated": bool(estimated), "source": src})
    return out


# --------------------------------------------------------------------------------------------
# catalog/QUALITY.md (written by convert_catalog.py: every number below comes from this run)
# --------------------------------------------------------------------------------------------
def render_markdown(rep, models):
    doc = __doc__.split("\n\n", 1)[1].strip()
    out = ["# Quality per workload", "",
           "Generated by `tools/convert_catalog.py` (module `tools/catalog_quality.py`); do not "
           "edit: rerun the script. Every number here is from that run.", "",
           "Each catalog model carries `workload_quality` (chat, coding, agentic, rag, "
           "reasoning: `score` 0-100, `estimated`, `uncertainty`, `source`) and `long_context` "
           "(`ruler_32k`, `ruler_64k`, `ruler_128k`, `effective_context`, `estimated`, "
           "`source`). The rules read them as `quality.*` facts (`fitrank rules schema`).", "",
           "## Method", "", "```", doc, "```", "",
           f"Rows used: {rep['rows']} (one per model and benchmark string, CAUTION rows "
           f"dropped, LMArena columns of llm_models.csv included). TSV models outside the "
           f"catalog calibrate the maps only: {', '.join(rep['unmatched'])}.", "",
           "## Coverage", "", "| workload | measured catalog models | estimated | scale "
           "(score = a + b z) | overlap with LMArena |", "|---|---:|---:|---|---:|"]
    for w in WORKLOADS:
        c0, c1, n = rep["scales"][w]
        out.append(f"| {w} | {rep['measured'][w]} | {rep['estimated'][w]} | "
                   f"{c0:.1f} + {c1:.1f} z | {n} |")
    c0, c1, n = rep["scales"]["general"]
    out.append(f"| general (estimation only) | {rep['measured']['general']} | - | "
               f"{c0:.1f} + {c1:.1f} z | {n} |")
    out += ["", "## Leave-one-out error of the estimates (score points)", "",
            "Each measured catalog model in turn removed from every fit the estimator uses, "
            "then estimated: *no scores* hides all its rows (family, size and date only); "
            "*other workloads* keeps its figures in the other workloads. The RMS of the "
            "situation is the `uncertainty` of every estimate made in it.", "",
            "| workload | situation | n | RMS | MAE | bias |", "|---|---|---:|---:|---:|---:|"]
    for w in WORKLOADS:
        for sit in ("no scores", "other workloads"):
            e = rep["loo"][(w, sit)]
            out.append(f"| {w} | {sit} | {e['n']} | {e['rms']:.1f} | {e['mae']:.1f} | "
                       f"{e['bias']:+.1f} |")
    out += ["", "## Benchmark maps (score = a + b z, residual sd)", "",
            "Strings used by fewer than "
            f"{MIN_MODELS_PER_STRING} models are dropped. Weight: 1 independent, "
            f"{SELF_REPORTED_WEIGHT:g} self-reported, {LMARENA_CATEGORY_WEIGHT:g} LMArena "
            "categories.", "",
            "| workload | benchmark string | models | a | b | residual sd |",
            "|---|---|---:|---:|---:|---:|"]
    for w in LATENTS:
        fit = rep["fits"][w]
        for b in sorted(fit["maps"]):
            a, s, e = fit["maps"][b]
            out.append(f"| {w} | {b} | {fit['n_rows'][b]} | {a:.1f} | {s:.2f} | {e:.2f} |")
        for b in fit["dropped"]:
            out.append(f"| {w} | {b} (dropped) | - | - | - | - |")
    out += ["", "## Best measured figure per workload", ""]
    for w in WORKLOADS:
        ms = sorted((m for m in models if not m["workload_quality"][w]["estimated"]),
                    key=lambda m: (-m["workload_quality"][w]["score"], m["id"]))[:8]
        out.append(f"- {w}: " + ", ".join(f"{m['id']} {m['workload_quality'][w]['score']:.1f}"
                                          for m in ms))
    out += ["", "## Long context", "",
            f"Effective context: {sum(1 for m in models if not m['long_context']['estimated'])}"
            f" models from measured RULER rows, {sum(1 for m in models if m['long_context']['estimated'])}"
            " estimated. Distribution of `effective_context`: " +
            ", ".join(f"{k // 1024}K: {v}" for k, v in sorted(
                _count(m["long_context"]["effective_context"] for m in models).items())), ""]
    return "\n".join(out)


def _count(xs):
    c = {}
    for x in xs:
        c[x] = c.get(x, 0) + 1
    return c
