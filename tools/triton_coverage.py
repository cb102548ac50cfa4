#!/usr/bin/env python3
"""Measures how many real-world Triton kernels of a directory ksem runs.

    python3 tools/triton_coverage.py DIR [--ksem target/release/ksem] [--json OUT]
                                         [--timeout 60]

DIR holds pairs ``NAME.py`` (an unmodified Triton source file, typically a
copy of another project's file) and ``NAME.json`` (a launch spec written by
hand: ``kernel``, ``grid``, ``args`` and, for ``@triton.autotune`` kernels,
``config``; see docs/formats.md). A ``.py`` without a ``.json`` beside it is
not a case and is skipped. For every pair the tool runs

    ksem run NAME.py --launch NAME.json

on the interpreter under a time limit (60 seconds unless ``--timeout``) and
reports the kernel as one of

- ``ran``      exit 0;
- ``ub``       exit 1: ksem found undefined behaviour (the first report);
- ``refused``  exit 2: ksem refused it, with the first line of its message
               (``FILE:LINE:COL: error: …``);
- ``timeout``  it did not finish within the limit;
- ``crash``    any other exit status, death by a signal, or a Rust panic
               message on stderr whatever the status.

It prints one line per case, then the counts per outcome and the refusals
grouped by their message (the file position stripped, so that one missing
feature counts once per kernel it blocks); ``--json OUT`` writes the rows and
the counts as JSON. The tool only reads DIR; it uses the standard library
alone.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

POS = re.compile(r"^\S+?:\d+:\d+:\s*")


def first_error(text):
    """The first line of ksem's message: the first line with `error`, else
    the first non-empty line."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln:
            return ln
    return lines[0] if lines else ""


def first_ub(text):
    """The first UB report of a run that exited 1."""
    for ln in text.splitlines():
        low = ln.lower()
        if "undefined" in low or "ub" in low.split() or "out-of-bounds" in low or "race" in low:
            return ln.strip()
    return first_error(text)


def reason(msg):
    """A refusal's message without its file position (for grouping)."""
    return POS.sub("", msg)


def run_one(o, d, name):
    py = os.path.join(d, name + ".py")
    launch = os.path.join(d, name + ".json")
    cmd = [o.ksem, "run", py, "--launch", launch]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=o.timeout,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout", "why": f"no result within {o.timeout:g} s",
                "seconds": round(time.monotonic() - t0, 2)}
    secs = round(time.monotonic() - t0, 2)
    out, err = p.stdout, p.stderr
    panic = next((ln.strip() for ln in err.splitlines() if "panicked" in ln), None)
    if panic is not None:
        return {"outcome": "crash", "why": panic, "rc": p.returncode, "seconds": secs}
    if p.returncode == 0:
        return {"outcome": "ran", "why": "", "seconds": secs}
    if p.returncode == 1:
        return {"outcome": "ub", "why": first_ub(err + "\n" + out), "seconds": secs}
    if p.returncode == 2:
        return {"outcome": "refused", "why": first_error(err or out), "seconds": secs}
    return {"outcome": "crash", "why": first_error(err or out) or f"exit {p.returncode}",
            "rc": p.returncode, "seconds": secs}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--ksem", default="target/release/ksem")
    ap.add_argument("--json", help="write the rows and counts here")
    ap.add_argument("--timeout", type=float, default=60)
    o = ap.parse_args()
    names = sorted(fn[:-3] for fn in os.listdir(o.dir)
                   if fn.endswith(".py") and os.path.exists(os.path.join(o.dir, fn[:-3] + ".json")))
    rows = []
    for name in names:
        with open(os.path.join(o.dir, name + ".json")) as fh:
            try:
                kernel = json.load(fh).get("kernel", "")
            except ValueError:
                kernel = "?"
        r = {"case": name, "kernel": kernel}
        r.update(run_one(o, o.dir, name))
        rows.append(r)
        print(f'{r["outcome"]:8} {name:40} {r["why"][:160]}', flush=True)
    counts = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    reasons = {}
    for r in rows:
        if r["outcome"] == "refused":
            reasons.setdefault(reason(r["why"]), []).append(r["case"])
    print()
    print(f"{len(rows)} kernels: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if reasons:
        print("\nrefusals by reason:")
        for why, cases in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            print(f"  {len(cases):3}  {why[:150]}")
            print(f"       {', '.join(cases)}")
    if o.json:
        with open(o.json, "w") as fh:
            json.dump({"counts": counts, "rows": rows,
                       "refusals": {k: v for k, v in reasons.items()}}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
