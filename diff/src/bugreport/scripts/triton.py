"""Finding __NAME__ against Triton, written by `ksem triage --bug-report` (a draft).

Runs the kernel below on real Triton (no ksem) with the finding's inputs and
compares the buffers that differed with EXPECTED. EXPECTED holds ksem's
bits: before filing, compute them independently here (plain Python) and
explain them in README.md. Launched with enable_fp_fusion=False, as ksem's
campaigns run Triton (contraction is docs/divergences.md #3).

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0;
TRITON_INTERPRET=1 python3 repro.py runs Triton's interpreter on the CPU)
"""
import json

import torch

# ---- the finding's program, verbatim ----
# __PROGRAM__
# ---- the launch ----
LAUNCH = json.loads(r'''__LAUNCH__''')
EXPECTED = json.loads(r'''__EXPECTED__''')
KERNEL = __KERNEL__

# __COMMON__
# __TORCH_BITS__


def main():
    import triton
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    gpu = torch.cuda.get_device_name() if dev == "cuda" else "cpu (TRITON_INTERPRET=1)"
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, GPU {gpu}")
    args = {}
    for name, spec in LAUNCH["args"].items():
        (kind, v), = spec.items()
        if kind == "buffer":
            args[name] = make(v["dtype"], v["bits"], dev)
        elif kind == "scalar":
            args[name] = v["value"]
        else:
            args[name] = v
    KERNEL[tuple(LAUNCH["grid"])](**args, enable_fp_fusion=False)
    report({name: bits_of(want["dtype"], args[name]) for name, want in EXPECTED.items()})


if __name__ == "__main__":
    main()
