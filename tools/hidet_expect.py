#!/usr/bin/env python3
"""Fills in the expected result of corpus/hidet cases from real Hidet.

    /work/hidetvenv/bin/python tools/hidet_expect.py [CASE.json ...]

(any Python with ``pip install hidet``; measured with Hidet 0.6.1). Runs each
case (default: every corpus/hidet/*.json) on real Hidet's cpu_kernel build
(g++ without fast-math, cache $KSEM_HIDET_CACHE) through
tools/hidet_run.py's run_isolated, in this one process (each case in a forked
child), and writes the result as the case's "expected", with a "provenance"
line. A case Hidet refuses or that dies is reported and left unchanged, and
the exit code is 1.
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hidet_run  # noqa: E402

PROVENANCE = "measured: Hidet {v} cpu_kernel (g++ -fno-fast-math) via tools/hidet_expect.py"


def main(paths):
    hidet = hidet_run.setup_hidet()
    here = os.path.dirname(os.path.abspath(__file__))
    if not paths:
        paths = sorted(glob.glob(os.path.join(here, "..", "corpus", "hidet", "*.json")))
    failed = 0
    for path in paths:
        with open(path) as f:
            case = json.load(f)
        program = path[:-5] + ".py"
        code, result, err = hidet_run.run_isolated(program, case, case.get("kernel"))
        name = os.path.basename(path)
        if err is not None:
            print(f"{name}: not measured (exit {code}): {err}", flush=True)
            failed += 1
            continue
        for b in result["buffers"].values():
            b.pop("exact", None)
        case["provenance"] = PROVENANCE.format(v=hidet.__version__)
        case["expected"] = {"buffers": result["buffers"], "ub": []}
        with open(path, "w") as f:
            json.dump(case, f, indent=1)
            f.write("\n")
        print(f"{name}: ok", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
