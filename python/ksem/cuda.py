"""``ksem.cuda.jit``: numba-cuda's launch syntax, run on ksem.

    from ksem import cuda           # or: from numba import cuda, with numba installed

    @cuda.jit
    def add(x, y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = x[i] + y[i]

    add[blocks, threads](x, y, out)

Python ints are passed as int64 and floats as float64, as numba passes
them. ksem reads the whole file (device functions, module constants) and
runs the kernel by name; ``cuda.*`` inside kernels is read by ksem, never
run by Python.
"""

from __future__ import annotations

from ._kernel import KernelSource, is_top_level, kernel_source, live_source, unwrap
from ._ksem import KsemError
from ._run import Result, run_source


class Dispatcher:
    """A CUDA Python kernel that launches on ksem: ``kernel[grid, block](*args)``."""

    def __init__(self, fn, device: bool = False):
        self._wrapped = fn
        self.py_func = unwrap(fn)
        self.__name__ = self.py_func.__name__
        self.__doc__ = self.py_func.__doc__
        self.device = device
        self._source: KernelSource | None = None

    @property
    def source(self) -> KernelSource:
        """The kernel's file for a kernel at the top level of its file, else
        the kernel read from the live function (closure, globals)."""
        if self._source is None:
            if is_top_level(self.py_func):
                self._source = kernel_source(self.py_func)
            else:
                return live_source(self._wrapped, "cudapy")
        return self._source

    def __getitem__(self, config):
        if self.device:
            raise KsemError(f"`{self.__name__}` is a device function: call it from a kernel")
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise KsemError(
                f"launch `{self.__name__}` as {self.__name__}[grid, block](…) (stream and shared memory may follow)"
            )
        grid, block = config[0], config[1]

        def launcher(*args) -> Result:
            return self._launch(grid, block, args)

        return launcher

    def _launch(self, grid, block, args) -> Result:
        ks = self.source
        names = [p.name for p in ks.params]
        if len(args) != len(names):
            raise KsemError(
                f"{ks.where}: error: `{ks.name}` takes {len(names)} arguments, {len(args)} given"
            )
        return run_source(ks.file, ks.src, ks.name, grid, block, dict(zip(names, args)), "cudapy", where=ks.where)

    def __call__(self, *args):
        raise KsemError(f"`{self.__name__}` is a kernel: launch it as {self.__name__}[grid, block](…)")


def jit(fn_or_sig=None, device: bool = False, **options):
    """``@cuda.jit``, ``@cuda.jit(device=True)``, ``@cuda.jit("void(float32[:])")``
    as numba-cuda's; a numba dispatcher (``.py_func``) is wrapped too.
    Other options are accepted; ksem's results do not depend on them."""
    if fn_or_sig is None or isinstance(fn_or_sig, (str, list, tuple)):
        return lambda f: Dispatcher(f, device=device)
    return Dispatcher(fn_or_sig, device=device)


__all__ = ["jit", "Dispatcher"]
