#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent check of `analyze diff --causes -F json`: recompute every configuration's
breakdown, each change of share, its p (Welch's t on the runs' shares with two or more runs a
side; else Fisher's exact test or the z test with the variance of a share above an estimated
percentile, docs/diff.md) and Holm's adjustment from the runs' datapoints.csv files.
usage: diff_causes_check.py DIFF.JSON PCT METRIC -- CONFIG1_CSV,CSV.. CONFIG2_CSV,.."""
import csv
import json
import math
import sys


def quantile(s, q):
    if not s:
        return None
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    if lo >= len(s) - 1:
        return s[-1]
    return s[lo] + (pos - lo) * (s[lo + 1] - s[lo])


def num(cell):
    return float(cell) if cell not in ("", None) else None


FAMS = [("IRQCnt", "IRQ"), ("SWIRQCnt", "softirq"), ("NMICnt", "NMI"), ("SMICnt", "SMI"),
        ("StealTime", "steal")]
CLASSES = ["NMI or SMI", "IRQ and softirq", "IRQ only", "softirq only", "none", "steal only", "not known"]


def part(row):
    """Exclusive class by precedence; an empty cell of a column the run has is not known."""
    v = {fam: num(row[col]) for col, fam in FAMS if col in row}
    yes = lambda f: v.get(f) is not None and v[f] > 0
    empty = lambda *fs: any(f in v and v[f] is None for f in fs)
    if yes("NMI") or yes("SMI"):
        return "NMI or SMI"
    if empty("NMI", "SMI", "IRQ", "softirq"):
        return "not known"
    if yes("IRQ") or yes("softirq"):
        return {(1, 1): "IRQ and softirq", (1, 0): "IRQ only", (0, 1): "softirq only"}[(yes("IRQ"), yes("softirq"))]
    if empty("steal"):
        return "not known"
    return "steal only" if yes("steal") else "none"


def column_of(cause):
    """The column a cause needs (None: none, not known)."""
    fam = cause.split(" ")[0]
    return {f: c for c, f in FAMS}.get(fam)


def causes_of(row):
    out = []
    for col, fam in FAMS:
        v = num(row.get(col))
        if v is not None and v > 0:
            out.append(fam)
    if "IRQ" in out and row.get("IRQTop", ""):
        out.append("IRQ " + row["IRQTop"])
    if "softirq" in out and row.get("SWIRQTypes", ""):
        out += ["softirq " + t for t in row["SWIRQTypes"].split("+")]
    return out + (["none"] if part(row) == "none" else [])


def breakdown(rows, metric, pct):
    """bands[b] = {"rows": k, "n": {cause: count}, "ex": {cause: sum}}; near: {cause: count}."""
    vals = [(num(r[metric]), causes_of(r)) for r in rows if num(r[metric]) is not None]
    parts = [part(r) for r in rows if num(r[metric]) is not None]
    s = sorted(v for v, _ in vals)
    n = len(s)
    thr = quantile(s, pct / 100)
    cmed = quantile(sorted(v for v, c in vals if "none" in c), 0.5)
    h = int(max(10, math.sqrt(n) / 2))
    pos = pct / 100 * (n - 1)
    lo, hi = s[max(0, math.floor(pos - h))], s[min(n - 1, math.ceil(pos + h))]
    bands = [{"rows": 0, "n": {}, "ex": {}, "parts": {}} for _ in range(2)]
    near, nnear = {}, 0
    for (v, cs), pt in zip(vals, parts):
        b = bands[1 if v > thr else 0]
        b["rows"] += 1
        b["parts"][pt] = b["parts"].get(pt, 0) + 1
        isnear = lo <= v <= hi
        nnear += isnear
        for c in cs:
            b["n"][c] = b["n"].get(c, 0) + 1
            b["ex"][c] = b["ex"].get(c, 0.0) + (v - cmed if cmed is not None else math.nan)
            near[c] = near.get(c, 0) + isnear
    cols = set(rows[0]) if rows else set()
    return {"thr": thr, "cmed": cmed, "nclean": sum(1 for _, c in vals if "none" in c),
            "bands": bands, "near": near, "nnear": nnear, "n": n, "cols": cols}


def betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num_ in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                     -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num_ * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num_ / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def t_two_sided_p(t, df):
    x = df / (df + t * t)
    a, b = df / 2, 0.5
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log(1 - x)) if 0 < x < 1 else 0.0
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b


def welch_p(a, b):
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se2 = va / len(a) + vb / len(b)
    if se2 == 0:
        return 1.0 if mb == ma else 0.0
    df = se2 ** 2 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
    return t_two_sided_p((mb - ma) / math.sqrt(se2), df)


def fisher_p(x1, n1, x2, n2):
    k, tot = x1 + x2, n1 + n2
    def lp(x):
        return (math.lgamma(n1 + 1) - math.lgamma(x + 1) - math.lgamma(n1 - x + 1) +
                math.lgamma(n2 + 1) - math.lgamma(k - x + 1) - math.lgamma(n2 - k + x + 1) -
                (math.lgamma(tot + 1) - math.lgamma(k + 1) - math.lgamma(tot - k + 1)))
    obs = lp(x1)
    return min(1.0, sum(math.exp(lp(x)) for x in range(max(0, k - n2), min(k, n1) + 1) if lp(x) <= obs + 1e-7))


def datapoint_p(ra, rb, cause, band):
    x1, n1 = ra["bands"][band]["n"].get(cause, 0), ra["bands"][band]["rows"]
    x2, n2 = rb["bands"][band]["n"].get(cause, 0), rb["bands"][band]["rows"]
    k, tot = x1 + x2, n1 + n2
    if min(n1, n2) * min(k, tot - k) / tot < 5:
        return fisher_p(x1, n1, x2, n2), "fisher-exact"
    s = k / tot
    nnear = ra["nnear"] + rb["nnear"]
    r = (ra["near"].get(cause, 0) + rb["near"].get(cause, 0)) / nnear if nnear else s
    w = tot / (ra["n"] + rb["n"])
    var = (s * (1 - s) + (1 - w) * (s - r) ** 2) * (1 / n1 + 1 / n2)
    diff = x2 / n2 - x1 / n1
    if var <= 0:
        return (1.0 if diff == 0 else 0.0), "band-share-z"
    return math.erfc(abs(diff) / math.sqrt(var) / math.sqrt(2)), "band-share-z"


def holm(ps):
    idx = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    out, run, m = [None] * len(ps), 0.0, len(idx)
    for rank, (p, i) in enumerate(idx):
        run = max(run, min(1.0, (m - rank) * p))
        out[i] = run
    return out


def close(a, b, tol=1e-9):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=tol, abs_tol=1e-300)


def pooled_cols(config_runs):
    return set().union(*(set(run[0]) for run in config_runs if run))


def unmeasured(config_runs, names, cause):
    """The first run (its directory's name) without the cause's column, or None."""
    col = column_of(cause)
    for run, name in zip(config_runs, names):
        if col and (not run or col not in run[0]):
            return name
    return None


def main():
    jpath, pct, metric = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    configs = [c.split(",") for c in sys.argv[5:]]
    run_names = [[p.split("/")[-2] for p in c] for c in configs]
    runs = [[list(csv.DictReader(open(p, newline=""))) for p in c] for c in configs]
    got = json.load(open(jpath))["causes"][metric]
    bad = 0
    pooled = [breakdown([r for run in c for r in run], metric, pct) for c in runs]
    per_run = [[breakdown(run, metric, pct) for run in c] for c in runs]
    names = set()
    for b in pooled:
        for band in b["bands"]:
            names |= set(band["n"])
    for ci, (g, e) in enumerate(zip(got["configs"], pooled)):
        if not (close(g["threshold"], e["thr"]) and close(g["clean_median"], e["cmed"]) and g["clean_rows"] == e["nclean"]):
            print(f"config {ci}: {g['threshold']} {g['clean_median']} {g['clean_rows']}, expected {e['thr']} {e['cmed']} {e['nclean']}")
            bad += 1
        for bi, bname in ((1, "above"), (0, "at_or_below")):
            eb, gb = e["bands"][bi], g[bname]
            if gb["rows"] != eb["rows"] or set(gb["causes"]) != names:
                print(f"config {ci} {bname}: rows {gb['rows']} causes {sorted(gb['causes'])}, expected {eb['rows']} {sorted(names)}")
                bad += 1
            steal_shown = any("StealTime" in pooled_cols(cr) for cr in runs)
            shown = [c for c in CLASSES if c != "steal only" or steal_shown]
            if list(gb["classes"]) != shown or sum(v["rows"] for v in gb["classes"].values()) != eb["rows"]:
                print(f"config {ci} {bname}: classes {gb['classes']}, expected {shown} adding up to {eb['rows']}")
                bad += 1
            for c in shown:
                n = eb["parts"].get(c, 0)
                meas = c != "steal only" or all("StealTime" in set(run[0]) for run in runs[ci] if run)
                gc = gb["classes"].get(c, {})
                if gc.get("rows") != n or not close(gc.get("share"), n / eb["rows"] if meas else None):
                    print(f"config {ci} {bname} class {c}: {gc}, expected {n} (measured {meas})")
                    bad += 1
            for c in names:
                n = eb["n"].get(c, 0)
                gc = gb["causes"].get(c, {})
                exm = eb["ex"][c] / n if n and not math.isnan(eb["ex"][c]) else None
                lack = unmeasured(runs[ci], run_names[ci], c)
                if lack:
                    if gc.get("share") is not None or gc.get("not_measured_in") != lack or gc.get("rows") != 0:
                        print(f"config {ci} {bname} {c}: {gc}, expected not measured in {lack}")
                        bad += 1
                    continue
                if gc.get("rows") != n or not close(gc.get("share"), n / eb["rows"]) or not close(gc.get("excess_mean"), exm):
                    print(f"config {ci} {bname} {c}: {gc}, expected {n} {n / eb['rows']} {exm}")
                    bad += 1
    tested = 0
    for ci in range(1, len(runs)):
        run_level = len(runs[0]) >= 2 and len(runs[ci]) >= 2
        for bi, bname in ((1, "above"), (0, "at_or_below")):
            order = sorted(names)
            ps, methods = [], []
            for c in order:
                if unmeasured(runs[0], run_names[0], c) or unmeasured(runs[ci], run_names[ci], c):
                    ps.append(None)
                    methods.append(None)
                elif run_level:
                    sh = [[r["bands"][bi]["n"].get(c, 0) / r["bands"][bi]["rows"] for r in per_run[k] if r["bands"][bi]["rows"]]
                          for k in (0, ci)]
                    ps.append(welch_p(sh[0], sh[1]))
                    methods.append("welch-t-run-shares")
                else:
                    p, m = datapoint_p(pooled[0], pooled[ci], c, bi)
                    ps.append(p)
                    methods.append(m)
            adj = holm(ps)
            for c, p, pa, m in zip(order, ps, adj, methods):
                gc = got["changes"][ci][bname][c]
                lack = unmeasured(runs[0], run_names[0], c) or unmeasured(runs[ci], run_names[ci], c)
                if lack:
                    if gc != {"diff": None, "p": None, "p_adj": None, "method": None, "beyond_chance": False,
                              "not_measured_in": lack}:
                        print(f"change {ci} {bname} {c}: {gc}, expected not measured in {lack}")
                        bad += 1
                    tested += 1
                    continue
                ea, eb_ = pooled[0]["bands"][bi], pooled[ci]["bands"][bi]
                diff = eb_["n"].get(c, 0) / eb_["rows"] - ea["n"].get(c, 0) / ea["rows"]
                if not (close(gc["diff"], diff) and close(gc["p"], p, 1e-7) and close(gc["p_adj"], pa, 1e-7)
                        and gc["method"] == m and gc["beyond_chance"] == (pa < 0.05)):
                    print(f"change {ci} {bname} {c}: {gc}, expected diff {diff} p {p} p_adj {pa} {m}")
                    bad += 1
                tested += 1
    print(f"# {metric} p{pct:g}: {len(runs)} configurations, {len(names)} causes, {tested} changes checked "
          f"({'run' if len(runs[0]) >= 2 else 'datapoint'} level)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
