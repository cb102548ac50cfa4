"""A Python kernel function's source as ksem reads it.

Two ways:

- :func:`kernel_source`: the whole file the kernel is defined in (helpers,
  module constants, ``@triton.autotune`` configs and project imports
  included), for a kernel defined at the top level of a readable file.
- :func:`live_source`: the kernel read from the live function, as Triton's
  ``JITFunction`` and numba's dispatcher read it: its own source text (from
  the function, wherever it was defined: inside a test function, by
  ``exec()`` of a string, wrapped by ``triton.jit(f)``), and what its names
  resolve to through its closure cells and globals (modules, constants,
  dtypes, ``@triton.jit`` helpers and numba device functions, each read the
  same way). ksem gets one module text: the imports and constants first,
  then every function at its real line numbers where they fit (padded with
  blank lines), so that diagnostics point into the user's file.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import enum
import inspect
import itertools
import json
import keyword
import linecache
import math
import re
import sys
import textwrap
import weakref
from dataclasses import dataclass, field

import numpy as np

from . import _overload
from ._ksem import KsemError


@dataclass(frozen=True)
class KernelSource:
    """The file a kernel is defined in, the text ksem reads, the kernel's
    name, its parameters and where its ``def`` is (for errors found on the
    Python side). `indents` maps (first line, last line) of each function
    placed at its real lines to how far its text was dedented (ksem's
    columns there are shifted back by :func:`fix_columns`)."""

    file: str
    src: str
    name: str
    params: tuple
    where: str
    indents: tuple = field(default=())
    # enum member arguments: parameter → the member as the module text
    # names it (`Color.red`), written into the kernel by ksem._launch
    enum_args: tuple = field(default=())
    # (object, name) of each NamedTuple class and @triton.jit function the
    # arguments hold, as the module text names it (ksem._launch rebuilds
    # such arguments in the kernel's text)
    arg_names: tuple = field(default=())
    # (first line, last line, the user's name, the call's file:line:col) of
    # each @overload implementation the text holds below the file's own
    # lines (a lambda's, or one of another file), and (bound name, the
    # user's name) of each implementation bound under a name of ksem's
    overloads: tuple = field(default=())
    renames: tuple = field(default=())


def unwrap(obj):
    """The plain Python function under decorators that keep it as ``.fn``
    (Triton's JITFunction, InterpretedFunction, Autotuner, Heuristics) or
    ``.py_func`` (numba)."""
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


def is_top_level(fn) -> bool:
    """Whether `fn` is a module-level ``def`` of a file ksem can read whole
    (the file's line where its code starts defines it under its name)."""
    if fn.__qualname__ != fn.__name__:
        return False
    file = fn.__code__.co_filename
    if file.startswith("<"):
        return False
    lines = linecache.getlines(file, fn.__globals__)
    first = fn.__code__.co_firstlineno
    for line in lines[first - 1 : first + 40]:
        s = line.lstrip()
        if s.startswith("@"):
            continue
        return line.startswith(("def ", "async def ")) and re.match(
            rf"(async\s+)?def\s+{re.escape(fn.__name__)}\s*\(", line
        ) is not None
    return False


# ---------------------------------------------------------------------------
# live source


@dataclass
class _Func:
    """One function's own text (dedented, from its ``def``), where it is."""

    text: str
    name: str
    file: str
    def_line: int | None  # real line of the `def`, where known
    indent: int
    names: tuple  # the names its body uses (resolved at each launch)


# per function object: its text and names (the source of a function does
# not change; what its names resolve to may, so that is looked up per launch)
_FUNCS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _read_func(fn, src: str | None = None) -> _Func:
    got = _FUNCS.get(fn) if src is None else None
    if got is not None:
        return got
    file = fn.__code__.co_filename
    def_line = None
    if src is None:
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            raise KsemError(
                f"{file}:{fn.__code__.co_firstlineno}:1: error: the source of `{fn.__name__}` cannot be read "
                "(a function built from a string Python keeps no text of; ksem's pytest plugin keeps the text "
                "of strings run by exec())"
            ) from None
        if start == 0:  # a module's whole text (inspect gives line 0)
            start = 1
        at = next((i for i, ln in enumerate(lines) if re.match(r"\s*(async\s+)?def\s", ln)), None)
        if at is None:
            raise KsemError(f"{file}:{start}:1: error: no `def` found in the source of `{fn.__name__}`")
        def_line = start + at
        text = "".join(lines[at:])
    else:
        text = src[re.search(r"^\s*(async\s+)?def\s", src, re.MULTILINE).start():] if re.search(
            r"^\s*(async\s+)?def\s", src, re.MULTILINE) else src
    first = text.splitlines()[0] if text else ""
    indent = len(first) - len(first.lstrip())
    text = textwrap.dedent(text)
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        line = (def_line or 1) + (e.lineno or 1) - 1
        raise KsemError(f"{file}:{line}:{(e.offset or 0) + indent}: error: {e.msg}") from None
    params = set()
    text_name = fn.__name__
    if tree.body and isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
        # the name its text defines (`fn.__name__` may have been set since)
        text_name = tree.body[0].name
        a = tree.body[0].args
        params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    names = []
    seen = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in params and node.id not in seen:
            seen.add(node.id)
            names.append(node.id)
    f = _Func(text, text_name, file, def_line, indent, tuple(names))
    if src is None:
        try:
            _FUNCS[fn] = f
        except TypeError:
            pass
    return f


def _lookup(fn, name: str):
    """What `name` is bound to in `fn`: a closure cell, else a global;
    `_MISSING` when neither (a local, or a builtin ksem knows itself)."""
    code = fn.__code__
    if fn.__closure__ and name in code.co_freevars:
        cell = fn.__closure__[code.co_freevars.index(name)]
        try:
            return cell.cell_contents
        except ValueError:
            return _MISSING
    g = fn.__globals__
    if name in g:
        return g[name]
    return _MISSING


_MISSING = object()

# Triton's dtype names (`tl.float32.name == "fp32"`) → the `tl` attribute
# ksem reads.
_TL_DTYPE = {
    "int1": "int1",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "fp8e4nv": "float8e4nv",
    "fp8e5": "float8e5",
    "fp8e4b15": "float8e4b15",
    "fp8e4b8": "float8e4b8",
    "fp8e5b16": "float8e5b16",
    "fp16": "float16",
    "bf16": "bfloat16",
    "fp32": "float32",
    "fp64": "float64",
}


def tl_dtype_name(v) -> str | None:
    """The launch/`tl` name of a Triton ``tl.dtype`` (or ksem's name for a
    torch dtype), or None if `v` is neither."""
    t = type(v)
    if t.__name__ in ("dtype", "pointer_type") and t.__module__.startswith("triton"):
        return _TL_DTYPE.get(getattr(v, "name", ""))
    if t.__module__ == "torch" and t.__name__ == "dtype":
        name = str(v).removeprefix("torch.")
        return {
            "bool": "int1",
            "float8_e4m3fn": "float8e4nv",
            "float8_e5m2": "float8e5",
            "half": "float16",
            "float": "float32",
            "double": "float64",
        }.get(name, name if name in _TL_DTYPE.values() else None)
    return None


def _is_constexpr_obj(v) -> bool:
    t = type(v)
    return t.__name__ == "constexpr" and (t.__module__.startswith("triton") or t.__module__.startswith("ksem"))


def _literal(v):
    """Python source for a plain constant, or None."""
    if v is None or isinstance(v, (bool, str)):
        return repr(v)
    if isinstance(v, int):
        return repr(int(v))
    if isinstance(v, float):
        if math.isnan(v):
            return None
        if math.isinf(v):
            return "1e999" if v > 0 else "-1e999"
        return repr(v)
    if isinstance(v, tuple):
        parts = [_literal(x) for x in v]
        if any(p is None for p in parts):
            return None
        return "(" + "".join(p + ", " for p in parts) + ")"
    if isinstance(v, np.generic) and not isinstance(v, np.void):
        return _literal(v.item())
    if isinstance(v, enum.Enum):
        # an enum member is its value (as numba lowers it)
        return _literal(v.value)
    return None


class _Module:
    """The module text being built for one kernel."""

    def __init__(self, dialect: str, known: dict | None = None):
        self.dialect = dialect
        # the launch's values of the kernel's parameters (for @overload)
        self.known = known
        self.prelude: list[str] = []
        self.bound: dict[str, object] = {}  # name → the object it stands for
        self.funcs: list[tuple[str, _Func, str]] = []  # (bound name, text, decorator)
        # bound name of an @overload implementation → (the name the user
        # calls, the file:line:col of the first call it serves)
        self.overloads: dict[str, tuple[str, str]] = {}
        if dialect == "triton":
            self.prelude += ["import triton", "import triton.language as _ksem_tl"]
        else:
            self.prelude += ["from numba import cuda"]

    def bind(self, name: str, value, line: str | None) -> bool:
        if name in self.bound:
            if self.bound[name] is value or _same(self.bound[name], value):
                return True
            raise KsemError(
                f"error: two different objects are named `{name}` in the kernel's functions "
                f"({self.bound[name]!r} and {value!r}); ksem reads them into one module: rename one"
            )
        self.bound[name] = value
        if line is not None:
            self.prelude += line.split("\n")
        return True

    def add_func(self, fn, name: str, decorator: str, src: str | None = None) -> None:
        if name in self.bound:
            if self.bound[name] is fn:
                return
            raise KsemError(
                f"error: two different objects are named `{name}` in the kernel's functions; "
                "ksem reads them into one module: rename one"
            )
        self.bound[name] = fn
        f = _read_func(fn, src)
        self.funcs.append((name, f, decorator))
        known, self.known = self.known, None  # the kernel's own parameters only
        for n in f.names:
            v = _lookup(fn, n)
            if v is _MISSING:
                continue
            if self.dialect != "triton" and inspect.isfunction(v) and _overload.overload_functions(v):
                f = self._add_overload(n, v, f, known)
                continue
            if self.dialect != "triton" and _runtime_module(v):
                f = self._flatten_module_functions(n, v, f)
                continue
            self.add_name(n, v)

    def _flatten_module_functions(self, name: str, mod, f: _Func) -> _Func:
        """A module object made at run time (``types.ModuleType("m")``, which
        no import can give) whose numba functions the function `f` calls as
        ``m.fn``: each such use becomes the name ``m_fn`` (the same length,
        so no column moves), bound to the function; `f`'s text is replaced."""
        tree = ast.parse(f.text)
        lines = f.text.split("\n")
        uses = [
            node for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name
        ]
        for node in uses:
            target = getattr(mod, node.attr, None)
            if not (hasattr(target, "py_func") and (type(target).__module__ or "").startswith("numba")):
                raise KsemError(
                    f"{f.file}:{(f.def_line or 1) + node.lineno - 1}:{node.col_offset + f.indent + 1}: error: "
                    f"`{name}.{node.attr}` of the module object `{name}` made at run time is not a numba function"
                )
            b = lines[node.lineno - 1].encode()
            dot = node.col_offset + len(name.encode())
            lines[node.lineno - 1] = (b[:dot] + b"_" + b[dot + 1 :]).decode()
        new = dataclasses.replace(f, text="\n".join(lines))
        self.funcs = [(n, new if g is f else g, d) for n, g, d in self.funcs]
        for node in uses:
            self.add_name(f"{name}_{node.attr}", getattr(mod, node.attr))
        return new

    def _add_overload(self, name: str, fn, caller: _Func, known) -> _Func:
        """A plain function numba-cuda overloads (``@overload(fn)``): the
        implementation numba compiles for the caller's calls, under `name`;
        where the calls choose different implementations (by their
        arguments' types), each implementation is bound under a name of its
        own, of `name`'s length (so that no column moves), and the calls in
        the caller's text are renamed (the caller's new text is returned)."""

        def where(node):
            line = (caller.def_line or 1) + node.lineno - 1
            return f"{caller.file}:{line}:{node.col_offset + caller.indent + 1}"

        groups: list = []  # [implementation, [calls]]
        for node, impl in _overload.choose(name, fn, caller.text, where, known):
            group = next((g for g in groups if _overload.same_impl(g[0], impl)), None)
            if group is None:
                groups.append([impl, [node]])
            else:
                group[1].append(node)
        if len(groups) == 1:
            impl = groups[0][0]
            if not (name in self.bound and _overload.same_impl(self.bound[name], impl)):
                self.overloads[name] = (name, where(groups[0][1][0]))
                self.add_func(impl, name, "@cuda.jit(device=True)", _overload.lambda_def(impl, name))
            return caller
        if not groups:
            return caller
        taken = set(self.bound) | {n.id for n in ast.walk(ast.parse(caller.text)) if isinstance(n, ast.Name)}
        lines = caller.text.split("\n")
        renamed = []
        for impl, nodes in groups:
            new = _fresh_name(name, taken)
            taken.add(new)
            for node in nodes:
                f = node.func
                b = lines[f.lineno - 1].encode()
                lines[f.lineno - 1] = (b[: f.col_offset] + new.encode() + b[f.end_col_offset :]).decode()
            renamed.append((new, impl))
            self.overloads[new] = (name, where(nodes[0]))
        new_caller = dataclasses.replace(caller, text="\n".join(lines))
        self.funcs = [(n, new_caller if g is caller else g, d) for n, g, d in self.funcs]
        for new, impl in renamed:
            self.add_func(impl, new, "@cuda.jit(device=True)", _overload.lambda_def(impl, new))
        return new_caller

    def add_name(self, name: str, v) -> None:
        if name in self.bound and self.bound[name] is v:
            return
        if inspect.ismodule(v):
            self.bind(name, v, _import_line(name, v.__name__, self.dialect))
            return
        if self.dialect == "triton":
            self._add_triton(name, v)
        else:
            self._add_cudapy(name, v)

    def _add_triton(self, name: str, v) -> None:
        t = type(v)
        mod = t.__module__ or ""
        if t.__name__ in ("JITFunction", "InterpretedFunction") and hasattr(v, "fn"):
            self.add_func(v.fn, name, "@triton.jit", getattr(v, "src", None) if t.__name__ == "JITFunction" else None)
            return
        if mod.startswith("ksem.triton") and t.__name__ == "JITFunction":
            self.add_func(v.fn, name, "@triton.jit")
            return
        if _is_constexpr_obj(v):
            v = v.value
        d = tl_dtype_name(v)
        if d is not None:
            self.bind(name, v, f"{name} = _ksem_tl.{d}")
            return
        lit = _literal(v)
        if lit is not None:
            self.bind(name, v, f"{name} = {lit}")
            return
        if (
            t.__name__ == "ConstexprFunction"
            and mod.startswith(("triton", "ksem.triton"))
            and inspect.isfunction(getattr(v, "fn", None))
        ):
            # a @triton.constexpr_function: Python that Triton runs while
            # compiling (ksem runs its text on compile-time values)
            self.add_func(v.fn, name, "@triton.constexpr_function")
            return
        if is_namedtuple_class(v):
            self.bind(name, v, self._namedtuple_text(name, v))
            return
        if inspect.isfunction(v) and v.__module__ and v.__module__.startswith("triton"):
            # a function of Triton's own (`tl.load` bound to a name):
            # import it from where Triton defines it
            self.bind(name, v, f"from {v.__module__} import {v.__name__} as {name}")

    def _namedtuple_text(self, name: str, cls) -> str:
        """`name` bound to NamedTuple class `cls` in ksem's words
        (``collections.namedtuple`` with the class's own name, fields and
        defaults)."""
        import collections

        self.bind("_ksem_namedtuple", collections.namedtuple, "from collections import namedtuple as _ksem_namedtuple")
        defaults = []
        for f in cls._fields:
            if f in cls._field_defaults:
                d = cls._field_defaults[f]
                lit = _literal(d)
                if lit is None and tl_dtype_name(d) is not None:
                    lit = f"_ksem_tl.{tl_dtype_name(d)}"
                if lit is None:
                    raise KsemError(
                        f"error: the default of field `{f}` of NamedTuple class `{cls.__name__}` ({d!r}) "
                        "is not a value ksem can read (numbers, strings, None, dtypes and tuples of these)"
                    )
                defaults.append(lit)
        fields = ", ".join(repr(f) for f in cls._fields)
        tail = f", defaults=({''.join(d + ', ' for d in defaults)})" if defaults else ""
        return f"{name} = _ksem_namedtuple({cls.__name__!r}, [{fields}]{tail})"

    def _add_cudapy(self, name: str, v) -> None:
        t = type(v)
        mod = t.__module__ or ""
        if t.__name__ == "Dispatcher" and mod == "ksem.cuda":
            if v.device:
                self.add_func(v.py_func, name, "@cuda.jit(device=True)")
            return
        if mod.startswith("numba") and hasattr(v, "py_func"):
            # a numba dispatcher a kernel calls (a `cuda.jit` device function,
            # a `cuda.jit` function without device=True, which numba-cuda
            # compiles as a device function when a kernel calls it, or a CPU
            # `@numba.jit` function): a device function
            self.add_func(v.py_func, name, "@cuda.jit(device=True)")
            return
        if (
            isinstance(v, type)
            and v.__module__ in ("numba.cuda.simulator.vector_types", "numba.cuda.stubs", "numba.cuda.vector_types")
            and re.fullmatch(r"[a-z]+\d*x?\d", v.__name__)
            and hasattr(numba_cuda_module(), v.__name__)
        ):
            # a CUDA vector type (`cuda.float32x4`) closed over
            self.bind(name, v, f"from numba.cuda import {v.__name__} as {name}")
            return
        if isinstance(v, type) and issubclass(v, enum.Enum):
            # an enum class: a class of its members' values (ksem reads a
            # class whose body only binds constants; members it cannot
            # write, such as complex values, are left out)
            members = [(m, _literal(x.value)) for m, x in v.__members__.items()]
            body = [f"    {m} = {lit}" for m, lit in members if lit is not None and m.isidentifier()]
            # an IntEnum is written `class C(int):` (its members compare as integers)
            head = f"class {name}(int):" if issubclass(v, int) else f"class {name}:"
            self.bind(name, v, "\n".join([head] + (body or ["    pass"])))
            return
        if isinstance(v, enum.Enum) and _literal(v) is not None:
            self.bind(name, v, f"{name} = {_literal(v)}")
            return
        if isinstance(v, type) and v.__module__ == "numpy":
            self.bind(name, v, f"from numpy import {v.__name__} as {name}")
            return
        # a function of `operator` or `math`, or a numpy ufunc, closed over
        # (`op = operator.add`): imported under the name the kernel uses
        if inspect.isbuiltin(v) and getattr(v, "__module__", None) in ("_operator", "operator", "math"):
            module = "math" if v.__module__ == "math" else "operator"
            if getattr(sys.modules.get(module), v.__name__, None) is v:
                self.bind(name, v, f"from {module} import {v.__name__} as {name}")
            return
        if isinstance(v, np.ufunc) and getattr(np, v.__name__, None) is v:
            self.bind(name, v, f"from numpy import {v.__name__} as {name}")
            return
        record = _record_dtype(v)
        if record is not None:
            # a structured dtype (numba's Record, `from_dtype(arr.dtype)`)
            # closed over: its layout in the launch's "record" form
            self.bind(name, v, f"{name} = ksem.record({json.dumps(record)})")
            return
        if mod.startswith("numba.core.types"):
            numba_name = str(v)
            if re.fullmatch(r"[a-z]+\d*", numba_name):
                self.bind(name, v, f"from numba import {numba_name} as {name}")
            return
        if isinstance(v, (bool, int, float, tuple, np.bool_, np.integer, np.floating)):
            # numbers, and tuples of them (a shape: `SM_SIZE = tpb, tpb`)
            lit = _literal(v)
            if lit is not None and not (isinstance(v, tuple) and "'" in lit):
                self.bind(name, v, f"{name} = {lit}")

    def text(self, kernel_file: str) -> tuple[str, tuple, tuple]:
        """The module text, the dedented line ranges placed at their
        real lines (for :func:`fix_columns`), and the line ranges of the
        @overload implementations placed below them (`KernelSource.overloads`)."""
        out = list(self.prelude)
        indents = []
        later = []
        placed = sorted(
            (f for f in self.funcs if f[1].def_line is not None and f[1].file == kernel_file),
            key=lambda f: f[1].def_line,
        )
        for name, f, deco in placed:
            body = _renamed(f, name).splitlines()
            # the decorator goes on the line above the `def`
            if f.def_line - 1 > len(out):
                out += [""] * (f.def_line - 2 - len(out))
                out.append(deco)
                start = len(out) + 1
                out += body
                if f.indent:
                    indents.append((start, start + len(body) - 1, f.indent))
            else:
                later.append((name, f, deco))
        later += [f for f in self.funcs if f not in placed]
        overloads = []
        for name, f, deco in later:
            body = _renamed(f, name).splitlines()
            out += ["", deco] + body
            if name in self.overloads:
                overloads.append((len(out) - len(body) + 1, len(out), *self.overloads[name]))
        return "\n".join(out) + "\n", tuple(indents), tuple(overloads)


def is_namedtuple_class(v) -> bool:
    """A NamedTuple class (``typing.NamedTuple`` or
    ``collections.namedtuple``), as Triton tells one (``_fields``)."""
    return isinstance(v, type) and issubclass(v, tuple) and isinstance(getattr(v, "_fields", None), tuple)


def _record_dtype(v) -> dict | None:
    """The launch's ``"record"`` description of a structured dtype: a numpy
    one, or numba's ``Record`` type of one; ``None`` for anything else or a
    layout the launch cannot describe."""
    dt = v if isinstance(v, np.dtype) else None
    if dt is None and type(v).__name__ == "Record" and (type(v).__module__ or "").startswith("numba.core.types"):
        try:
            from numba.np import numpy_support

            dt = numpy_support.as_dtype(v)
        except Exception:
            return None
    if dt is None or dt.names is None:
        return None
    from ._host import record_layout

    try:
        return record_layout(dt, "dtype", "")
    except KsemError:
        return None


def _fresh_name(name: str, taken: set) -> str:
    """A name of `name`'s length not in `taken` (its last characters
    replaced by digits or letters), else `name` with a suffix."""
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
    for keep in range(len(name) - 1, -1, -1):
        width = len(name) - keep
        if width > 2:
            break
        for tail in itertools.product(alphabet, repeat=width):
            cand = name[:keep] + "".join(tail)
            if cand.isidentifier() and cand not in taken and not keyword.iskeyword(cand):
                return cand
    k = 0
    while f"{name}__ksem{k}" in taken:
        k += 1
    return f"{name}__ksem{k}"


def _runtime_module(v) -> bool:
    """`v` is a module object no import gives (made at run time)."""
    return inspect.ismodule(v) and sys.modules.get(v.__name__) is not v


def numba_cuda_module():
    """``numba.cuda`` (imported only where a kernel closes over one of its
    vector types)."""
    import numba.cuda

    return numba.cuda


def _same(a, b) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _renamed(f: _Func, name: str) -> str:
    """The function's text with its `def` named `name` (the name the
    caller knows it by: `helper = triton.jit(_helper)`)."""
    if name == f.name:
        return f.text
    return re.sub(rf"^(\s*(?:async\s+)?def\s+){re.escape(f.name)}\b", rf"\g<1>{name}", f.text, count=1)


def _import_line(name: str, module: str, dialect: str) -> str:
    module = {"numba.cuda.simulator": "numba.cuda"}.get(module, module)
    if module.startswith("numba.cuda.simulator"):
        module = "numba.cuda"
    if "." in module:
        parent, child = module.rsplit(".", 1)
        return f"from {parent} import {child}" + (f" as {name}" if name != child else "")
    return f"import {module}" + (f" as {name}" if name != module else "")


def live_source(obj, dialect: str, args=None, arg_objects=()) -> KernelSource:
    """The kernel `obj` (a Triton JITFunction/InterpretedFunction, ksem's
    wrappers, a numba dispatcher or simulator kernel, or a plain function)
    as one module text of its own source, its helpers' and the values its
    names stand for; `arg_objects` (NamedTuple classes and jit functions
    the arguments hold) are bound too (`KernelSource.arg_names`)."""
    fn = unwrap(obj)
    # Triton's JITFunction keeps its text as `.src` (from `def`; a test may
    # have changed it: `_unsafe_update_src`): that text is the kernel, read
    # from the file (at its real lines) where it is the file's text
    src = getattr(obj, "src", None) if type(obj).__name__ == "JITFunction" and dialect == "triton" else None
    if isinstance(src, str):
        try:
            if _read_func(fn).text.strip() == textwrap.dedent(src).strip():
                src = None
        except KsemError:
            pass
    else:
        src = None
    known = None
    if args is not None:
        names = [p.name for p in inspect.signature(fn).parameters.values()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        known = dict(zip(names, args))
    m = _Module(dialect, known)
    # (an explicit numba signature converts the scalar arguments,
    # `ksem._launch`; arrays are typed by what the host passes, as numba's
    # simulator types them: numba-cuda's own tests pass a uint32 array for
    # an `int32[:, :]` signature)
    deco = "@triton.jit" if dialect == "triton" else "@cuda.jit"
    if dialect != "triton" and (getattr(obj, "_debug", False) is True or getattr(obj, "debug", False) is True):
        # numba's simulator kernel keeps `debug=True` as `_debug`: a fired
        # `raise`/`assert` is then raised on the host (ksem._raise)
        deco = "@cuda.jit(debug=True)"
    m.add_func(fn, fn.__name__, deco, src)
    enum_args = _enum_args(m, known or {}) if dialect != "triton" else ()
    arg_names = _bind_arg_objects(m, arg_objects, {p.name for p in inspect.signature(fn).parameters.values()})
    f = m.funcs[0][1]
    text, indents, overloads = m.text(f.file)
    params = tuple(inspect.signature(fn).parameters.values())
    line = f.def_line or fn.__code__.co_firstlineno
    renames = tuple((new, user) for new, (user, _) in m.overloads.items() if new != user)
    return KernelSource(
        f.file, text, fn.__name__, params, f"{f.file}:{line}:{f.indent + 1}", indents, enum_args, arg_names,
        overloads, renames,
    )


def _bind_arg_objects(m: _Module, objects, params: set) -> tuple:
    """(object, name) for each object the module text must name for the
    arguments: the name the kernel's functions already give it, else its
    own name where that is free (not bound, not a kernel parameter), else a
    name of ksem's."""
    out = []
    for i, v in enumerate(objects):
        # (a jit function is bound as its Python function)
        py = v if isinstance(v, type) else getattr(v, "fn", v)
        name = next((n for n, b in m.bound.items() if (b is v or b is py) and n not in params), None)
        if name is None:
            own = getattr(py, "__name__", "")
            free = own.isidentifier() and own not in m.bound and own not in params
            name = own if free else f"_ksem_arg{i}"
            m.add_name(name, v)
        out.append((v, name))
    return tuple(out)


def _enum_args(m: _Module, known: dict) -> tuple:
    """(parameter, `Class.member`) for each enum member argument, its
    class bound in `m` (under the kernel's own name for it where the kernel
    names it, so that both are one class)."""
    out = []
    for pname, v in known.items():
        if not isinstance(v, enum.Enum):
            continue
        cls = type(v)
        name = next((n for n, b in m.bound.items() if b is cls), None)
        if name is None:
            name = f"_ksem_enum_{cls.__name__}"
            m.add_name(name, cls)
        if _literal(v.value) is None or not v.name.isidentifier():
            raise KsemError(f"error: argument `{pname}`: the enum member {v!r} has a value ksem cannot write")
        out.append((pname, f"{name}.{v.name}"))
    return tuple(out)


def fix_columns(message: str, ks: KernelSource) -> str:
    """ksem's `file:line:col` in `message`, with the columns of dedented
    lines moved back to where they are in the user's file; an error in an
    @overload implementation the text holds below the file's lines is
    the call's (:func:`_overload_located`), and an implementation ksem
    bound under a name of its own is called by the user's name."""
    for new, user in ks.renames:
        message = message.replace(f"`{new}`", f"`{user}`")
    at_call = _overload_located(message, ks)
    if at_call is not None:
        return at_call
    if not ks.indents:
        return message
    pat = re.compile(rf"({re.escape(ks.file)}):(\d+):(\d+)")

    def fix(m):
        line, col = int(m.group(2)), int(m.group(3))
        for lo, hi, ind in ks.indents:
            if lo <= line <= hi:
                return f"{m.group(1)}:{line}:{col + ind}"
        return m.group(0)

    return pat.sub(fix, message)


def _overload_located(message: str, ks: KernelSource) -> str | None:
    """`message` (ksem's rendered error) where it is located in an
    @overload implementation placed below the file's own lines (those lines
    are the module text's, not the file's): its first line, at the call the
    implementation serves (a location in the user's file as it is), saying
    which function's implementation it is; else None."""
    m = re.match(rf"{re.escape(ks.file)}:(\d+):\d+: (error: .*)", message)
    if not (m and ks.overloads):
        return None
    line = int(m.group(1))
    for lo, hi, user, call in ks.overloads:
        if lo <= line <= hi:
            return f"{call}: {m.group(2)} (in the @overload implementation of `{user}` numba compiles for this call)"
    return None


__all__ = ["KernelSource", "kernel_source", "live_source", "unwrap", "is_top_level", "fix_columns", "tl_dtype_name"]

_ = builtins  # builtins are ksem's own (range, min, float …): never bound
