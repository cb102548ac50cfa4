"""Replays the measured per-thread results of repro.py in plain Python (no GPU,
no Triton): an xor butterfly over the 8 lanes that hold the 8 elements
(offsets 4, 2, 1), each lane computing combine(own pair, partner's pair) with
Triton's argmax/argmin combine (standard.py, tie_break_left=True). Because
the combine is not commutative when a NaN is compared, lane l and lane l ^ off
keep different pairs, and the lanes end with different indices. The output
equals the first 8 stored values measured on the H200 (repro.py's
output.txt; elements 8..15 repeat them).

Run: python3 explain.py
"""
import math

X = [1.0, math.nan, 0.0, math.nan, 3.0, -1.0, math.nan, 2.0]
MEASURED = {"argmax": [7, 6, 4, 4, 3, 4, 1, 4], "argmin": [5, 6, 5, 5, 3, 2, 1, 2]}


def combine(a, b, better):
    (v1, i1), (v2, i2) = a, b
    keep_left = better(v1, v2) or (v1 == v2 and i1 < i2)
    return a if keep_left else b


def main():
    for name, better in (("argmax", lambda p, q: p > q), ("argmin", lambda p, q: p < q)):
        lanes = [(v, i) for i, v in enumerate(X)]
        for off in (4, 2, 1):
            lanes = [combine(lanes[l], lanes[l ^ off], better) for l in range(8)]
        got = [i for _, i in lanes]
        print(f"{name}: butterfly model {got}, measured {MEASURED[name]}, "
              f"{'same' if got == MEASURED[name] else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
