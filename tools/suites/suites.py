#!/usr/bin/env python3
"""Fixed, reproducible samples of the anchors' own test suites, run under the
anchor's interpreter or under ksem's pytest plugin, with per-test outcomes.

    # Triton's language tests (../shared/suites/triton): collect every id of
    # the four files Triton's CI runs under its interpreter, keep the first N
    # ids of each test function in collection order (collection order is
    # deterministic: parametrize order), and write them to IDS.
    python tools/suites/suites.py triton-sample --per-function 25 --out IDS
    # run them (TRITON_INTERPRET=1 always; --ksem switches the plugin on)
    python tools/suites/suites.py triton-run --ids IDS --out RESULT.json [--ksem]

    # CI: the tests triton_ci_expected.txt lists must all pass on ksem
    python tools/suites/suites.py triton-ci

    # numba-cuda's cudapy tests (in the numba-cuda wheel): one pytest process
    # per module, NUMBA_ENABLE_CUDASIM=1 always
    python tools/suites/suites.py numba-run --modules M1,M2,… --out RESULT.json [--ksem]

    # compare two runs test by test (report: the same as markdown tables)
    python tools/suites/suites.py compare ANCHOR.json KSEM.json [--list]
    python tools/suites/suites.py report ANCHOR.json KSEM.json

`--python` picks the interpreter that has torch/triton/numba and ksem
installed (default: this one); `--suites` the folder holding the suites'
configuration (default: ../shared/suites beside the repository). RESULT.json
holds the counts, the command, every test's outcome and, for failures, the
first line of the message; the `ksem: …` summary line of the plugin, when on.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SUITES = os.path.join(os.path.dirname(REPO), "shared", "suites")
TRITON_FILES = [
    "language/test_core.py",
    "language/test_standard.py",
    "language/test_random.py",
    "language/test_tuple.py",
]
# numba-cuda's cudapy test modules: all of them (`numba-run` without
# --modules), found in the installed wheel by `--python`.
def numba_modules(python: str) -> list:
    code = ("import os, numba.cuda.tests.cudapy as m; "
            "print(' '.join(sorted(f[:-3] for f in os.listdir(os.path.dirname(m.__file__)) "
            "if f.startswith('test_') and f.endswith('.py'))))")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    return subprocess.run([python, "-c", code], capture_output=True, text=True, env=env, check=True).stdout.split()


def triton_dir(args) -> str:
    return os.path.join(args.suites, "triton", "python", "test", "unit")


def triton_sample(args) -> None:
    env = dict(os.environ, TRITON_INTERPRET="1")
    cmd = [args.python, "-m", "pytest", "-m", "interpreter", "--device=cpu", "--collect-only", "-q",
           "-p", "no:cacheprovider", *TRITON_FILES]
    out = subprocess.run(cmd, cwd=triton_dir(args), env=env, capture_output=True, text=True)
    ids = [line.strip() for line in out.stdout.splitlines() if "::" in line]
    if not ids:
        sys.exit(f"no ids collected:\n{out.stdout}\n{out.stderr}")
    per = collections.Counter()
    kept = []
    for nodeid in ids:
        func = nodeid.split("[", 1)[0]
        if per[func] < args.per_function:
            per[func] += 1
            # ids are relative to the rootdir (the suite's top, where
            # pytest.ini is); the run starts in python/test/unit
            kept.append(re.sub(r"^python/test/unit/", "", nodeid))
    with open(args.out, "w") as f:
        f.write("\n".join(kept) + "\n")
    print(f"{len(ids)} ids collected, {len(per)} test functions, {len(kept)} kept (≤ {args.per_function} each) → {args.out}")


def _junit(path: str) -> dict:
    """nodeid-ish name → (outcome, message) from a junit XML file."""
    tests = {}
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        outcome, msg = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, msg = ("failed" if child.tag == "failure" else "error"), (child.get("message") or "")
            elif child.tag == "skipped":
                kind = child.get("type") or ""
                outcome = "xfailed" if "xfail" in kind else "skipped"
                msg = child.get("message") or ""
        tests[name] = (outcome, msg.strip().splitlines()[0][:300] if msg.strip() else "")
    return tests


def _ksem_line(text: str) -> list:
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("ksem: ") and "kernel launches ran on ksem" in line:
            rest = []
            for more in lines[i + 1:]:
                if not more.startswith("  "):
                    break
                rest.append(more)
            return [line] + rest
    return []


def _save(args, cmd, tests, seconds, ksem_lines, extra=None) -> None:
    counts = collections.Counter(o for o, _ in tests.values())
    result = {
        "command": cmd,
        "ksem": args.ksem,
        "seconds": round(seconds, 1),
        "counts": dict(sorted(counts.items())),
        "ksem_summary": ksem_lines,
        "tests": {k: list(v) for k, v in sorted(tests.items())},
    }
    if extra:
        result.update(extra)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps({k: result[k] for k in ("counts", "seconds")}))
    for line in ksem_lines:
        print(line)


def triton_run(args) -> None:
    env = dict(os.environ, TRITON_INTERPRET="1")
    if args.ksem:
        env["KSEM_INTERPRET"] = "1"
    else:
        env.pop("KSEM_INTERPRET", None)
    ids = os.path.abspath(args.ids)
    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "junit.xml")
        cmd = [args.python, "-m", "pytest", "-m", "interpreter", "--device=cpu", "-p", "no:cacheprovider",
               "-q", "-rN", f"--junitxml={xml}", f"--timeout={args.timeout}", *args.extra, f"@{ids}"]
        t0 = time.time()
        out = subprocess.run(cmd, cwd=triton_dir(args), env=env, capture_output=True, text=True)
        seconds = time.time() - t0
        if not os.path.exists(xml):
            sys.exit(f"pytest wrote no results (exit {out.returncode}):\n{out.stdout[-4000:]}\n{out.stderr[-4000:]}")
        tests = _junit(xml)
    shown = " ".join(c if c != f"@{ids}" else f"@{args.ids}" for c in cmd[1:])
    _save(args, f"cd {triton_dir(args)} && TRITON_INTERPRET=1 {'KSEM_INTERPRET=1 ' if args.ksem else ''}python {shown}",
          tests, seconds, _ksem_line(out.stdout))


def numba_run(args, folder: str | None = None) -> dict:
    folder = folder or os.path.join(args.suites, "numba-cuda")
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", NUMBA_CUDA_TEST_BIN_DIR=folder)
    if args.ksem:
        env["KSEM_INTERPRET"] = "1"
    else:
        env.pop("KSEM_INTERPRET", None)
    modules = args.modules.split(",") if args.modules else numba_modules(args.python)
    tests, ksem_lines, seconds = {}, [], 0.0
    launched = refused = 0
    with tempfile.TemporaryDirectory() as tmp:
        for m in modules:
            xml = os.path.join(tmp, f"{m}.xml")
            cmd = [args.python, "-m", "pytest", "-c", os.path.join(folder, "pytest.ini"), folder,
                   "-p", "no:cacheprovider", "-q", "-rN", f"--junitxml={xml}", f"--timeout={args.timeout}",
                   *args.extra, f"numba.cuda.tests.cudapy.{m}"]
            t0 = time.time()
            out = subprocess.run(cmd, cwd=folder, env=env, capture_output=True, text=True)
            seconds += time.time() - t0
            if not os.path.exists(xml):
                tests[f"{m}::<module>"] = ("error", f"pytest exit {out.returncode}: no results")
                continue
            # junit names carry no module here: prefix it (class names repeat)
            tests.update({f"{m}::{k.lstrip('.:')}": v for k, v in _junit(xml).items()})
            lines = _ksem_line(out.stdout)
            if lines:
                got = re.match(r"ksem: (\d+) kernel launches ran on ksem, (\d+) refused", lines[0])
                if got:
                    launched += int(got.group(1))
                    refused += int(got.group(2))
                ksem_lines += [f"[{m}] {line}" for line in lines]
            print(f"{m}: {dict(collections.Counter(o for k, (o, _) in tests.items() if k.startswith(f'{m}::')))}",
                  file=sys.stderr)
    cmd_shown = (f"cd {folder} && NUMBA_ENABLE_CUDASIM=1 NUMBA_CUDA_TEST_BIN_DIR={folder} "
                 f"{'KSEM_INTERPRET=1 ' if args.ksem else ''}python -m pytest -c {folder}/pytest.ini {folder} "
                 f"numba.cuda.tests.cudapy.MODULE  (one process per module: {len(modules)} modules)")
    total = [f"ksem (all modules): {launched} kernel launches ran on ksem, {refused} refused"] if args.ksem else []
    if args.out:
        _save(args, cmd_shown, tests, seconds, total + ksem_lines, {"modules": modules})
    return tests


HERE = os.path.dirname(os.path.abspath(__file__))


def numba_ci(args) -> None:
    """The CI sample: the modules of `numba_ci_expected.txt` with kernels on
    ksem (this folder's own pytest.ini and conftest.py, so numba-cuda's
    files are not needed); fails unless every listed test passes."""
    with open(os.path.join(HERE, "numba_ci_expected.txt")) as f:
        lines = [line.strip() for line in f]
    expected = [line for line in lines if line and not line.startswith("#")]
    modules = sorted({t.split("::")[0] for t in expected})
    args.modules, args.ksem, args.out = ",".join(modules), True, None
    tests = numba_run(args, os.path.join(HERE, "numba_ci"))
    missed = [(t, tests.get(t, ("missing", ""))) for t in expected if tests.get(t, ("missing",))[0] != "passed"]
    print(f"numba-ci: {len(expected) - len(missed)} of {len(expected)} expected tests passed on ksem "
          f"({len(modules)} modules)")
    for t, (o, m) in missed:
        print(f"  {o}: {t}: {m}")
    sys.exit(1 if missed else 0)


def _triton_key(nodeid: str) -> str:
    """The result key (junit's `classname::name`) of a sample id
    (`language/test_core.py::test_abs[float16]`)."""
    path, rest = nodeid.split("::", 1)
    return "python.test.unit." + path[:-3].replace("/", ".") + "::" + rest


def _triton_nodeid(key: str) -> str:
    """The id (`language/test_core.py::test_abs[float16]`) of a result key
    (`python.test.unit.language.test_core::test_abs[float16]`), the inverse
    of `_triton_key`."""
    mod, rest = key.split("::", 1)
    prefix = "python.test.unit."
    if not mod.startswith(prefix):
        sys.exit(f"triton-ci: {key} is not a test of python/test/unit")
    return mod[len(prefix):].replace(".", "/") + ".py::" + rest


def triton_ci(args) -> None:
    """The CI run: the tests `triton_ci_expected.txt` lists (result keys of
    Triton's whole interpreter suite that its interpreter and ksem passed),
    run under TRITON_INTERPRET=1 with the plugin on; fails unless every
    listed test passes on ksem."""
    with open(os.path.join(HERE, "triton_ci_expected.txt")) as f:
        expected = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    by_key = {t: _triton_nodeid(t) for t in expected}
    with tempfile.TemporaryDirectory() as tmp:
        ids = os.path.join(tmp, "ids.txt")
        with open(ids, "w") as f:
            f.write("\n".join(by_key[t] for t in expected) + "\n")
        args.ids, args.ksem, args.out = ids, True, os.path.join(tmp, "result.json")
        triton_run(args)
        with open(args.out) as f:
            tests = json.load(f)["tests"]
    missed = [(t, tests.get(t, ["missing", ""])) for t in expected if tests.get(t, ["missing"])[0] != "passed"]
    print(f"triton-ci: {len(expected) - len(missed)} of {len(expected)} expected tests passed on ksem")
    for t, (o, m) in missed:
        print(f"  {o}: {t}: {m}")
    sys.exit(1 if missed else 0)


def compare(args) -> None:
    a, b = (json.load(open(p)) for p in (args.anchor, args.ksem_result))
    print(f"anchor: {a['counts']}  ({a['seconds']} s)")
    print(f"ksem:   {b['counts']}  ({b['seconds']} s)")
    lost = [(k, b["tests"].get(k, ["missing", ""])) for k, (o, _) in a["tests"].items()
            if o == "passed" and b["tests"].get(k, ["missing"])[0] != "passed"]
    print(f"passed under the anchor, not under ksem: {len(lost)}")
    causes = collections.Counter()
    for _, (o, msg) in lost:
        causes[_cause(msg) if o in ("failed", "error") else o] += 1
    for c, n in causes.most_common(args.top):
        print(f"{n:5d}  {c}")
    if args.list:
        for k, (o, msg) in lost:
            print(f"{o:8s} {k}  {msg[:200]}")


def _cause(msg: str) -> str:
    """A failure message with its specifics (the location, the exception's
    module path, numbers, quoted values) blanked, so that failures of one
    cause collapse; names in backquotes (the builtin or intrinsic) are kept."""
    m = re.sub(r"^ksem\.pytest_plugin\.", "", msg)
    m = re.sub(r"(Ksem\w+Error: )?(\S*?):\d+:\d+: ", r"\1", m)
    m = re.sub(r"'[^']*'", "'…'", m)
    m = re.sub(r"\bargument `[^`]*`", "argument `…`", m)
    m = re.sub(r"\d+", "N", m)
    return m[:150]


def report(args) -> None:
    """Markdown: the counts side by side, then the tests the anchor passes
    and ksem does not, grouped by cause (most first)."""
    a, b = (json.load(open(p)) for p in (args.anchor, args.ksem_result))
    keys = sorted(set(a["counts"]) | set(b["counts"]))
    print("| | " + " | ".join(keys) + " | seconds |")
    print("| --- | " + " | ".join("---" for _ in keys) + " | --- |")
    for name, r in (("anchor", a), ("ksem", b)):
        print(f"| {name} | " + " | ".join(str(r["counts"].get(k, 0)) for k in keys) + f" | {r['seconds']} |")
    print()
    lost = [(k, b["tests"].get(k, ["missing", ""])) for k, (o, _) in a["tests"].items()
            if o == "passed" and b["tests"].get(k, ["missing"])[0] != "passed"]
    causes = collections.defaultdict(list)
    for k, (o, msg) in lost:
        causes[_cause(msg) if o in ("failed", "error") else o].append(k)
    print(f"{len(lost)} tests pass under the anchor and not under ksem:")
    print()
    print("| tests | cause (ksem's message, specifics blanked) | e.g. |")
    print("| ---: | --- | --- |")
    for c, ks in sorted(causes.items(), key=lambda kv: -len(kv[1]))[: args.top]:
        c = c.replace("|", "\\|")
        print(f"| {len(ks)} | {c} | `{ks[0].split('::')[-1][:60]}` |")
    rest = sorted(causes.items(), key=lambda kv: -len(kv[1]))[args.top:]
    if rest:
        print(f"| {sum(len(v) for _, v in rest)} | {len(rest)} other causes | |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--python", default=sys.executable)
    p.add_argument("--suites", default=DEFAULT_SUITES)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("triton-sample")
    s.add_argument("--per-function", type=int, default=25)
    s.add_argument("--out", required=True)
    s.set_defaults(func=triton_sample)
    r = sub.add_parser("triton-run")
    r.add_argument("--ids", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--ksem", action="store_true")
    r.add_argument("--timeout", type=int, default=300)
    r.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    r.set_defaults(func=triton_run)
    n = sub.add_parser("numba-run")
    n.add_argument("--modules", default="")
    n.add_argument("--out", required=True)
    n.add_argument("--ksem", action="store_true")
    n.add_argument("--timeout", type=int, default=300)
    n.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    n.set_defaults(func=numba_run)
    ci = sub.add_parser("numba-ci", help="CI: the sample of numba_ci_expected.txt must pass on ksem")
    ci.add_argument("--timeout", type=int, default=300)
    ci.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    ci.set_defaults(func=numba_ci)
    tci = sub.add_parser("triton-ci", help="CI: the tests triton_ci_expected.txt lists must pass on ksem")
    tci.add_argument("--timeout", type=int, default=300)
    tci.add_argument("extra", nargs="*", help="more pytest arguments (after --)")
    tci.set_defaults(func=triton_ci)
    c = sub.add_parser("compare")
    c.add_argument("anchor")
    c.add_argument("ksem_result")
    c.add_argument("--top", type=int, default=25)
    c.add_argument("--list", action="store_true")
    c.set_defaults(func=compare)
    rp = sub.add_parser("report")
    rp.add_argument("anchor")
    rp.add_argument("ksem_result")
    rp.add_argument("--top", type=int, default=30)
    rp.set_defaults(func=report)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
