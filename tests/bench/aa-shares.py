#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Would rows compared as a share of busy (what perf diff compares) hold
still on A/A pairs where rows in ns per round trip do not?

    tests/bench/aa-shares.py DIR [DIR...]

DIR is a folder of tests/bench/aa-pairs.sh --keep (its dN.json: perpkt
diff --format json of pair N, with each row's value per window). For
every pair, both bases are tested the way perpkt diff tests ns: Welch's
t across the windows, Benjamini-Hochberg at 1% over the rows (perpkt's
`*`), a row under 3% of busy on both sides left out, and no mark for a
shift under 3% of busy (3 points of share). Prints, per basis, how many
pairs have any row marked and the rows marked in all.
"""
import json
import math
import os
import sys


def betacf(a, b, x):
    tiny, c, d = 1e-300, 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 400):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            f *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return f


def ibeta(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) +
                     a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b


def welch_p(a, b):
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None
    ma, mb = sum(a) / na, sum(b) / nb
    va = sum((x - ma) ** 2 for x in a) / (na - 1) / na
    vb = sum((x - mb) ** 2 for x in b) / (nb - 1) / nb
    if va + vb == 0:
        return 0.0 if ma != mb else 1.0
    df = (va + vb) ** 2 / (va * va / (na - 1) + vb * vb / (nb - 1))
    t = (mb - ma) / math.sqrt(va + vb)
    return ibeta(df / 2, 0.5, df / (df + t * t))


def bh(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    q, run = [1.0] * m, 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        run = min(run, ps[i] * m / rank)
        q[i] = run
    return q


def marks(d, share):
    busy = d["busy"]["per_repeat"]
    if not busy[0] or not busy[1]:
        return None
    floor = 0.03 * max(d["busy"]["per_rt"])
    ps, names, small = [], [], []
    for r in d["functions"] + d["buckets"]:
        if r["name"] in ("[other]", "[other tasks]") or not r["per_repeat"][0]:
            continue
        if max(abs(v) for v in r["per_rt"]) < floor:
            continue
        side = []
        for k in range(2):
            w = r["per_repeat"][k]
            side.append([w[i] / busy[k][i] * 100 if share else w[i]
                         for i in range(len(w)) if busy[k][i] > 0])
        p = welch_p(side[0], side[1])
        if p is not None:
            ps.append(p)
            names.append(r["name"])
            # the floor, as perpkt's: 3% of busy, or 3 points of share
            shift = abs(sum(side[1]) / len(side[1]) - sum(side[0]) / len(side[0]))
            small.append(shift < (3 if share else floor))
    q = bh(ps)
    return [names[i] for i in range(len(ps)) if q[i] < 0.01 and not small[i]]


def main():
    for basis, share in (("ns per round trip", False), ("share of busy", True)):
        pairs = marked = rows = 0
        for top in sys.argv[1:]:
            for f in sorted(os.listdir(top)):
                if not (f.startswith("d") and f.endswith(".json")):
                    continue
                m = marks(json.load(open(os.path.join(top, f))), share)
                if m is None:
                    continue
                pairs += 1
                marked += bool(m)
                rows += len(m)
        print(f"{basis}: {marked} of {pairs} pairs with a row marked, "
              f"{rows} rows marked in all")


if __name__ == "__main__":
    main()
