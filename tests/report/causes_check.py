#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Independent check of report --causes: the Causes section of index.html (its table cells
and SVG bars, by their data- attributes) against the breakdown recomputed from each run's
datapoints.csv with the csv module.
usage: causes_check.py INDEX.HTML METRIC RUN_INDEX=DATAPOINTS.CSV..."""
import csv
import math
import sys
from html.parser import HTMLParser

CUTS = [50, 90, 99, 99.9]
PARTS = ["NMI or SMI", "IRQ and softirq", "IRQ only", "softirq only", "none", "steal only", "not known"]
COLS = (("IRQ", "IRQCnt"), ("softirq", "SWIRQCnt"), ("NMI", "NMICnt"), ("SMI", "SMICnt"), ("steal", "StealTime"))
BAR_H = 180


def quantile(s, q):
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    if lo >= len(s) - 1:
        return s[-1]
    return s[lo] + (pos - lo) * (s[lo + 1] - s[lo])


def num(c):
    return float(c) if c not in ("", None) else None


def expected(path, metric):
    rows = list(csv.DictReader(open(path, newline="")))
    steal = bool(rows) and "StealTime" in rows[0]
    vals = [(num(r[metric]), r) for r in rows if num(r[metric]) is not None]
    s = sorted(v for v, _ in vals)
    thr = [quantile(s, c / 100) for c in CUTS]
    header = set(rows[0]) if rows else set()
    fams = [f for f, c in COLS if c in header]
    bands = [{"rows": 0, "parts": [0] * 7, "fam": {f: 0 for f in fams}, "steal": steal,
              "absent": [f for f, c in COLS[:4] if c not in header], "tops": {}, "types": {}} for _ in range(5)]
    for v, r in vals:
        b = bands[sum(v > t for t in thr)]
        cells = {f: num(r[c]) for f, c in COLS if c in header}
        has = {f: x is not None and x > 0 for f, x in cells.items()}
        empty = {f for f, x in cells.items() if x is None}
        has.update({f: False for f, c in COLS if c not in header})
        if has["NMI"] or has["SMI"]:
            part = 0
        elif empty & {"NMI", "SMI", "IRQ", "softirq"}:
            part = 6
        elif has["IRQ"] or has["softirq"]:
            part = 1 if has["IRQ"] and has["softirq"] else 2 if has["IRQ"] else 3
        else:
            part = 6 if "steal" in empty else 5 if has["steal"] else 4
        b["rows"] += 1
        b["parts"][part] += 1
        for f in fams:
            b["fam"][f] += has[f]
        if has["IRQ"] and r.get("IRQTop"):
            b["tops"][r["IRQTop"]] = b["tops"].get(r["IRQTop"], 0) + 1
        if has["softirq"] and r.get("SWIRQTypes"):
            for t in r["SWIRQTypes"].split("+"):
                b["types"][t] = b["types"].get(t, 0) + 1
    return thr, bands


class Section(HTMLParser):
    """Cells (run, band, key) -> (data-n, text) and bars (run, band, part) -> (n, height) of
    the metric's part of the Causes section."""
    def __init__(self, metric):
        super().__init__()
        self.metric, self.inside, self.mine = metric, False, False
        self.cells, self.bars, self.tr, self.td, self.text = {}, {}, None, None, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section":
            self.inside = a.get("id") == "causes"
        if not self.inside:
            return
        if tag == "h3":
            self.mine = a.get("id") == "causes-" + self.metric
        elif self.mine and tag == "tr" and "data-run" in a:
            self.tr = (int(a["data-run"]), int(a["data-band"]))
        elif self.mine and tag == "td" and "data-k" in a and self.tr:
            self.td, self.text = (self.tr + (a["data-k"],), a.get("data-n")), ""
        elif self.mine and tag == "rect":
            self.bars[(int(a["data-run"]), int(a["data-band"]), int(a["data-part"]))] = \
                (int(a["data-n"]), float(a["height"]))

    def handle_data(self, data):
        if self.td:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "td" and self.td:
            self.cells[self.td[0]] = (self.td[1], self.text)
            self.td = None
        elif tag == "section":
            self.inside = False


def main():
    html, metric = sys.argv[1], sys.argv[2]
    runs = {int(k): v for k, v in (a.split("=", 1) for a in sys.argv[3:])}
    unknown_shown = any(e["parts"][6] for path in runs.values() for e in expected(path, metric)[1])
    sec = Section(metric)
    sec.feed(open(html, encoding="utf-8").read())
    bad, checked = 0, 0

    def want(cond, msg):
        nonlocal bad, checked
        checked += 1
        if not cond:
            print(msg)
            bad += 1
    got_runs = {k[0] for k in sec.cells}
    want(got_runs == set(runs), f"{metric}: runs in the table {sorted(got_runs)}, expected {sorted(runs)}")
    for r, path in runs.items():
        thr, bands = expected(path, metric)
        for b, e in enumerate(bands):
            cell = lambda k: sec.cells.get((r, b, k), (None, ""))
            want(cell("rows")[0] == str(e["rows"]), f"run {r} band {b}: rows {cell('rows')}, expected {e['rows']}")
            if b < 4:
                up = float(cell("upper")[1].replace(",", ""))
                want(math.isclose(up, thr[b], rel_tol=1e-3), f"run {r} band {b}: upper end {up}, expected {thr[b]}")
            for k, name in enumerate(PARTS):
                n = e["parts"][k]
                if name == "steal only" and not e["steal"]:
                    want(cell(name)[0] is None and cell(name)[1] in ("", "not measured") and (r, b, k) not in sec.bars,
                         f"run {r} band {b}: a steal class {cell(name)} without StealTime")
                    continue
                if name == "not known" and not unknown_shown:
                    want(cell(name) == (None, "") and (r, b, k) not in sec.bars,
                         f"run {r} band {b}: a 'not known' class {cell(name)} where every cell is known")
                    continue
                want(cell(name)[0] == str(n), f"run {r} band {b} {name}: {cell(name)}, expected {n}")
                bar = sec.bars.get((r, b, k))
                if n:
                    want(bar and bar[0] == n and math.isclose(bar[1], BAR_H * n / e["rows"], abs_tol=0.006),
                         f"run {r} band {b} {name}: bar {bar}, expected n {n} height {BAR_H * n / e['rows']:.2f}")
                else:
                    want(bar is None, f"run {r} band {b} {name}: a bar {bar} for no datapoint")
            if e["rows"]:
                h = sum(v[1] for k, v in sec.bars.items() if k[:2] == (r, b))
                want(math.isclose(h, BAR_H, abs_tol=0.03), f"run {r} band {b}: the stack is {h} high, not {BAR_H}")
            for fam, n in e["fam"].items():
                want(cell(fam)[0] == str(n), f"run {r} band {b} any {fam}: {cell(fam)}, expected {n}")
            if not e["steal"]:
                want(cell("steal")[0] is None, f"run {r} band {b}: a steal share {cell('steal')} without StealTime")
            for fam in e["absent"]:
                want(cell(fam) == (None, "not measured"), f"run {r} band {b} any {fam}: {cell(fam)}, expected not measured")
            for key, counts in (("IRQTop", e["tops"]), ("SWIRQType", e["types"])):
                n, text = cell(key)
                if not counts:
                    want(text == "-", f"run {r} band {b} {key}: '{text}', expected '-'")
                    continue
                best = max(counts.values())
                name = text.rsplit(" (", 1)[0]
                want(n == str(best) and counts.get(name) == best,
                     f"run {r} band {b} {key}: '{text}' ({n}), expected one of "
                     f"{[k for k, v in counts.items() if v == best]} with {best}")
    print(f"# {metric}: {len(runs)} runs, {checked} figures checked")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
