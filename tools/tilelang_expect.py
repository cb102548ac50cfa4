#!/usr/bin/env python3
"""Fills in the expected result of corpus/tilelang cases from real TileLang.

    KSEM_TILELANG_PYTHON=... ; $KSEM_TILELANG_PYTHON tools/tilelang_expect.py [CASE.json ...]

Runs each case (default: every corpus/tilelang/*.json) on tilelang's C target
through tools/tilelang_run.py's run_launch in this one process and writes
the result as the case's "expected", with a "provenance" line naming the
TileLang version. A case TileLang refuses is reported and left unchanged.
"""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tilelang_run  # noqa: E402


# TileLang math functions that are not correctly rounded on every target
APPROXIMATE = ["exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "sigmoid",
               "erf", "rsqrt", "pow"]
APPROX_ULP = 2


def main(paths):
    import tilelang
    here = os.path.dirname(os.path.abspath(__file__))
    if not paths:
        paths = sorted(glob.glob(os.path.join(here, "..", "corpus", "tilelang", "*.json")))
    failed = 0
    for path in paths:
        with open(path) as f:
            case = json.load(f)
        program = path[:-5] + ".py"
        try:
            result = tilelang_run.run_launch(program, case)
        except Exception as e:  # noqa: BLE001
            lines = [l for l in str(e).strip().splitlines() if l.strip()]
            print(f"{os.path.basename(path)}: refused: {lines[-1] if lines else type(e).__name__}")
            failed += 1
            continue
        result["kernel"] = case.get("kernel") or "main"
        with open(program) as f:
            approximate = any(f"T.{m}(" in f.read() for m in APPROXIMATE)
        for b in result["buffers"].values():
            b.pop("exact", None)
            if approximate:
                # the C target calls libm (expf, logf …); ksem's correctly
                # rounded result is compared within this bound
                b["exact"] = False
                b["ulp"] = APPROX_ULP
        case["provenance"] = (f"measured: tilelang {tilelang.__version__} C target on the CPU "
                              "via tools/tilelang_expect.py (tools/tilelang_run.py)"
                              + (f"; approximate math (libm) compared within {APPROX_ULP} ulp"
                                 if approximate else ""))
        case["expected"] = {"buffers": result["buffers"], "ub": []}
        with open(path, "w") as f:
            json.dump(case, f, indent=1)
            f.write("\n")
        print(f"{os.path.basename(path)}: ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
