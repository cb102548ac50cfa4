"""Triton: tl.argmax / tl.argmin of a 2-D tile reshaped to 1-D return wrong
indices (divergence 26, measured on an H100 from ksem's fuzzer).

A (4, 32) int32 tile is loaded from x with offsets `r * 32 + c` (so its
row-major order is x[0:128]) or with the overlapping offsets `r + c`;
`tl.reshape(t, (128,))` keeps row-major order, so argmin/argmax of the
reshaped tile are row-major positions k = r * 32 + c. Each result is stored
broadcast over 16 elements (a scalar: all 16 must be equal).

`probe` is the fuzzer's reduced program (comparison before the reshape, four
reductions in one kernel); `reshape_first` compares after the reshape;
`direct` loads 128 elements as a 1-D tile (the control).

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import random

import torch
import triton
import triton.language as tl


@triton.jit
def probe(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    c = tl.arange(0, 32)
    a = tl.load(x_ptr + tl.reshape(r, (4, 1)) * 32 + tl.reshape(c, (1, 32)))
    b = tl.load(x_ptr + tl.reshape(r, (4, 1)) + tl.reshape(c, (1, 32)))
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.broadcast_to(tl.argmax(tl.reshape(7 > a, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 16 + o, tl.broadcast_to(tl.argmax(tl.reshape(7 > b, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 32 + o, tl.broadcast_to(tl.argmin(tl.reshape(a, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 48 + o, tl.broadcast_to(tl.argmin(tl.reshape(b, (128,)), axis=0), (16,)))


@triton.jit
def probe_a_only(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    c = tl.arange(0, 32)
    a = tl.load(x_ptr + r[:, None] * 32 + c[None, :])
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.broadcast_to(tl.argmax(tl.reshape(7 > a, (128,)), axis=0), (16,)))
    tl.store(o_ptr + 32 + o, tl.broadcast_to(tl.argmin(tl.reshape(a, (128,)), axis=0), (16,)))


@triton.jit
def reshape_first(x_ptr, o_ptr):
    r = tl.arange(0, 4)
    c = tl.arange(0, 32)
    flat = tl.reshape(tl.load(x_ptr + r[:, None] * 32 + c[None, :]), (128,))
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.broadcast_to(tl.argmax(7 > flat, axis=0), (16,)))
    tl.store(o_ptr + 32 + o, tl.broadcast_to(tl.argmin(flat, axis=0), (16,)))


@triton.jit
def direct(x_ptr, o_ptr):
    flat = tl.load(x_ptr + tl.arange(0, 128))
    o = tl.arange(0, 16)
    tl.store(o_ptr + o, tl.broadcast_to(tl.argmax(7 > flat, axis=0), (16,)))
    tl.store(o_ptr + 32 + o, tl.broadcast_to(tl.argmin(flat, axis=0), (16,)))


def first(xs, pred):
    return next(k for k, v in enumerate(xs) if pred(v))


def expected(x):
    """[argmax(7 > a), argmax(7 > b), argmin(a), argmin(b)] with a, b the
    tiles flattened row-major; argmax of bools is the first True, argmin the
    first minimum (Triton's default tie_break_left=True)."""
    a = [x[r * 32 + c] for r in range(4) for c in range(32)]
    b = [x[r + c] for r in range(4) for c in range(32)]
    return [first(a, lambda v: 7 > v), first(b, lambda v: 7 > v),
            first(a, lambda v: v == min(a)), first(b, lambda v: v == min(b))]


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    # The fuzzer's input: 10 everywhere, -3 at 5 and 70, 0 at 20, 37, 67, 96.
    x1 = [10] * 128
    for i in (5, 70):
        x1[i] = -3
    for i in (20, 37, 67, 96):
        x1[i] = 0
    # A permutation of 0..127 (no ties; 7 values below 7).
    x2 = list(range(128))
    random.Random(1).shuffle(x2)
    bug = []
    names = ["argmax(7 > a)", "argmax(7 > b)", "argmin(a)", "argmin(b)"]
    for label, x in (("fuzzer input", x1), ("permutation", x2)):
        want = expected(x)
        print(f"{label}: expected " + ", ".join(f"{n} = {w}" for n, w in zip(names, want)))
        xt = torch.tensor(x, dtype=torch.int32, device="cuda")
        for kernel, slots in ((probe, (0, 1, 2, 3)), (probe_a_only, (0, 2)), (reshape_first, (0, 2)), (direct, (0, 2))):
            out = torch.full((64,), -1, dtype=torch.int32, device="cuda")
            kernel[(1,)](xt, out)
            got = out.cpu().tolist()
            parts = []
            for s in slots:
                vals = sorted(set(got[s * 16:(s + 1) * 16]))
                ok = vals == [want[s]]
                parts.append(f"{names[s]} = {vals[0] if len(vals) == 1 else vals}{'' if ok else ' WRONG'}")
                if not ok and kernel is not direct:
                    bug.append(f"{kernel.fn.__name__} {names[s]} on the {label}")
            print(f"  {kernel.fn.__name__:13s}: " + ", ".join(parts))
    if bug:
        print("BUG REPRODUCED: wrong index after tl.reshape in", "; ".join(bug))
    else:
        print("NOT REPRODUCED: every reshaped reduction gives the row-major index")


if __name__ == "__main__":
    main()
