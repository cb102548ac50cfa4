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

``--against triton`` (on a machine with a GPU and Triton) also runs every
kernel that ran on real Triton, through one long-lived ``tools/triton_run.py
--serve`` worker (its Python from ``--triton-python``), compiled without fma
contraction (divergence 3) and with ``KSEM_TRITON_STUB_IMPORTS=1`` (host-side
imports the machine lacks are stubbed), and compares each buffer bit for bit
with ksem's interpreter. Each kernel is then one of

- ``agree``      every element equal (elements ksem marks inexact within
                 their bound of 8 ulp);
- ``inexact``    only elements ksem marks inexact (derived from approximate
                 math: divergences 4, 5, 12) differ beyond that bound;
- ``documented`` float elements ksem computes exactly differ, and the kernel
                 uses an operation whose result real Triton computes
                 differently by a documented divergence (``ksem check``
                 shows it): float32 division ``fdiv`` (4), ``sqrt`` (5), a
                 float sum/product reduction or custom combine (11), a scan
                 (20) or ``dot`` (27); the row names which;
- ``differ``     anything else (an integer element, or a float one with no
                 such operation to explain it): a finding;
- ``triton-error`` real Triton did not run it (its message).

with the differing elements' count and largest ulp distance per buffer.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

import triton_run  # beside this file; its dtype table (no torch needed)

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


def ulp_key(bits, width):
    """A float's bits as an integer whose order is the floats' order (so that
    the difference of two keys is their distance in ulp)."""
    sign = 1 << (width - 1)
    return -(bits & (sign - 1)) if bits & sign else bits


def float_width(dtype):
    """The width of a float dtype of a result (any name `triton_run` knows
    for it); None for other dtypes."""
    try:
        kind, bits, _ = triton_run.DTYPES[triton_run.canon_dtype(dtype)]
    except triton_run.InputError:
        return None
    return bits if kind == "float" else None


def compare_buffers(ours, theirs):
    """Per buffer: (differing elements, the largest ulp distance among floats,
    whether every differing element is one ksem marks inexact beyond the
    bound, whether any differing element is of an integer buffer)."""
    out = {}
    for name, a in ours["buffers"].items():
        b = theirs["buffers"].get(name)
        if b is None or len(b["bits"]) != len(a["bits"]):
            out[name] = {"problem": "missing or of another length on Triton"}
            continue
        width = float_width(a["dtype"])
        inexact = set(a.get("inexact_elements", []))
        n, worst, all_inexact = 0, 0, True
        for i, (x, y) in enumerate(zip(a["bits"], b["bits"])):
            x, y = int(x, 16), int(y, 16)
            if x == y:
                continue
            u = abs(ulp_key(x, width) - ulp_key(y, width)) if width else None
            if i in inexact and u is not None and u <= 8:
                continue
            n += 1
            if u is not None:
                worst = max(worst, u)
            all_inexact &= i in inexact
        if n:
            out[name] = {"differ": n, "of": len(a["bits"]), "max_ulp": worst if width else None,
                         "float": width is not None, "all_inexact": all_inexact}
    return out


#: operations real Triton computes differently from ksem on floats, by
#: docs/divergences.md: (pattern in `ksem check`'s output, divergence)
DOCUMENTED = [
    (re.compile(r"\bfdiv\(.*:fp32"), "#4 fp32 division"),
    (re.compile(r"\bsqrt\("), "#5 sqrt"),
    (re.compile(r"reduce\[(Sum|Prod|custom)"), "#11 reduction order"),
    (re.compile(r"\bscan\["), "#20 scan order"),
    (re.compile(r"\bdot\["), "#27 dot"),
]


def documented_ops(o, py, launch):
    """The documented divergences whose operations `ksem check` shows on
    float values in the kernel."""
    p = subprocess.run([o.ksem, "check", py, "--launch", launch], capture_output=True, text=True,
                       errors="replace", timeout=o.timeout)
    found = []
    for pat, what in DOCUMENTED:
        if any(pat.search(ln) and re.search(r":(fp|bf)\d+", ln) for ln in p.stdout.splitlines()):
            found.append(what)
    return found


class TritonWorker:
    """One `tools/triton_run.py --serve` process for the whole survey."""

    def __init__(self, python, options, timeout):
        here = os.path.dirname(os.path.abspath(__file__))
        self.cmd = [python, os.path.join(here, "triton_run.py"), "--serve"]
        self.options = options
        self.timeout = timeout
        self.p = None

    def start(self):
        env = dict(os.environ, KSEM_TRITON_STUB_IMPORTS="1",
                   KSEM_TRITON_CASE_TIMEOUT=str(self.timeout))
        self.p = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env=env)

    def run(self, program, launch):
        """The worker's answer; a worker that died (a case past the time
        limit ends it, its stacks on stderr) is started again for the next."""
        if self.p is None or self.p.poll() is not None:
            self.start()
        with open(launch) as fh:
            spec = json.load(fh)
        req = {"program": os.path.abspath(program), "launch": spec, "options": self.options}
        try:
            self.p.stdin.write(json.dumps(req) + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.p.wait()
            self.p = None
            raise RuntimeError(f"no answer within {self.timeout:g} s (the worker's stacks are on stderr)")
        return json.loads(line)


def against_triton(o, d, name, worker):
    """The comparison of one kernel that ran on ksem with real Triton."""
    py = os.path.join(d, name + ".py")
    launch = os.path.join(d, name + ".json")
    p = subprocess.run([o.ksem, "run", py, "--launch", launch, "--json"], capture_output=True,
                       text=True, errors="replace", timeout=o.timeout)
    ours = json.loads(p.stdout)
    try:
        theirs = worker.run(py, launch)
    except RuntimeError as e:
        return {"vs_triton": "triton-error", "triton_error": str(e)}
    if "error" in theirs:
        return {"vs_triton": "triton-error", "triton_error": theirs["error"][:300]}
    stubbed = {"stubbed": theirs["stubbed"]} if theirs.get("stubbed") else {}
    bufs = compare_buffers(ours, theirs)
    if not bufs:
        return {"vs_triton": "agree", "buffers": {}, **stubbed}
    if any("problem" in b or not b["float"] for b in bufs.values()):
        verdict = "differ"
    elif all(b["all_inexact"] for b in bufs.values()):
        verdict = "inexact"
    else:
        ops = documented_ops(o, py, launch)
        verdict = "documented" if ops else "differ"
        stubbed["divergences"] = ops
    return {"vs_triton": verdict, "buffers": bufs, **stubbed}


def describe(r):
    if r.get("vs_triton") == "triton-error":
        return r["triton_error"][:140]
    parts = []
    for name, b in sorted(r.get("buffers", {}).items()):
        if "problem" in b:
            parts.append(f"{name}: {b['problem']}")
        else:
            ulp = f", max {b['max_ulp']} ulp" if b["max_ulp"] is not None else ""
            parts.append(f"{name}: {b['differ']}/{b['of']}{ulp}")
    if r.get("divergences"):
        parts.append("(" + ", ".join(r["divergences"]) + ")")
    return "; ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--ksem", default="target/release/ksem")
    ap.add_argument("--json", help="write the rows and counts here")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--against", choices=["triton"],
                    help="also run the kernels that ran on real Triton and compare")
    ap.add_argument("--cases", help="only the cases whose name matches this regular expression")
    ap.add_argument("--triton-python", default=sys.executable)
    ap.add_argument("--triton-options", default='{"enable_fp_fusion": false}',
                    help="Triton compile options (JSON) for --against triton")
    o = ap.parse_args()
    names = sorted(fn[:-3] for fn in os.listdir(o.dir)
                   if fn.endswith(".py") and os.path.exists(os.path.join(o.dir, fn[:-3] + ".json")))
    if o.cases:
        names = [n for n in names if re.search(o.cases, n)]
    rows = []
    worker = None
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
        if o.against and r["outcome"] == "ran":
            if worker is None:
                worker = TritonWorker(o.triton_python, json.loads(o.triton_options), o.timeout)
            r.update(against_triton(o, o.dir, name, worker))
            print(f'  vs triton: {r["vs_triton"]:12} {describe(r)}', flush=True)
            if r.get("stubbed"):
                print(f'    stubbed on the Triton side: {", ".join(r["stubbed"])[:300]}', flush=True)
    counts = {}
    for r in rows:
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    reasons = {}
    for r in rows:
        if r["outcome"] == "refused":
            reasons.setdefault(reason(r["why"]), []).append(r["case"])
    print()
    print(f"{len(rows)} kernels: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if o.against:
        vs = {}
        for r in rows:
            if "vs_triton" in r:
                vs.setdefault(r["vs_triton"], []).append(r["case"])
        counts["vs_triton"] = {k: len(v) for k, v in vs.items()}
        print(f"\nagainst real Triton ({sum(len(v) for v in vs.values())} compared):")
        for k in ("agree", "inexact", "documented", "differ", "triton-error"):
            if k in vs:
                print(f"  {k:12} {len(vs[k]):3}  {', '.join(vs[k])}")
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
