"""A Python kernel function's source as ksem reads it: the whole file it is
defined in (helpers and module constants included) under its real name, so
that diagnostics point into the user's file."""

from __future__ import annotations

import inspect
import linecache
from dataclasses import dataclass

from ._ksem import KsemError


@dataclass(frozen=True)
class KernelSource:
    """The file a kernel is defined in, its text, the kernel's name, its
    parameters and where its ``def`` is (for errors found on the Python side)."""

    file: str
    src: str
    name: str
    params: tuple
    where: str


def unwrap(obj):
    """The plain Python function under decorators that keep it as ``.fn``
    (Triton's JITFunction, Autotuner, Heuristics) or ``.py_func`` (numba)."""
    seen = 0
    while not inspect.isfunction(obj) and seen < 16:
        inner = getattr(obj, "fn", None) or getattr(obj, "py_func", None)
        if inner is None:
            break
        obj, seen = inner, seen + 1
    if not inspect.isfunction(obj):
        raise KsemError(f"{obj!r} is not a Python function ksem can read the source of")
    return obj


def kernel_source(fn) -> KernelSource:
    """Reads `fn`'s file (through linecache, as inspect does)."""
    file = inspect.getsourcefile(fn) or inspect.getfile(fn)
    lines = linecache.getlines(file, fn.__globals__)
    if not lines:
        raise KsemError(f"{file}: error: the source of `{fn.__name__}` cannot be read")
    line = fn.__code__.co_firstlineno
    params = tuple(inspect.signature(fn).parameters.values())
    return KernelSource(file, "".join(lines), fn.__name__, params, f"{file}:{line}:1")
