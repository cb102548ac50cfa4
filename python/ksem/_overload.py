"""numba's ``@overload(f)`` as ksem reads it: a kernel that calls a plain
Python function ``f`` which numba-cuda overloads runs the implementation
numba would compile for that call.

numba calls the overload function with the numba types of the call's
arguments and compiles the function it returns. The plugin does the same
where the types are known on the host: an argument that is a kernel
parameter the kernel never reassigns has the type numba gives the launch's
value (``typeof``), a number literal its literal's type. Any other argument
is an opaque stand-in that refuses to be inspected: an overload function that
looks at it (``isinstance``, attributes, comparisons) cannot be decided here,
and the launch is refused at the call, never guessed. Calls of one name that
choose different implementations (numba compiles one per set of argument
types) each get their implementation under a name of its own
(``ksem._kernel``)."""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap

from ._ksem import KsemError


class _Undecided(Exception):
    """An overload function inspected an argument whose type is unknown."""


class _Opaque:
    """An argument whose numba type the plugin does not know: any look at
    it raises :class:`_Undecided` (``isinstance`` reads ``__class__``)."""

    __slots__ = ()

    def __getattribute__(self, name):
        raise _Undecided(name)

    def _refuse(self, *a, **k):
        raise _Undecided("an operation")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __hash__ = __bool__ = __len__ = __iter__ = __str__ = __repr__ = _refuse
    __getitem__ = __contains__ = __call__ = __int__ = __index__ = _refuse


def overload_functions(fn) -> list:
    """The functions registered with numba-cuda's ``@overload(fn)`` (none
    where numba-cuda is not imported)."""
    templates = sys.modules.get("numba.cuda.typing.templates")
    registry = getattr(templates, "builtin_registry", None)
    if registry is None:
        return []
    out = []
    for val, typ in list(getattr(registry, "globals", ())):
        if val is not fn:
            continue
        for t in getattr(typ, "templates", ()):
            f = getattr(t, "_overload_func", None)
            if f is not None and f not in out:
                out.append(f)
    return out


def _literal_type(node: ast.expr):
    """numba's (non-literal) type of a number literal, or None."""
    from numba.cuda import types

    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool):
            return types.boolean
        if isinstance(v, int):
            return types.int64
        if isinstance(v, float):
            return types.float64
    return None


def _stored_names(fn_node: ast.AST) -> set:
    return {n.id for n in ast.walk(fn_node) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}


def _arg_type(node: ast.expr, known: dict, stored: set):
    """The numba type of one call argument, or an opaque stand-in."""
    t = _literal_type(node)
    if t is not None:
        return t
    if isinstance(node, ast.Name) and node.id in known and node.id not in stored:
        try:
            from numba.cuda.typing.typeof import typeof

            return typeof(known[node.id])
        except Exception:
            return _Opaque()
    return _Opaque()


def _same_impl(a, b) -> bool:
    if a is b:
        return True
    if getattr(a, "__code__", None) is not getattr(b, "__code__", None):
        return False
    ca = [c.cell_contents for c in a.__closure__ or ()]
    cb = [c.cell_contents for c in b.__closure__ or ()]
    return len(ca) == len(cb) and all(x is y or (type(x) is type(y) and x == y) for x, y in zip(ca, cb))


def choose(name: str, fn, caller_text: str, where, known: dict | None) -> list:
    """(call, implementation) for every call of `name` (bound to `fn`) in
    `caller_text` (a function's dedented text), in source order: the
    function numba compiles for that call; `where(node)` gives a call's
    ``file:line:col``; `known`: the launch's values of the caller's
    parameters (the kernel's), or None."""
    ols = overload_functions(fn)
    tree = ast.parse(caller_text)
    fdef = tree.body[0]
    stored = _stored_names(fdef)
    chosen = []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    for node in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name):
            continue
        at = where(node)
        if len(ols) != 1:
            raise KsemError(f"{at}: error: `{name}` has {len(ols)} @overload implementations; ksem reads one")
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            raise KsemError(f"{at}: error: a call of the @overload-ed `{name}` with *args or **kwargs is not supported by ksem")
        args = [_arg_type(a, known or {}, stored) for a in node.args]
        kwargs = {k.arg: _arg_type(k.value, known or {}, stored) for k in node.keywords}
        ol = ols[0]
        try:
            bound = inspect.signature(ol).bind(*args, **kwargs)
        except TypeError as e:
            raise KsemError(f"{at}: error: `{name}`({e})") from None
        omitted = [p for p in inspect.signature(ol).parameters.values()
                   if p.name not in bound.arguments and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if omitted:
            raise KsemError(
                f"{at}: error: this call of the @overload-ed `{name}` leaves out `{omitted[0].name}` "
                "(numba passes it as an omitted type, which ksem does not model)"
            )
        try:
            impl = ol(*args, **kwargs)
        except _Undecided:
            raise KsemError(
                f"{at}: error: the @overload of `{name}` ({ol.__name__}) inspects the numba type of an argument "
                "the plugin does not know here (it knows kernel parameters the kernel does not reassign, "
                "and number literals); ksem cannot decide which implementation numba would compile"
            ) from None
        except Exception as e:
            raise KsemError(f"{at}: error: the @overload of `{name}` raised {type(e).__name__}: {e}") from None
        if isinstance(impl, tuple) and len(impl) == 2:
            impl = impl[1]
        if impl is None or not inspect.isfunction(impl):
            raise KsemError(f"{at}: error: the @overload of `{name}` gives no implementation for these arguments (numba: a TypingError)")
        chosen.append((node, impl))
    return chosen


def same_impl(a, b) -> bool:
    """Whether two implementations an overload function returned are one
    function (the same code closing over the same values)."""
    return _same_impl(a, b)


def lambda_def(fn, name: str) -> str | None:
    """A ``def`` text for `fn` where it is a lambda (``lambda a, f: f(a)``
    becomes ``def name(a, f): return f(a)``), else None."""
    if fn.__name__ != "<lambda>":
        return None
    try:
        lines, _ = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    src = textwrap.dedent("".join(lines))
    try:
        tree = ast.parse(src)
    except SyntaxError:
        try:
            tree = ast.parse("(" + src.strip().removeprefix("return ") + ")")
        except SyntaxError:
            return None
    params = list(fn.__code__.co_varnames[: fn.__code__.co_argcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and [a.arg for a in n.args.args] == params]
    if len(found) != 1:
        return None
    lam = found[0]
    return f"def {name}({ast.unparse(lam.args)}):\n    return {ast.unparse(lam.body)}\n"
