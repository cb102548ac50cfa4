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

import numpy as np

from . import _uninit
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
        return run_source(ks.file, ks.src, ks.name, grid, block, dict(zip(names, args)), "cudapy", where=ks.where,
                          namespace=getattr(self.py_func, "__globals__", None))

    def __call__(self, *args):
        raise KsemError(f"`{self.__name__}` is a kernel: launch it as {self.__name__}[grid, block](…)")


class DeviceArray(np.ndarray):
    """A numpy array standing for device memory (``cuda.device_array``):
    item assignment and ``copy_to_device`` are host writes, which define
    the whole array; ``copy_to_host`` returns a copy. (A write that bypasses
    them, such as ``np.copyto``, is not seen: the elements nobody wrote
    through them stay undefined to ksem.)"""

    def __setitem__(self, index, value):
        _uninit.written(self)
        super().__setitem__(index, value)

    def copy_to_device(self, ary, stream=0):
        """Copies `ary` into this array (a host write)."""
        self[...] = ary

    def copy_to_host(self, ary=None, stream=0):
        """This array's contents as a plain numpy array (into `ary` if given)."""
        if ary is None:
            return np.array(self, copy=True).view(np.ndarray)
        np.copyto(ary, self)
        return ary


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """``cuda.device_array``: a :class:`DeviceArray` that nobody has
    written. A kernel's read of an element before any write is reported (UB
    ``undefined-value`` where the value is used); the elements a kernel
    writes are defined from then on, and so is the whole array once the host
    writes into it."""
    a = np.ndarray(shape=shape, dtype=dtype, strides=strides, order=order).view(DeviceArray)
    return _uninit.mark_numpy(a)


def device_array_like(ary, stream=0):
    """``cuda.device_array_like``: :func:`device_array` of `ary`'s shape and dtype."""
    return device_array(np.shape(ary), np.asarray(ary).dtype)


def to_device(ary, stream=0):
    """``cuda.to_device``: a copy of `ary` (defined everywhere)."""
    return np.array(ary, copy=True)


def jit(fn_or_sig=None, device: bool = False, **options):
    """``@cuda.jit``, ``@cuda.jit(device=True)``, ``@cuda.jit("void(float32[:])")``
    as numba-cuda's; a numba dispatcher (``.py_func``) is wrapped too.
    Other options are accepted; ksem's results do not depend on them."""
    if fn_or_sig is None or isinstance(fn_or_sig, (str, list, tuple)):
        return lambda f: Dispatcher(f, device=device)
    return Dispatcher(fn_or_sig, device=device)


__all__ = ["jit", "Dispatcher", "device_array", "device_array_like", "to_device", "DeviceArray"]
