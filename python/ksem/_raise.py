"""A CUDA Python kernel's ``raise``/``assert`` under ``@cuda.jit(debug=True)``,
raised on the host after the launch, as numba-cuda raises it (measured on a
GPU: ``tools/probes/numba/raise_debug.json``, docs/numba-measured.md (l)).

ksem's front end records the first thread that raised in a buffer the kernel
makes itself (``__ksem_raise``: line, column, kind, thread x/y/z, block
x/y/z of the ``raise``); this module reads it back, evaluates the
exception the ``raise`` names in the kernel's namespace and words it as
numba-cuda does: ``In function 'k', file F, line L, tid=[z, y, x]
ctaid=[z, y, x]: message`` (numba-cuda lists the indices z first). A
``raise`` inside a device function is numba-cuda's ``SystemError: … unknown
error 1 in native function`` (numba issue 8036).
"""

from __future__ import annotations

import ast

from ._ksem import KsemError

RAISE_BUFFER = "__ksem_raise"
_IN_DEVICE_FUNCTION = 2
_RECURSION_TOO_DEEP = 3
_TUPLE_INDEX_ERROR = 4
# `recursion::MAX_DEPTH` of ksem's CUDA Python front end
_MAX_DEPTH = 12


def fired(result) -> bool:
    """Whether a thread of the launch raised (its arrays are then not
    written back: numba-cuda raises before copying them to the host)."""
    b = result.buffers.get(RAISE_BUFFER)
    return b is not None and int(b.bits[0]) != 0


def exception(result, file: str, src: str, namespace=None) -> BaseException:
    """The exception the host raises for the launch's `result` (see
    :func:`fired`), marked ``_ksem_kernel_raised``."""
    line, col, kind, tx, ty, tz, bx, by, bz = (int(v) for v in result.buffers[RAISE_BUFFER].bits[:9])
    where = f"tid=[{tz}, {ty}, {tx}] ctaid=[{bz}, {by}, {bx}]"
    if kind == _RECURSION_TOO_DEEP:
        return KsemError(
            f"{file}:{line}:{col}: error: this recursive call went deeper than ksem inlines a device function "
            f"({_MAX_DEPTH} nested calls of one function); ksem refuses the run ({where})"
        )
    if kind == _TUPLE_INDEX_ERROR:
        # numba-cuda's own IndexError names no function or line (measured:
        # tools/probes/numba/tuple_index.json)
        exc = IndexError(f"{where}: tuple index out of range")
        exc._ksem_kernel_raised = True
        return exc
    if kind == _IN_DEVICE_FUNCTION:
        exc = SystemError(f"{where}: unknown error 1 in native function")
    else:
        exc = _user_exception(file, src, line, col, where, namespace or {})
    exc._ksem_kernel_raised = True
    return exc


def _user_exception(file, src, line, col, where, namespace) -> BaseException:
    node, fname = _find(src, line, col)
    if node is None:
        raise KsemError(f"{file}:{line}:{col}: error: the kernel raised here, but ksem cannot find the `raise`")
    try:
        if isinstance(node, ast.Assert):
            made = AssertionError(_eval(node.msg, file, namespace)) if node.msg is not None else AssertionError()
        else:
            v = _eval(node.exc, file, namespace)
            made = v() if isinstance(v, type) else v
    except Exception as e:  # the host cannot build it: say so, located
        raise KsemError(
            f"{file}:{line}:{col}: error: the kernel raised here; ksem cannot build the exception on the host "
            f"({type(e).__name__}: {e})"
        ) from None
    if not isinstance(made, BaseException):
        raise KsemError(f"{file}:{line}:{col}: error: the kernel raised {made!r}, which is not an exception")
    msg = str(made)
    text = f"In function '{fname}', file {file}, line {line}, {where}" + (f": {msg}" if msg else "")
    try:
        return type(made)(text)
    except Exception:
        return made


def _eval(node, file, namespace):
    return eval(compile(ast.Expression(body=node), file, "eval"), dict(namespace))  # noqa: S307


def _find(src: str, line: int, col: int):
    """The ``raise``/``assert`` at `line`:`col` (1-based) and the name of
    the function around it."""
    tree = ast.parse(src)
    found = (None, "?")

    def visit(n, fname):
        nonlocal found
        for child in ast.iter_child_nodes(n):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else fname
            if isinstance(child, (ast.Raise, ast.Assert)) and child.lineno == line and child.col_offset + 1 == col:
                found = (child, name)
            visit(child, name)

    visit(tree, "?")
    return found

