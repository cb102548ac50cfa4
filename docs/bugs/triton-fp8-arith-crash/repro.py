"""Triton: arithmetic on fp8 tiles (`a + b`, `a * b` of two float8e5 or
float8e4nv tiles, `tl.sum` of a float8e5 tile) type-checks in the front end
(the result is typed fp8) and then crashes the compiler's backend:
"PassManager::run failed", with an 'llvm.fadd' op given an i8 operand.

Mixing an int with fp8 is refused cleanly by the front end (TypeError); the
same-type fp8 operations are not refused, so the user gets an internal
compiler failure. Expected: either a clean front-end error, or a kernel.
If a kernel comes out, its results are checked against the exact result
rounded once to the fp8 type (every input and result below is exact in fp8,
so there is no rounding question).

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import traceback

import torch
import triton
import triton.language as tl


@triton.jit
def add(a_ptr, b_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.load(a_ptr + offs) + tl.load(b_ptr + offs))


@triton.jit
def mul(a_ptr, b_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.load(a_ptr + offs) * tl.load(b_ptr + offs))


@triton.jit
def total(a_ptr, b_ptr, o_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(o_ptr + offs, tl.broadcast_to(tl.sum(tl.load(a_ptr + offs), axis=0), (N,)))


def try_kernel(label, kernel, dtype, a, b, want):
    ta = torch.tensor(a, dtype=torch.float32, device="cuda").to(dtype)
    tb = torch.tensor(b, dtype=torch.float32, device="cuda").to(dtype)
    out = torch.empty(len(a), dtype=dtype, device="cuda")
    try:
        kernel[(1,)](ta, tb, out, N=len(a))
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001 - show what the compiler raised
        msg = "".join(traceback.format_exception_only(type(e), e)).strip()
        lines = [ln for ln in msg.splitlines() if ln.strip()]
        print(f"{label}: the compiler raised {type(e).__name__}:")
        for ln in lines[-6:]:
            print("    " + ln[:300])
        return "PassManager::run failed" in msg
    got = out.to(torch.float32).cpu().tolist()
    print(f"{label}: compiled; expected {want}, got {got} {'right' if got == want else 'WRONG'}")
    return False


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    a = [1.0, 1.25, 0.5, 3.0, 0.0, 2.0, -1.5, 4.0]
    b = [0.25, 0.25, 0.5, 3.0, 0.0, 3.0, 0.5, -2.0]
    # exact sums, products and total of these small values (all exact in e5m2 and e4m3)
    s = [x + y for x, y in zip(a, b)]
    p = [x * y for x, y in zip(a, b)]
    # tl.sum: ones and zeros, so every partial sum in any order (0..4) is exact
    ones = [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    t = [sum(ones)] * len(ones)
    crashed = []
    for label, kernel, dtype, x, y, want in (
        ("float8e5 + float8e5", add, torch.float8_e5m2, a, b, s),
        ("float8e4nv * float8e4nv", mul, torch.float8_e4m3fn, a, b, p),
        ("tl.sum of float8e5", total, torch.float8_e5m2, ones, ones, t),
    ):
        if try_kernel(label, kernel, dtype, x, y, want):
            crashed.append(label)
    if crashed:
        print("BUG REPRODUCED: the backend crashed (PassManager::run failed) on:", ", ".join(crashed))
    else:
        print("NOT REPRODUCED: no backend crash")


if __name__ == "__main__":
    main()
