"""Triton: tl.argmax / tl.argmin over a float tile holding NaN give a
different result in different threads of one program.

A reduction to a scalar is one value per program. Broadcasting it over 16
elements and storing them must store 16 equal numbers, whatever index the
reduction picks for NaN. With NaN in the tile, Triton's butterfly reduction
combines (a, b) in some lanes and (b, a) in others; its argmax combine
(`gt = v1 > v2 or (v1 == v2 and i1 < i2)`, then `where(gt, 1, 2)`) is not
commutative when a NaN is compared, so the lanes end with different indices.

Run: python3 repro.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import math

import torch
import triton
import triton.language as tl


@triton.jit
def argmax_argmin(x_ptr, out_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    o = tl.arange(0, 16)
    # one scalar each, stored 16 times
    tl.store(out_ptr + o, tl.broadcast_to(tl.argmax(x, axis=0), (16,)))
    tl.store(out_ptr + 16 + o, tl.broadcast_to(tl.argmin(x, axis=0), (16,)))


def triton_combine_left_fold(values, greater):
    """Triton's own combine (standard.py, tie_break_left=True), folded left to
    right in plain Python: what a sequential reduction would return."""
    best_v, best_i = values[0], 0
    for i, v in enumerate(values[1:], start=1):
        take_left = greater(best_v, v) or (best_v == v and best_i < i)
        if not take_left:
            best_v, best_i = v, i
    return best_i


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    nan = float("nan")
    values = [1.0, nan, 0.0, nan, 3.0, -1.0, nan, 2.0]
    x = torch.tensor(values, dtype=torch.float32, device="cuda")
    out = torch.empty(32, dtype=torch.int32, device="cuda")
    argmax_argmin[(1,)](x, out, N=8)
    got = out.cpu().tolist()
    amax, amin = got[:16], got[16:]

    # Expected: every element of each 16-element group is the same index.
    # Which index is a matter of NaN policy; for reference:
    first_nan = next(i for i, v in enumerate(values) if math.isnan(v))
    no_nan = [v if not math.isnan(v) else None for v in values]
    ignore_max = max((v, -i) for i, v in enumerate(no_nan) if v is not None)
    ignore_min = min((v, i) for i, v in enumerate(no_nan) if v is not None)
    print("input:", values)
    print("expected: 16 equal indices per group; candidates: "
          f"NaN is the maximum (torch/numpy argmax) -> {first_nan}; NaN ignored (as tl.max does) -> "
          f"argmax {-ignore_max[1]}, argmin {ignore_min[1]}; Triton's combine folded left to right -> "
          f"argmax {triton_combine_left_fold(values, lambda a, b: a > b)}, "
          f"argmin {triton_combine_left_fold(values, lambda a, b: a < b)}")
    print("torch.argmax / torch.argmin on the same tensor:", int(torch.argmax(x)), int(torch.argmin(x)))
    print("actual argmax, stored 16 times:", amax)
    print("actual argmin, stored 16 times:", amin)
    if len(set(amax)) > 1 or len(set(amin)) > 1:
        print("BUG REPRODUCED: one reduction result differs between threads "
              f"(argmax {sorted(set(amax))}, argmin {sorted(set(amin))})")
    else:
        print("NOT REPRODUCED: every thread holds the same result")


if __name__ == "__main__":
    main()
