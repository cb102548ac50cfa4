"""What real TileLang builds when host code asks about the device: a factory
whose grid is `driver.get_num_sms()` and whose values come from a helper
branching on `torch.cuda.get_device_capability()`, built and run on the C
target through tools/tilelang_run.py with the launch's "target" answering
those queries (a CPU machine has no device to ask). Prints one JSON object:
{"program": SOURCE, "cases": [{"target": {...}, "C": [ints]}, ...]};
tests/tests/tilelang_host.rs runs the same program and launches on ksem.
Run with tilelang 0.1.15 installed:
python3 tools/probes/tilelang/host_target.py > tools/probes/tilelang/host_target.json
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))
import tilelang_run  # noqa: E402

PROGRAM = '''import torch
import tilelang
import tilelang.language as T
from tilelang.carver.arch import driver


def get_configs():
    major, minor = torch.cuda.get_device_capability()
    if major * 10 + minor == 80:
        return 10
    return 20 + major


def make():
    sm_num = driver.get_num_sms()
    base = get_configs()

    @T.prim_func
    def main(C: T.Tensor((140,), "int32")):
        with T.Kernel(sm_num, threads=1) as bx:
            C[bx] = base + bx

    return main
'''

TARGETS = [{"num_sms": 3, "capability": [8, 0]}, {}, {"num_sms": 5, "capability": [12, 0]}]

with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "host_target_program.py")
    with open(path, "w") as f:
        f.write(PROGRAM)
    cases = []
    for t in TARGETS:
        launch = {"kernel": "make", "target": t, "args": {"C": {"buffer": {"dtype": "int32", "len": 140}}}}
        out, err = tilelang_run.quiet_run(path, launch)
        if err:
            sys.exit(err)
        bits = out["buffers"]["C"]["bits"]
        cases.append({"target": t, "C": [int(b, 16) for b in bits]})
print(json.dumps({"program": PROGRAM, "cases": cases}))
