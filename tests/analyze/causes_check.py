#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent check of `analyze stats --causes -F json`: recompute the breakdown from the
run's datapoints.csv with the csv module and compare every number.
usage: causes_check.py DATAPOINTS.CSV STATS.JSON PCT METRIC..."""
import csv
import json
import math
import sys


def quantile(sorted_vals, q):
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_vals:
        return None
    pos = q * (len(sorted_vals) - 1)
    lo = int(math.floor(pos))
    if lo >= len(sorted_vals) - 1:
        return sorted_vals[-1]
    return sorted_vals[lo] + (pos - lo) * (sorted_vals[lo + 1] - sorted_vals[lo])


def num(cell):
    return float(cell) if cell != "" else None


COLS = [("IRQCnt", "IRQ"), ("SWIRQCnt", "softirq"), ("NMICnt", "NMI"), ("SMICnt", "SMI"),
        ("StealTime", "steal")]
CLASSES = ["NMI or SMI", "IRQ and softirq", "IRQ only", "softirq only", "none", "steal only", "not known"]


def class_of(row):
    """The exclusive class: a present column's empty cell is not known (None), never 0."""
    cell = {fam: num(row[col]) for col, fam in COLS if col in row}
    pos = {fam for fam, v in cell.items() if v is not None and v > 0}
    unk = {fam for fam, v in cell.items() if v is None}
    if pos & {"NMI", "SMI"}:
        return "NMI or SMI"
    if unk & {"NMI", "SMI", "IRQ", "softirq"}:
        return "not known"
    if {"IRQ", "softirq"} <= pos:
        return "IRQ and softirq"
    if "IRQ" in pos or "softirq" in pos:
        return "IRQ only" if "IRQ" in pos else "softirq only"
    if "steal" in unk:
        return "not known"
    return "steal only" if "steal" in pos else "none"


def causes_of(row):
    out = []
    families = [("IRQCnt", "IRQ"), ("SWIRQCnt", "softirq"), ("NMICnt", "NMI"), ("SMICnt", "SMI"),
                ("StealTime", "steal")]
    for col, fam in families:
        v = num(row.get(col, "") or "")
        if v is not None and v > 0:
            out.append(fam)
    if "IRQ" in out and row.get("IRQTop", ""):
        out.append("IRQ " + row["IRQTop"])
    if "softirq" in out and row.get("SWIRQTypes", ""):
        out += ["softirq " + t for t in row["SWIRQTypes"].split("+")]
    return out + (["none"] if class_of(row) == "none" else [])


def expected(rows, metric, pct):
    vals = [(num(r[metric]), r) for r in rows if num(r[metric]) is not None]
    thr = quantile(sorted(v for v, _ in vals), pct / 100)
    clean = sorted(v for v, r in vals if class_of(r) == "none")
    cmed = quantile(clean, 0.5)
    bands = {"above": {"rows": 0, "causes": {}, "classes": {}}, "at_or_below": {"rows": 0, "causes": {}, "classes": {}}}
    for v, r in vals:
        b = bands["above" if v > thr else "at_or_below"]
        b["rows"] += 1
        for c in causes_of(r):
            e = b["causes"].setdefault(c, [0, 0.0])
            e[0] += 1
            e[1] += v - cmed if cmed is not None else math.nan
        e = b["classes"].setdefault(class_of(r), [0, 0.0])
        e[0] += 1
        e[1] += v - cmed if cmed is not None else math.nan
    return thr, cmed, len(clean), bands


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def main():
    path, jpath, pct, metrics = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    got = json.load(open(jpath))["runs"][0]["causes"]
    bad = 0
    for m in metrics:
        thr, cmed, nclean, bands = expected(rows, m, pct)
        g = got[m]
        if not (close(g["threshold"], thr) and close(g["clean_median"], cmed) and g["clean_rows"] == nclean):
            print(f"{m}: threshold/clean median/clean rows {g['threshold']} {g['clean_median']} "
                  f"{g['clean_rows']}, expected {thr} {cmed} {nclean}")
            bad += 1
        for bname, b in bands.items():
            gb = g[bname]
            if gb["rows"] != b["rows"]:
                print(f"{m} {bname}: {gb['rows']} rows, expected {b['rows']}")
                bad += 1
            names = set(b["causes"]) | {k for k, v in gb["causes"].items() if v["rows"]}
            for c in sorted(names):
                n, ex = b["causes"].get(c, [0, 0.0])
                gc = gb["causes"].get(c, {"rows": 0, "share": 0, "excess_mean": None})
                share = n / b["rows"] if b["rows"] else None
                exm = ex / n if n and not math.isnan(ex) else None
                if gc["rows"] != n or not close(gc["share"], share) or not close(gc["excess_mean"], exm):
                    print(f"{m} {bname} {c}: {gc}, expected rows {n} share {share} excess {exm}")
                    bad += 1
        header = rows[0] if rows else {}
        for col, fam in COLS:
            want = None if col in header else f"no {col} column"
            if g["not_measured"].get(fam) != want:
                print(f"{m}: not_measured {fam} {g['not_measured'].get(fam)}, expected {want}")
                bad += 1
        for bname, b in bands.items():
            shown = [c for c in CLASSES if c != "steal only" or "StealTime" in header]
            if list(g[bname]["classes"]) != shown:
                print(f"{m} {bname}: classes {list(g[bname]['classes'])}, expected {shown}")
                bad += 1
            if sum(g[bname]["classes"][c]["rows"] for c in shown) != b["rows"]:
                print(f"{m} {bname}: the classes do not add up to the band's {b['rows']} rows")
                bad += 1
            for c in shown:
                n, ex = b["classes"].get(c, [0, 0.0])
                gc = g[bname]["classes"][c]
                share = n / b["rows"] if b["rows"] else None
                exm = ex / n if n and not math.isnan(ex) else None
                if gc["rows"] != n or not close(gc["share"], share) or not close(gc["excess_mean"], exm):
                    print(f"{m} {bname} class {c}: {gc}, expected rows {n} share {share} excess {exm}")
                    bad += 1
        unknown = sum(b["classes"].get("not known", [0])[0] for b in bands.values())
        print(f"# {m}: p{pct:g} {thr}, clean median {cmed} ({nclean}), above {bands['above']['rows']}, "
              f"checked {sum(len(b['causes']) for b in bands.values())} cause entries, {unknown} not known")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
