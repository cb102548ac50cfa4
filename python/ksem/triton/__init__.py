"""``ksem.triton.jit``: Triton's launch syntax, run on ksem.

    @ksem.triton.jit            # or: add_kernel = ksem.triton.jit(add_kernel)
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr): ...

    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)

The function may be a plain function whose file imports ``triton`` /
``triton.language`` (or ksem's stand-ins ``ksem.triton`` /
``ksem.triton.language``), or an existing ``@triton.jit`` (or autotuned)
function. ksem reads the whole file and runs the kernel by name.
"""

from __future__ import annotations

import inspect

from .._host import Constexpr
from .._kernel import KernelSource, fix_columns, is_top_level, kernel_source, live_source, tl_dtype_name, unwrap
from .._ksem import KsemError
from .._launch import const_value
from .._run import Result, run_source

# Launch options of Triton that choose how the GPU runs a kernel, not what
# it computes: ksem's results do not depend on them.
_LAUNCH_OPTIONS = frozenset(
    {"num_warps", "num_stages", "num_ctas", "enable_fp_fusion", "maxnreg", "launch_cooperative_grid", "stream"}
)


# `*args` / `**kwargs`: not bound here (ksem's front end reports them).
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def cdiv(x: int, y: int) -> int:
    """``triton.cdiv``: x / y rounded up."""
    return (x + y - 1) // y


def _is_constexpr(annotation) -> bool:
    """A ``tl.constexpr`` annotation: the object (Triton's or ksem's
    stand-in) or, under ``from __future__ import annotations``, its text."""
    if isinstance(annotation, str):
        return annotation.endswith("constexpr")
    return getattr(annotation, "__name__", None) == "constexpr" or type(annotation).__name__ == "constexpr"


class JITFunction:
    """A Triton kernel that launches on ksem: ``kernel[grid](*args, **kwargs)``."""

    def __init__(self, fn):
        self._wrapped = fn
        self.fn = unwrap(fn)
        self.__name__ = self.fn.__name__
        self.__doc__ = self.fn.__doc__
        self._source: KernelSource | None = None

    @property
    def source(self) -> KernelSource:
        """The kernel's file, read at the first launch (its module is fully
        defined by then), for a kernel defined at the top level of its file;
        else the kernel read from the live function (its source, closure and
        globals: a kernel defined in a test function, or built by exec())."""
        if self._source is None:
            if is_top_level(self.fn):
                self._source = kernel_source(self.fn)
            else:
                return live_source(self._wrapped, "triton")
        return self._source

    def __getitem__(self, grid):
        def launcher(*args, **kwargs) -> Result:
            return self.run(*args, grid=grid, **kwargs)

        return launcher

    def run(self, *args, grid, warmup: bool = False, **kwargs) -> Result:
        """Launches on `grid` (a tuple or int, or a callable of the
        arguments by name, as Triton allows); returns ksem's result."""
        ks = self.source
        kwargs = {k: v for k, v in kwargs.items() if k not in _LAUNCH_OPTIONS}
        named = self._bind(ks, args, kwargs)
        if callable(grid):
            grid = grid(dict(named))
        launch_args = {}
        for p in ks.params:
            if p.name not in named:
                continue
            v = named[p.name]
            if _is_constexpr(p.annotation) or type(v).__name__ == "constexpr" or tl_dtype_name(v):
                launch_args[p.name] = Constexpr(const_value(p.name, v, ks.where))
            else:
                launch_args[p.name] = v
        try:
            return run_source(ks.file, ks.src, ks.name, grid, None, launch_args, "triton", where=ks.where)
        except KsemError as e:
            fixed = fix_columns(str(e), ks)
            if fixed == str(e):
                raise
            new = type(e)(fixed)
            for attr in ("reports", "result"):
                if hasattr(e, attr):
                    setattr(new, attr, getattr(e, attr))
            raise new from None

    def _bind(self, ks: KernelSource, args, kwargs) -> dict:
        names = [p.name for p in ks.params]
        if len(args) > len(names):
            raise KsemError(f"{ks.where}: error: `{ks.name}` takes {len(names)} arguments, {len(args)} given")
        named = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise KsemError(f"{ks.where}: error: `{ks.name}` has no parameter `{k}`")
            if k in named:
                raise KsemError(f"{ks.where}: error: `{ks.name}`: argument `{k}` given twice")
            named[k] = v
        required = [p for p in ks.params if p.default is inspect.Parameter.empty and p.kind not in _VARIADIC]
        missing = [p.name for p in required if p.name not in named]
        if missing:
            raise KsemError(f"{ks.where}: error: `{ks.name}`: no argument for {', '.join(missing)}")
        return named

    def __call__(self, *args, **kwargs):
        raise KsemError(
            f"`{self.__name__}` is a kernel: launch it as {self.__name__}[grid](…) "
            "(a @triton.jit helper is called from a kernel, where ksem reads it)"
        )


def jit(fn=None, **options):
    """``@ksem.triton.jit`` / ``@ksem.triton.jit(...)`` / ``ksem.triton.jit(f)``
    on a plain function or a ``@triton.jit`` one. Options are accepted and
    ignored as :data:`_LAUNCH_OPTIONS` are (they do not change results)."""
    if fn is None:
        return lambda f: JITFunction(f)
    return JITFunction(fn)


class ConstexprFunction:
    """``@ksem.triton.constexpr_function``: a plain Python function that a
    kernel calls on compile-time values (ksem runs its text while
    elaborating, as Triton runs the function while compiling); callable
    on the host as the function itself."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


def constexpr_function(fn):
    """``triton.constexpr_function``: see :class:`ConstexprFunction`."""
    return ConstexprFunction(fn)


__all__ = ["jit", "JITFunction", "cdiv", "constexpr_function", "ConstexprFunction"]
