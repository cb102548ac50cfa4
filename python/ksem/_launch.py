"""One launch of a live kernel object, with its arguments as the anchor
takes them: Triton's ``kernel[grid](*args, **kwargs)`` (torch tensors,
``tl.dtype``/tuple/None constexprs, ``triton.reinterpret`` views) and numba's
``kernel[grid, block](*args)`` (numpy arrays, simulator device arrays,
``cuda.In``/``Out``/``InOut``). The kernel is read with
:func:`ksem._kernel.live_source`; ksem's errors keep their ``file:line:col``
in the user's file."""

from __future__ import annotations

import inspect
import re

import numpy as np

from ._host import Bits, Constexpr, Scalar, storage_dtype
from ._kernel import KernelSource, fix_columns, live_source, tl_dtype_name, unwrap
from ._ksem import KsemError, UndefinedBehavior, UnsupportedSyntax
from ._run import Result, run_source

# Launch options of Triton that choose how the GPU runs a kernel, not what
# it computes (they are not parameters of the kernel).
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def run_live(dialect: str, kernel, args, kwargs, grid, block, shared: int = 0, tolerate_ub=None) -> Result:
    """Runs `kernel` (a live kernel object of `dialect`) on ksem; host
    arrays are written back in place. Raises ksem's errors, located;
    `tolerate_ub` as :func:`ksem._run.run_source`'s."""
    objs = _tuple_objects([*args, *kwargs.values()]) if dialect == "triton" else ()
    ks = live_source(kernel, dialect, args if dialect == "cudapy" else None, objs)
    try:
        if dialect == "triton":
            return _triton(ks, kernel, args, kwargs, grid, tolerate_ub)
        return _cudapy(ks, kernel, args, grid, block, shared, tolerate_ub)
    except KsemError as e:
        raise _located(e, ks) from None


def _located(e: KsemError, ks: KernelSource) -> KsemError:
    """`e` with its columns in the user's file (once: a launch that rewrote
    the kernel's text locates its errors by that text's own map)."""
    if getattr(e, "_ksem_located", False):
        return e
    fixed = fix_columns(str(e), ks)
    new = e if fixed == str(e) else type(e)(fixed)
    if new is not e:
        for attr in ("reports", "result"):
            if hasattr(e, attr):
                setattr(new, attr, getattr(e, attr))
    new._ksem_located = True
    return new


def is_constexpr_annotation(annotation) -> bool:
    """A ``tl.constexpr`` annotation: the class (Triton's or ksem's
    stand-in), an instance, or its text under ``from __future__ import
    annotations``."""
    if isinstance(annotation, str):
        return annotation.split(".")[-1].strip() == "constexpr"
    if isinstance(annotation, type):
        return annotation.__name__ == "constexpr"
    return type(annotation).__name__ == "constexpr"


def const_value(name: str, v, where: str):
    """A constexpr argument as the launch JSON carries it: numbers, bools,
    None and strings as they are; a ``tl.dtype`` or torch dtype by its
    name (the launch's rule: a string naming a dtype is that dtype)."""
    if type(v).__name__ == "constexpr" and hasattr(v, "value"):
        v = v.value
    d = tl_dtype_name(v)
    if d is not None:
        return d
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, np.generic) and not isinstance(v, np.void):
        return v.item()
    if isinstance(v, tuple):
        return tuple(const_value(name, x, where) for x in v)
    raise KsemError(
        f"{where}: error: argument `{name}`: a {type(v).__name__} cannot be a tl.constexpr argument "
        "(ksem takes numbers, bools, None, strings, dtypes and tuples of these)"
    )


def _reinterpreted(name: str, v, where: str):
    """``triton.reinterpret(tensor, dtype)``: the tensor's storage read as
    `dtype` (raw bits of the dtype's width)."""
    from ._host import _torch_array

    d = tl_dtype_name(v.dtype)
    if d is None:
        raise KsemError(f"{where}: error: argument `{name}`: reinterpreted as {v.dtype}, a dtype ksem does not run")
    d = {"int1": "bool"}.get(d, d)
    array, _ = _torch_array(v.base, "triton")
    want = np.dtype(storage_dtype(d))
    if array.dtype.itemsize != want.itemsize:
        raise KsemError(
            f"{where}: error: argument `{name}`: a {array.dtype} tensor reinterpreted as {d} "
            "(ksem reinterprets only between types of one width)"
        )
    return Bits(array.view(want), d)


def _triton_arg(p: inspect.Parameter, v, where: str):
    if is_constexpr_annotation(p.annotation) or type(v).__name__ == "constexpr" or v is None:
        return Constexpr(const_value(p.name, v, where))
    if tl_dtype_name(v) is not None:
        return Constexpr(tl_dtype_name(v))
    t = type(v)
    if t.__name__ == "TensorWrapper" and hasattr(v, "base") and hasattr(v, "dtype"):
        return _reinterpreted(p.name, v, where)
    if isinstance(v, tuple):
        raise UnsupportedSyntax(
            f"{where}: error: argument `{p.name}`: tuple arguments are not supported by ksem yet"
        )
    if t.__name__ in ("JITFunction", "InterpretedFunction"):
        raise UnsupportedSyntax(
            f"{where}: error: argument `{p.name}`: a @triton.jit function passed as an argument is not supported by ksem yet"
        )
    return v


class HostError(Exception):
    """An exception the host's own code raised during a launch (a grid
    callable): the plugin re-raises the original, as the anchor would."""

    def __init__(self, original: BaseException):
        super().__init__(str(original))
        self.original = original


def _grid(grid, named, where):
    if callable(grid):
        try:
            grid = grid(named)
        except Exception as e:
            raise HostError(e) from e
    if isinstance(grid, (int, np.integer)):
        grid = (grid,)
    try:
        dims = tuple(int(g) for g in grid)
    except (TypeError, ValueError):
        raise KsemError(f"{where}: error: the grid {grid!r} is not a tuple of ints") from None
    if not 1 <= len(dims) <= 3:
        raise KsemError(f"{where}: error: the grid {dims} must have 1 to 3 dimensions")
    return dims


def _installed_triton() -> dict | None:
    """As the drop-in of an installed Triton, ksem follows that release's
    language where it changed after 3.6 (``"target": {"triton": "3.9"}``;
    docs/semantics.md, "Triton versions"); None where Triton is not
    installed or predates 3.6."""
    try:
        import triton
    except ImportError:
        return None
    got = re.match(r"(\d+)\.(\d+)", getattr(triton, "__version__", ""))
    if not got or (int(got.group(1)), int(got.group(2))) < (3, 6):
        return None
    return {"triton": f"{got.group(1)}.{got.group(2)}"}


def _triton(ks: KernelSource, kernel, args, kwargs, grid, tolerate_ub=None) -> Result:
    fn = unwrap(kernel)
    sig = inspect.signature(fn)
    kwargs = {k: v for k, v in kwargs.items() if k in sig.parameters}
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise KsemError(f"{ks.where}: error: `{ks.name}`: {e}") from None
    bound.apply_defaults()
    named = dict(bound.arguments)
    dims = _grid(grid, named, ks.where)
    launch_args = {}
    tuples = {}
    for p in sig.parameters.values():
        if p.kind in _VARIADIC or p.name not in named:
            continue
        v = named[p.name]
        if isinstance(v, tuple) and not is_constexpr_annotation(p.annotation):
            # a tuple of tensors and scalars (a NamedTuple, a torch.Size):
            # one launch argument per element
            def convert(sub, x, kind=p.kind):
                return _triton_arg(inspect.Parameter(sub, kind), x, ks.where)

            names = {id(o): n for o, n in ks.arg_names}
            tuples[p.name] = _flatten_param(p.name, v, launch_args, convert, Constexpr(None), names)
            continue
        launch_args[p.name] = _triton_arg(p, v, ks.where)
    if tuples:
        ks = _unflatten_in_source(ks, tuples)
    if 0 in dims:
        return Result(ks.name, {}, ())
    try:
        return run_source(ks.file, ks.src, ks.name, dims, None, launch_args, "triton", where=ks.where,
                          tolerate_ub=tolerate_ub, target=_installed_triton())
    except KsemError as e:
        raise _located(e, ks) from None


def _flatten(name: str, v: tuple, launch_args: dict, convert, leaves: list, names=None) -> str:
    """Gives each element of tuple argument `name` its own launch argument
    (`name__ksem0`, `name__ksem1_0` …, converted by `convert(name, value)`,
    appended to `leaves`); returns the Python expression that rebuilds the
    tuple from them. With `names` (Triton: id of an object → its name in
    the module text), a NamedTuple is rebuilt by its class (`P(a, b, )`),
    another tuple subclass (`torch.Size`) as a tuple, and a @triton.jit
    function (a constexpr to Triton) is its name, not an argument."""
    parts = []
    for i, x in enumerate(v):
        sub = f"{name}_{i}" if "__ksem" in name else f"{name}__ksem{i}"
        if type(x) is tuple or (names is not None and isinstance(x, tuple)):
            parts.append(_flatten(sub, x, launch_args, convert, leaves, names))
        elif names is not None and id(x) in names:
            parts.append(names[id(x)])
        else:
            launch_args[sub] = convert(sub, x)
            leaves.append(sub)
            parts.append(sub)
    text = "(" + "".join(q + ", " for q in parts) + ")"
    if names is not None and _is_namedtuple(v):
        return names[id(type(v))] + text
    return text


def _flatten_param(name: str, v: tuple, launch_args: dict, convert, dummy, names=None) -> tuple:
    """(`_flatten`'s expression, the parameters that replace `name`); a tuple
    with no elements (`()`, `((), ())`) keeps one unused parameter, given
    `dummy`, so that the kernel's signature keeps its shape."""
    leaves: list = []
    expr = _flatten(name, v, launch_args, convert, leaves, names)
    if not leaves:
        leaves.append(f"{name}__ksem_empty")
        launch_args[leaves[0]] = dummy
    return expr, leaves


def _tuple_objects(values) -> tuple:
    """The NamedTuple classes of the NamedTuples among `values` (Triton
    launch arguments) and in their tuples, and the @triton.jit functions in
    those tuples, each once, in order."""
    out: list = []

    def add(o):
        if not any(o is p for p in out):
            out.append(o)

    def walk(v, inside):
        if isinstance(v, tuple):
            if _is_namedtuple(v):
                add(type(v))
            for x in v:
                walk(x, True)
        elif inside and type(v).__name__ in ("JITFunction", "InterpretedFunction") and hasattr(v, "fn"):
            add(v)

    for v in values:
        walk(v, False)
    return tuple(out)


def _is_namedtuple(v) -> bool:
    """Whether `v` is an instance of a ``collections.namedtuple`` class."""
    return isinstance(v, tuple) and type(v) is not tuple and isinstance(getattr(type(v), "_fields", None), tuple)


def _unflatten_in_source(ks: KernelSource, tuples: dict, named=None) -> KernelSource:
    """The kernel's text with each tuple parameter replaced by its elements'
    parameters and the tuple rebuilt at the start of the body, on the line of
    its first statement (so that no line moves); the columns of that line are
    given back by `fix_columns`. A namedtuple's field read in the kernel
    (`p.x`, `named` gives each such parameter's fields) becomes an index
    (`p[0]`)."""
    import ast
    import dataclasses

    unsupported = UnsupportedSyntax(
        f"{ks.where}: error: argument `{next(iter(tuples))}`: a tuple argument is supported where the "
        "kernel's first statement is a simple one (an assignment, a call) or an `if`"
    )
    try:
        tree = ast.parse(ks.src)
    except SyntaxError:
        raise unsupported from None
    fn = [d for d in tree.body if isinstance(d, ast.FunctionDef) and d.name == ks.name]
    if not fn or not fn[-1].body:
        raise unsupported
    fn = fn[-1]
    first = fn.body[0]
    # an `if` first: the tuples are rebuilt by assignment expressions in
    # its header, `if ((t := (t__ksem0, …)), TEST)[1]:` (evaluated first)
    header = isinstance(first, ast.If)
    if not header and not isinstance(first, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass)):
        raise unsupported
    lines = ks.src.split("\n")
    # byte offsets (ast's columns) on each edited line, right to left
    edits = []
    for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs:
        if a.arg in tuples:
            edits.append((a.lineno, a.col_offset, a.end_col_offset, ", ".join(tuples[a.arg][1])))
    for node in ast.walk(fn):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in (named or {})
            and node.attr in named[node.value.id]
            and node.end_lineno == node.lineno
        ):
            k = named[node.value.id].index(node.attr)
            edits.append((node.lineno, node.col_offset, node.end_col_offset, f"{node.value.id}[{k}]"))
    if header:
        t = first.test
        prefix = "(" + "".join(f"({n} := {expr}), " for n, (expr, _) in tuples.items())
        edits.append((t.lineno, t.col_offset, t.col_offset, prefix))
        edits.append((t.end_lineno, t.end_col_offset, t.end_col_offset, f")[{len(tuples)}]"))
        first = t
    else:
        prefix = "".join(f"{n} = {expr}; " for n, (expr, _) in tuples.items())
        edits.append((first.lineno, first.col_offset, first.col_offset, prefix))
    for line, start, end, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        b = lines[line - 1].encode()
        lines[line - 1] = (b[:start] + text.encode() + b[end:]).decode()
    # columns on the first statement's line: after the prefix, moved back
    base = next((ind for lo, hi, ind in ks.indents if lo <= first.lineno <= hi), 0)
    indents = ((first.lineno, first.lineno, base - len(prefix)),) + tuple(ks.indents)
    return dataclasses.replace(ks, src="\n".join(lines), indents=indents)


def _numba_arg(name: str, v, where: str):
    t = type(v)
    if t.__name__ in ("FakeCUDAArray", "FakeWithinKernelCUDAArray"):
        inner = getattr(v, "_ary", None)
        if inner is None:
            inner = getattr(getattr(v, "_item", None), "_ary", None)
        v = inner
    elif t.__name__ == "In" and hasattr(v, "value"):
        # copied to the device, never back: the kernel's writes stay there
        v = np.array(v.value, copy=True)
    elif t.__name__ in ("Out", "InOut") and hasattr(v, "value"):
        v = v.value
    return v


# numba's scalar type names in signature strings → ksem's dtype names
_NUMBA_SCALARS = {
    "boolean": "bool", "bool_": "bool", "b1": "bool", "bool": "bool",
    "int8": "int8", "i1": "int8", "int16": "int16", "i2": "int16",
    "int32": "int32", "i4": "int32", "int64": "int64", "i8": "int64", "intp": "int64", "intc": "int32",
    "uint8": "uint8", "u1": "uint8", "uint16": "uint16", "u2": "uint16",
    "uint32": "uint32", "u4": "uint32", "uint64": "uint64", "u8": "uint64", "uintp": "uint64",
    "float16": "float16", "f2": "float16", "float32": "float32", "f4": "float32",
    "float64": "float64", "f8": "float64",
    "complex64": "complex64", "c8": "complex64", "complex128": "complex128", "c16": "complex128",
}  # fmt: skip


def signature_scalars(sig: str) -> list:
    """The parameter types of a numba signature string (``"void(float32[:],
    int32)"``): a ksem dtype name for each scalar parameter, None for an
    array or a type this does not know."""
    if "(" not in sig or not sig.rstrip().endswith(")"):
        return []
    inner = sig[sig.index("(") + 1 : sig.rstrip().rindex(")")]
    params, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            params.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        params.append(cur)
    return [None if "[" in t else _NUMBA_SCALARS.get(t.strip()) for t in params]


def _is_numba_type(t) -> bool:
    """A numba type object (``float32``, ``int64[:]``, ``void``)."""
    return any(c.__name__ == "Type" and c.__module__.startswith("numba") for c in type(t).__mro__)


def is_signature_object(sig) -> bool:
    """An explicit numba signature written with type objects: a signature
    (``void(float32[::1], int64)``, numba's ``Signature``) or a tuple of
    argument types (``(float64[:], int32)``)."""
    if isinstance(sig, tuple):
        return all(_is_numba_type(t) for t in sig)
    return type(sig).__name__ == "Signature" and isinstance(getattr(sig, "args", None), tuple)


def signature_types(sig) -> list:
    """:func:`signature_scalars` of a signature string or a signature of
    numba type objects (an array, or a type this does not know, is None);
    nothing for anything else (a list of signatures: numba picks one per
    call by the arguments' types)."""
    if isinstance(sig, str):
        return signature_scalars(sig)
    if not is_signature_object(sig):
        return []
    args = sig if isinstance(sig, tuple) else sig.args
    return [None if hasattr(t, "ndim") else _NUMBA_SCALARS.get(str(t)) for t in args]


def _convert_scalar(v, d: str):
    """A host scalar converted to signature type `d` as numba converts it:
    an integer wraps to the type's width (4294967295 as int32 is -1), a
    bool is 0 or 1, a float stays a float (ksem rounds it to `d`)."""
    if d == "bool":
        return bool(v)
    if d.startswith("complex"):
        return complex(v)
    if d.startswith(("int", "uint")) and isinstance(v, (bool, int)):
        bits = int(d.removeprefix("u").removeprefix("int"))
        v = int(v) & ((1 << bits) - 1)
        if d.startswith("int") and v >= 1 << (bits - 1):
            v -= 1 << bits
    return v


def _const_arrays(ks: KernelSource, kernel) -> dict:
    """The numpy arrays the kernel reads as constants, by name (the
    launch's "constants"): those of ``cuda.const.array_like(NAME)`` and any
    global or closure variable holding an array that the kernel names
    (numba-cuda copies such an array into the kernel as a constant), looked
    up as the kernel function sees them."""
    import ast

    from ._kernel import _lookup

    try:
        tree = ast.parse(ks.src)
    except SyntaxError:
        return {}
    try:
        fn = unwrap(kernel)
    except KsemError:
        return {}
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in out:
            v = _lookup(fn, node.id)
            if isinstance(v, np.ndarray) and not isinstance(v, np.ma.MaskedArray):
                out[node.id] = np.ascontiguousarray(v)
    return out


def _cudapy(ks: KernelSource, kernel, args, grid, block, shared, tolerate_ub=None) -> Result:
    names = [p.name for p in ks.params if p.kind not in _VARIADIC]
    if len(args) != len(names):
        raise KsemError(f"{ks.where}: error: `{ks.name}` takes {len(names)} arguments, {len(args)} given")
    launch_args = {}
    tuples = {}
    named = {}
    enum_args = dict(ks.enum_args)
    for n, v in zip(names, args):
        if n in enum_args:
            # an enum member (numba's EnumMember type): the kernel's text
            # binds the parameter to the member; its launch argument is unused
            tuples[n] = (enum_args[n], [f"{n}__ksem_enum"])
            launch_args[f"{n}__ksem_enum"] = 0
            continue
        if _is_namedtuple(v):
            # a namedtuple (numba's NamedTuple): a tuple whose fields the
            # kernel reads by name
            named[n] = v._fields
            v = tuple(v)
        if type(v) is tuple:
            # a tuple (numba's UniTuple/Tuple): one launch argument per element
            tuples[n] = _flatten_param(n, v, launch_args, lambda sub, x: _numba_arg(sub, x, ks.where), 0)
        else:
            launch_args[n] = _numba_arg(n, v, ks.where)
    if tuples:
        ks = _unflatten_in_source(ks, tuples, named)
    sig = getattr(kernel, "_ksem_signature", None)
    if sig is not None:
        # numba converts a scalar argument to its signature's type
        for n, d in zip(names, signature_types(sig)):
            if n not in launch_args:
                continue
            v = launch_args[n]
            if d is not None and isinstance(v, (bool, int, float, complex, np.bool_, np.integer, np.floating, np.complexfloating)):
                launch_args[n] = Scalar(_convert_scalar(v.item() if isinstance(v, np.generic) else v, d), d)
    grid = tuple(int(g) for g in grid)
    block = tuple(int(b) for b in block)
    if 0 in grid or 0 in block:
        return Result(ks.name, {}, ())
    try:
        return run_source(ks.file, ks.src, ks.name, grid, block, launch_args, "cudapy", where=ks.where,
                          tolerate_ub=tolerate_ub, shared_bytes=int(shared or 0),
                          constants=_const_arrays(ks, kernel), namespace=_namespace(kernel))
    except KsemError as e:
        raise _located(e, ks) from None


def _namespace(kernel) -> dict:
    """The names a kernel's ``raise`` may use: its globals and closure."""
    try:
        fn = unwrap(kernel)
    except KsemError:
        return {}
    ns = dict(fn.__globals__)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            ns[name] = cell.cell_contents
        except ValueError:
            pass
    return ns


__all__ = ["run_live", "UndefinedBehavior"]
