"""Per-call cost of running a small kernel from Python on ksem: a masked
vector add of 1024 float32 elements (4 programs of 256), launched through
``ksem.triton.jit`` as a test would (a module-level kernel, read with its
file, and one defined inside a function, read from the live function as the
pytest plugin reads kernels), and through ``ksem.run``.

    python python/bench_overhead.py

Prints the median and minimum time per call over repeated batches.
"""

import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import ksem
import ksem.triton

KERNEL = """\
import ksem.triton
import ksem.triton.language as tl


@ksem.triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)
"""


def per_call(f, calls: int, batches: int) -> tuple[float, float]:
    """(median, min) seconds per call of `f` over `batches` batches."""
    times = []
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times), min(times)


def _nested_kernel():
    """The same kernel defined inside a function (a closure over `tl`): ksem
    reads it from the live function (`ksem._kernel.live_source`) at every
    launch, as the pytest plugin reads the suites' kernels."""
    import ksem.triton.language as tl

    @ksem.triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    return add_kernel


def main() -> None:
    n = 1024
    x = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    y = np.ones(n, np.float32)
    out = np.zeros(n, np.float32)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "add_kernel.py"
        path.write_text(KERNEL)
        spec = importlib.util.spec_from_file_location("add_kernel_module", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        kernel = module.add_kernel
        live = _nested_kernel()
        cases = {
            "kernel[grid](…), kernel defined in a function (read live, as the pytest plugin reads it)":
                lambda: live[(4,)](x, y, out, n, BLOCK=256),
            "kernel[grid](x, y, out, n, BLOCK=256)": lambda: kernel[(4,)](x, y, out, n, BLOCK=256),
            "ksem.run(path, ...)": lambda: ksem.run(
                path, kernel="add_kernel", grid=4,
                args={"x_ptr": x, "y_ptr": y, "out_ptr": out, "n": n, "BLOCK": ksem.Constexpr(256)},
            ),
            "ksem.run(path, ..., threads=1)": lambda: ksem.run(
                path, kernel="add_kernel", grid=4, threads=1,
                args={"x_ptr": x, "y_ptr": y, "out_ptr": out, "n": n, "BLOCK": ksem.Constexpr(256)},
            ),
        }
        for name, f in cases.items():
            f()
            assert (out == x + y).all()
            med, best = per_call(f, calls=200, batches=5)
            print(f"{name}: median {med * 1e3:.3f} ms/call, best {best * 1e3:.3f} ms/call")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
