"""``ksem.run``: one launch of a kernel on ksem's reference interpreter,
in-process, with host arrays written back in place."""

from __future__ import annotations

import ast
import functools
import json
import os
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from . import _ksem, _raise, _uninit
from ._host import Constexpr, HostBuffer, stored_bytes, convert_arg, storage_dtype
from ._ksem import KsemError, UndefinedBehavior

# How many UB reports an UndefinedBehavior message shows in full.
_SHOWN_REPORTS = 5


@dataclass(frozen=True)
class UbReport:
    """One undefined-behaviour finding (the result JSON's fields); ``text``
    is ksem's diagnostic: ``file:line:col: undefined behaviour: kind: …
    (program (x,y,z)[, thread (x,y,z)], element [i])`` and the source excerpt."""

    kind: str
    line: int
    col: int
    program: tuple
    thread: tuple | None
    element: tuple
    message: str
    other: tuple | None
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class BufferResult:
    """A buffer's final contents: ``bits`` (unsigned integers of the dtype's
    stored width, exact), ``values`` (a numpy array of the dtype, where numpy
    has one; bfloat16 as float32, exactly; else ``None``), the elements
    that came from approximate math, and those that hold no defined value
    (of a buffer passed uninitialised, never written)."""

    name: str
    dtype: str
    bits: np.ndarray
    inexact: tuple
    undefined: tuple = ()

    @property
    def values(self) -> np.ndarray | None:
        if self.dtype == "bfloat16":
            return (self.bits.astype(np.uint32) << 16).view(np.float32)
        numpy_type = {"bool": np.bool_}.get(self.dtype, self.dtype)
        try:
            return self.bits.view(np.dtype(numpy_type))
        except TypeError:
            return None


@dataclass(frozen=True)
class Result:
    """What one run computed: every buffer by name, and the UB found."""

    kernel: str
    buffers: Mapping[str, BufferResult]
    ub: Sequence[UbReport] = field(default_factory=tuple)

    def __getitem__(self, name: str) -> BufferResult:
        return self.buffers[name]


def _source(source_or_path, file: str | None) -> tuple[str, str]:
    """(file name for diagnostics, source text) of a path or source text."""
    if isinstance(source_or_path, os.PathLike) or (
        isinstance(source_or_path, str) and "\n" not in source_or_path
    ):
        path = os.fspath(source_or_path)
        try:
            with open(path, encoding="utf-8") as f:
                return file or path, f.read()
        except OSError as e:
            raise KsemError(f"{path}: error: {e.strerror}") from None
    return file or "<string>", source_or_path


def _dims(name: str, d) -> list | None:
    if d is None:
        return None
    if isinstance(d, (int, np.integer)):
        return [int(d)]
    return [int(x) for x in d]


def run(
    source_or_path,
    kernel: str | None = None,
    grid=None,
    block=None,
    args: Mapping[str, Any] | None = None,
    dialect: str | None = None,
    factory_args: Mapping[str, Any] | None = None,
    config=None,
    *,
    file: str | None = None,
    where: str | None = None,
    raise_on_ub: bool = True,
    max_loop_iterations: int = 1 << 24,
    threads: int = 0,
) -> Result:
    """Runs `kernel` of a source file (a path, or source text with newlines)
    on ksem's reference interpreter.

    `args` maps parameter names to numpy arrays / torch CPU tensors
    (buffers, written back in place after the run), Python or numpy scalars
    (runtime scalars; a bare Python scalar is typed as the dialect's host
    types it), :class:`ksem.Scalar`, :class:`ksem.Constexpr`,
    :class:`ksem.Bits`. `grid`/`block` are ints or tuples of 1–3 ints;
    `dialect` (``"triton"``, ``"cudapy"``, ``"tilelang"``, ``"hidet"``) is
    recognised from the imports when ``None``; `factory_args` and `config`
    are the launch spec's (DESIGN.md).

    A run that hits UB has no defined result: the arrays are left as they
    were, and :class:`ksem.UndefinedBehavior` is raised (``exc.reports``
    has the reports, ``exc.result`` what ksem's memory held when each
    program stopped) or, with ``raise_on_ub=False``, the result returned;
    :class:`ksem.UnsupportedSyntax` for constructs ksem does not support;
    :class:`ksem.KsemError` for any other bad input.
    """
    file, src = _source(source_or_path, file)
    return run_source(
        file,
        src,
        kernel,
        grid,
        block,
        args,
        dialect,
        factory_args,
        config,
        where=where,
        raise_on_ub=raise_on_ub,
        max_loop_iterations=max_loop_iterations,
        threads=threads,
    )


@functools.lru_cache(maxsize=64)
def _constexpr_params(src: str, kernel) -> frozenset:
    """The ``tl.constexpr`` parameters of the Triton kernel `kernel` of
    `src` (the only ``@jit`` function where `kernel` is None): a plain
    Python number given for one is that compile-time value, as Triton takes
    it. Text the parser refuses is left to ksem's front end to report."""
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return frozenset()
    defs = [d for d in tree.body if isinstance(d, ast.FunctionDef)]
    if kernel is not None:
        defs = [d for d in defs if d.name == kernel]
    else:
        defs = [d for d in defs if d.decorator_list]
    if len(defs) != 1:
        return frozenset()
    a = defs[0].args
    return frozenset(
        p.arg for p in a.posonlyargs + a.args + a.kwonlyargs if p.annotation is not None and _names_constexpr(p.annotation)
    )


def _names_constexpr(annotation: ast.expr) -> bool:
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "constexpr"
    if isinstance(annotation, ast.Name):
        return annotation.id == "constexpr"
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return annotation.value.split(".")[-1].strip() == "constexpr"
    return False


@functools.lru_cache(maxsize=64)
def _detect_dialect(file: str, src: str) -> str:
    return _ksem.detect_dialect(file, src)


def run_source(
    file: str,
    src: str,
    kernel,
    grid,
    block,
    args,
    dialect,
    factory_args=None,
    config=None,
    *,
    where=None,
    raise_on_ub=True,
    max_loop_iterations=1 << 24,
    threads=0,
    tolerate_ub=None,
    shared_bytes=0,
    constants=None,
    namespace=None,
    target=None,
) -> Result:
    """:func:`run` on source text `src` named `file` (the drop-ins keep
    their kernel's file text and call this). `tolerate_ub`, a predicate on
    the UB reports, accepts a run's UB: the arrays are written back and the
    result (with its reports) returned (the pytest plugin's races of
    identical stores). `shared_bytes`: dynamic shared memory per block
    (CUDA Python's fourth launch configuration element). `constants`:
    module-level arrays the kernel reads as constant memory, by name
    (``cuda.const.array_like``); never written back. A CUDA Python kernel
    compiled with ``debug=True`` whose thread raised raises that exception
    here (``ksem._raise``), its names evaluated in `namespace`; the arrays
    are not written back then. `target`: the launch spec's ``"target"``
    object (the drop-in of an installed Triton names its release:
    ``{"triton": "3.9"}``)."""
    if dialect is None:
        dialect = _detect_dialect(file, src)
    where = where or file
    launch: dict = {"args": {}}
    if kernel is not None:
        launch["kernel"] = kernel
    if grid is not None:
        launch["grid"] = _dims("grid", grid)
    if block is not None:
        launch["block"] = _dims("block", block)
    if factory_args:
        launch["factory_args"] = dict(factory_args)
    if config is not None:
        launch["config"] = config
    if shared_bytes:
        launch["shared_bytes"] = int(shared_bytes)
    if target:
        launch["target"] = dict(target)
    host_constants = []
    for name, value in (constants or {}).items():
        spec, buf = convert_arg(name, value, dialect, where)
        launch.setdefault("constants", {})[name] = spec
        if buf is not None:
            host_constants.append((name, buf))
    host: dict[str, HostBuffer] = {}
    constexprs = _constexpr_params(src, kernel) if dialect == "triton" and args else frozenset()
    for name, value in (args or {}).items():
        if name in constexprs and (value is None or isinstance(value, (bool, int, float, str, tuple, np.generic))):
            value = Constexpr(value)
        spec, buf = convert_arg(name, value, dialect, where)
        launch["args"][name] = spec
        if buf is not None:
            host[name] = buf
    if dialect == "triton":
        _alias_views(launch["args"], host)
    try:
        launch_json = json.dumps(launch, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise KsemError(f"{where}: error: launch: {e}") from None
    raw = _ksem.run(
        file,
        src,
        launch_json,
        [(n, b.data) for n, b in list(host.items()) + host_constants],
        dialect,
        max_loop_iterations,
        threads,
    )
    result = _result(raw)
    if result.ub and not (tolerate_ub is not None and tolerate_ub(result.ub)):
        if raise_on_ub:
            raise _ub_error(result)
        return result
    if _raise.fired(result):
        raise _raise.exception(result, file, src, namespace)
    _write_back(host, raw, where)
    return result


def _result(raw: dict) -> Result:
    buffers = {}
    for name, dtype, data, inexact, undefined in raw["buffers"]:
        bits = np.frombuffer(data, dtype=storage_dtype(dtype))
        buffers[name] = BufferResult(name, dtype, bits, tuple(inexact), tuple(undefined))
    ub = tuple(
        UbReport(
            kind=u["kind"],
            line=u["line"],
            col=u["col"],
            program=tuple(u["program"]),
            thread=None if u["thread"] is None else tuple(u["thread"]),
            element=tuple(u["element"]),
            message=u["message"],
            other=u["other"],
            text=u["text"],
        )
        for u in raw["ub"]
    )
    return Result(raw["kernel"], buffers, ub)


def _alias_views(args: dict, host: dict[str, HostBuffer]) -> None:
    """Triton pointer arguments whose memory overlaps (``k(x, x[1:])``, an
    in-place ``k(x, x)``) become one buffer over the memory they cover
    together, named by the argument that starts lowest, and views into it
    (``{"view": …}``, docs/formats.md), so a write through one is read
    through the other as on a GPU. Only arguments of one element type whose
    starts differ by whole elements merge; others stay separate buffers
    (`_write_back` refuses a run that wrote two of those)."""
    plain = [(n, b) for n, b in host.items() if b.record is None and b.target.ndim == 1 and b.target.size]
    plain = [(n, b) for n, b in plain if b.target.strides[0] == b.target.itemsize]
    start = {n: b.target.__array_interface__["data"][0] for n, b in plain}
    end = {n: start[n] + b.target.nbytes for n, b in plain}
    group = {n: n for n, _ in plain}

    def root(n):
        while group[n] != n:
            n = group[n]
        return n

    for i, (a, ba) in enumerate(plain):
        for b, bb in plain[i + 1 :]:
            same_kind = ba.dtype == bb.dtype and ba.target.itemsize == bb.target.itemsize
            if same_kind and (start[a] - start[b]) % ba.target.itemsize == 0 and start[a] < end[b] and start[b] < end[a]:
                group[root(a)] = root(b)
    members: dict = {}
    for n, _ in plain:
        members.setdefault(root(n), []).append(n)
    for names in members.values():
        if len(names) < 2:
            continue
        names.sort(key=lambda n: (start[n], n))
        base = host[names[0]]
        size = base.target.itemsize
        lo, hi = start[names[0]], max(end[n] for n in names)
        union = np.lib.stride_tricks.as_strided(base.target, shape=((hi - lo) // size,), strides=(size,))
        merged = HostBuffer(union, base.dtype, stored_bytes(union, base.dtype),
                            _uninit.undefined_of(base.source, union), base.source)
        host[names[0]] = merged
        args[names[0]] = merged.spec()
        for n in names[1:]:
            args[n] = {"view": {"of": names[0], "offset": (start[n] - lo) // size, "len": int(host[n].target.size)}}
            del host[n]


def _write_back(host: dict[str, HostBuffer], raw: dict, where: str = "") -> None:
    """Writes each buffer's final bytes into the host's array, as the real
    launch would have (arrays the kernel left unchanged are not touched, so
    read-only inputs work).

    Arguments that share memory and were not merged into one buffer
    (`_alias_views`: Triton pointers of one element type are; CUDA Python
    arrays and differently typed views are not) are separate buffers to
    ksem: a write through one is not seen through the other during the run.
    Where the kernel changed two of them, the memory they share has no one
    result, and the run is refused (nothing is written)."""
    changed = [
        (name, host[name]) for name, _dtype, data, *_ in raw["buffers"] if name in host and data != host[name].data
    ]
    for i, (a, ba) in enumerate(changed):
        for b, bb in changed[i + 1 :]:
            if np.may_share_memory(ba.target, bb.target):
                raise KsemError(
                    f"{where}: error: arguments `{a}` and `{b}` share memory and the kernel wrote both; ksem "
                    "runs them as separate buffers, so it cannot tell what the shared memory holds "
                    "(pass separate arrays)"
                )
    datas = {name: data for name, _dtype, data, *_ in raw["buffers"]}
    for name, buf in changed:
        t = buf.target
        t[...] = np.frombuffer(datas[name], dtype=t.dtype).reshape(t.shape)
        if buf.record_scalar is not None:
            # a numpy record argument: its fields, from the 0-d copy
            for f in t.dtype.names:
                buf.record_scalar[f] = t[f]
    # elements the kernel wrote are defined now
    for name, _dtype, _data, _inexact, undefined in raw["buffers"]:
        buf = host.get(name)
        if buf is not None and buf.undefined is not None:
            still = np.zeros(buf.target.size, dtype=bool)
            # a record buffer's flags are per byte: a record is undefined
            # while any of its bytes is
            per = buf.target.dtype.itemsize if buf.record is not None or buf.text is not None else 1
            still[[i // per for i in undefined]] = True
            _uninit.after_launch(buf.source, buf.target, still)


def _ub_error(result: Result) -> UndefinedBehavior:
    shown = [u.text for u in result.ub[:_SHOWN_REPORTS]]
    more = len(result.ub) - len(shown)
    if more:
        shown.append(f"… and {more} more UB report(s) (exc.reports has all)")
    e = UndefinedBehavior("\n".join(shown))
    e.result = result
    e.reports = result.ub
    return e
