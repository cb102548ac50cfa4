"""ksem as the anchors' interpreter inside an unmodified test suite.

Off unless ``pytest --ksem`` is given or ``KSEM_INTERPRET=1`` is set. On:

- every ``triton.jit`` kernel launch under ``TRITON_INTERPRET=1`` (Triton's
  interpreter: ``triton.runtime.interpreter.InterpretedFunction.run``) and
  every ``numba.cuda.jit`` kernel launch under ``NUMBA_ENABLE_CUDASIM=1``
  (numba's simulator: ``FakeCUDAKernel.__call__``) runs on ksem's reference
  interpreter; the kernel is read from the live function (source, globals,
  closure: :func:`ksem._kernel.live_source`). The rest of the host side stays
  the anchor's (argument handling, autotuning and heuristics that pick the
  meta-parameters, device arrays, streams). Both variables are set when the
  plugin is on and they are not.
- a launch ksem refuses fails its test with ksem's message, never falling
  back to the anchor's interpreter: the exception is a :class:`ksem.KsemError`
  that is also the anchor's own error type (Triton's ``CompilationError`` and
  ``InterpreterError``; numba's ``TypingError``), so a test expecting the
  anchor to refuse a program accepts ksem's refusal.
- a launch that hits undefined behaviour fails with ksem's report (an
  exception of the same types), counted apart from refusals, except a data
  race whose every report is one between plain stores that all stored the
  same bits (Triton's own tests store one value from many programs on
  purpose, ``test_clamp``): that launch's results are kept and the race is a
  :class:`KsemRaceWarning`, unless ``--ksem-strict`` is given; likewise a
  launch whose every report is a store of an unchanged copy of memory nobody
  wrote (Triton's code-generation tests copy a ``torch.empty`` input to an
  output they never read) is a :class:`KsemUninitializedCopyWarning`.
- the session ends with exactly one line ``ksem: N kernel launches ran on
  ksem, M refused``, then the refusals grouped by cause.
"""

from __future__ import annotations

import builtins
import collections
import functools
import importlib.util
import inspect
import itertools
import linecache
import os
import re
import warnings

import pytest

_ON_ENV = "KSEM_INTERPRET"


def pytest_addoption(parser):
    group = parser.getgroup("ksem", "ksem: run the suite's kernels on ksem's reference interpreter")
    group.addoption(
        "--ksem",
        action="store_true",
        default=False,
        help="run every triton.jit / numba.cuda.jit kernel launch on ksem (also: KSEM_INTERPRET=1)",
    )
    group.addoption(
        "--ksem-strict",
        action="store_true",
        default=False,
        help="fail a launch whose only UB is a race of stores of identical bits (default: a warning)",
    )


def _enabled(config) -> bool:
    return bool(config.getoption("--ksem", default=False)) or os.environ.get(_ON_ENV, "") == "1"


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    # before the suite's conftest imports triton or numba: the anchors read
    # these when they are imported
    if "--ksem" in args or os.environ.get(_ON_ENV, "") == "1":
        os.environ.setdefault("TRITON_INTERPRET", "1")
        os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")


def pytest_configure(config):
    if not _enabled(config):
        return
    state = Session(strict=bool(config.getoption("--ksem-strict", default=False)))
    config._ksem_session = state
    state.install()


def pytest_unconfigure(config):
    state = getattr(config, "_ksem_session", None)
    if state is not None:
        state.uninstall()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    state = getattr(config, "_ksem_session", None)
    if state is None:
        return
    for line in state.summary():
        terminalreporter.write_line(line)


# xdist: each worker counts its own launches; the controller adds them up
# (an optional hook: without pytest-xdist it is never called)
@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    state = getattr(node.config, "_ksem_session", None)
    out = getattr(node, "workeroutput", None) or {}
    if state is not None and "ksem" in out:
        state.merge(out["ksem"])


def pytest_sessionfinish(session, exitstatus):
    state = getattr(session.config, "_ksem_session", None)
    if state is not None and hasattr(session.config, "workeroutput"):
        session.config.workeroutput["ksem"] = state.export()
        state.reset()


class Session:
    """The launches of one test session and the anchors' patched entry points."""

    def __init__(self, strict: bool = False):
        self.strict = strict
        self.warned = 0
        self.warned_copies = 0
        self.ran = 0
        self.refused = 0
        self.causes: collections.Counter = collections.Counter()
        self.ub = 0
        self.ub_causes: collections.Counter = collections.Counter()
        self.notes: list = []
        self._undo: list = []

    # -- counting -------------------------------------------------------
    def export(self) -> dict:
        return {
            "ran": self.ran,
            "refused": self.refused,
            "causes": dict(self.causes),
            "ub": self.ub,
            "ub_causes": dict(self.ub_causes),
            "warned": self.warned,
            "warned_copies": self.warned_copies,
        }

    def merge(self, d: dict) -> None:
        self.ran += d["ran"]
        self.refused += d["refused"]
        self.causes.update(d["causes"])
        self.ub += d["ub"]
        self.ub_causes.update(d["ub_causes"])
        self.warned += d.get("warned", 0)
        self.warned_copies += d.get("warned_copies", 0)

    def reset(self) -> None:
        self.ran = self.refused = self.ub = self.warned = self.warned_copies = 0
        self.causes.clear()
        self.ub_causes.clear()

    def summary(self) -> list:
        lines = [f"ksem: {self.ran} kernel launches ran on ksem, {self.refused} refused"]
        for cause, n in self.causes.most_common():
            lines.append(f"  {n:5d} refused: {cause}")
        if self.ub:
            lines.append(f"  undefined behaviour found in {self.ub} of the launches that ran:")
            for cause, n in self.ub_causes.most_common():
                lines.append(f"  {n:5d} UB: {cause}")
        if self.warned:
            lines.append(f"  {self.warned} of the launches that ran raced storing identical bits "
                         "(a warning; --ksem-strict fails them)")
        if self.warned_copies:
            lines.append(f"  {self.warned_copies} of the launches that ran stored unchanged copies of memory "
                         "nobody wrote (a warning; --ksem-strict fails them)")
        lines += [f"  note: {n}" for n in self.notes]
        return lines

    # -- patching -------------------------------------------------------
    def install(self) -> None:
        self._patch_exec()
        for name, env_on, patch in (
            ("triton", os.environ.get("TRITON_INTERPRET", "") in ("1", "true", "True"), self._patch_triton),
            ("numba", os.environ.get("NUMBA_ENABLE_CUDASIM", "") == "1", self._patch_numba),
        ):
            if not env_on or importlib.util.find_spec(name) is None:
                continue
            try:
                patch()
            except Exception as e:  # an anchor that cannot be loaded must not stop the session
                self.notes.append(f"{name} is installed but could not be loaded ({type(e).__name__}: {e}); "
                                  f"its launches do not run on ksem in this session")

    def uninstall(self) -> None:
        while self._undo:
            obj, name, old = self._undo.pop()
            setattr(obj, name, old)

    def _set(self, obj, name, new) -> None:
        self._undo.append((obj, name, getattr(obj, name)))
        setattr(obj, name, new)

    def _patch_exec(self) -> None:
        """``exec()`` of a string keeps the string's text (under a name of
        its own in linecache), so that the source of a kernel built by
        ``exec`` can be read, as Triton's and numba's own error reports
        would need it too."""
        real_exec = builtins.exec
        counter = itertools.count(1)

        def exec_keeping_text(source, globals=None, locals=None, *rest, **kw):  # noqa: A002
            if isinstance(source, str) and not rest and not kw and ("def " in source):
                name = f"<ksem-exec-{next(counter)}>"
                try:
                    code = compile(source, name, "exec", dont_inherit=True)
                except SyntaxError:
                    code = None
                if code is not None:
                    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
                    source = code
            if globals is None:
                frame = inspect.currentframe().f_back
                globals, locals = frame.f_globals, frame.f_locals if locals is None else locals
                del frame
            return real_exec(source, globals, locals, *rest, **kw)

        self._set(builtins, "exec", exec_keeping_text)

    def _patch_triton(self) -> None:
        from triton.runtime import interpreter

        session = self
        errors = _triton_errors()

        def run(self, *args, grid, warmup=False, **kwargs):
            __tracebackhide__ = True  # a failure's traceback ends in the test, not here
            if warmup:
                return None
            return session.launch("triton", self, args, kwargs, grid, None, errors)

        self._set(interpreter.InterpretedFunction, "run", run)
        self._patch_torch_empty()

    def _patch_torch_empty(self) -> None:
        """``torch.empty``/``empty_like``/``empty_strided`` give memory
        nobody wrote: a kernel's read of it before any write is reported
        (``_uninit``; a torch operation that writes the tensor defines it)."""
        import torch

        from . import _uninit

        def marking(real):
            @functools.wraps(real)
            def empty(*args, **kwargs):
                return _uninit.mark_torch(real(*args, **kwargs))

            return empty

        for name in ("empty", "empty_like", "empty_strided"):
            self._set(torch, name, marking(getattr(torch, name)))

    def _patch_numba(self) -> None:
        import numba.cuda
        from numba.cuda.simulator import kernel as simkernel

        # the simulator drops a kernel's explicit signature (a string, or
        # numba type objects); ksem reads it (numba converts the arguments
        # to it): keep it on the kernel
        real_jit = numba.cuda.jit

        from ._launch import is_signature_object

        def jit(func_or_sig=None, *args, **kwargs):
            made = real_jit(func_or_sig, *args, **kwargs)
            if not (isinstance(func_or_sig, str) or is_signature_object(func_or_sig)):
                return made
            if isinstance(made, simkernel.FakeCUDAKernel):
                made._ksem_signature = func_or_sig
                return made

            def decorate(fn):
                k = made(fn)
                k._ksem_signature = func_or_sig
                return k

            return decorate

        self._set(numba.cuda, "jit", jit)
        self._patch_device_arrays()
        session = self
        original = simkernel.FakeCUDAKernel.__call__
        errors = _numba_errors()

        def call(self, *args):
            __tracebackhide__ = True
            if self._device:
                return original(self, *args)
            # the simulator's own check of the launch configuration first
            # (an unconfigured kernel is the anchor's ValueError)
            grid, block = simkernel.normalize_kernel_dimensions(self.grid_dim, self.block_dim)
            # the kernel's extensions prepare the arguments, as the
            # simulator applies them (numba's `DefaultIn` makes cuda.In)
            retr = []
            if self.extensions:
                args = tuple(
                    functools.reduce(
                        lambda ty_val, ext: ext.prepare_args(*ty_val, stream=0, retr=retr), self.extensions, (None, a)
                    )[1]
                    for a in args
                )
            out = session.launch("cudapy", self, args, {}, grid, block, errors, shared=self.dynshared_size)
            for write_back in retr:
                write_back()
            return out

        self._set(simkernel.FakeCUDAKernel, "__call__", call)

    def _patch_device_arrays(self) -> None:
        """``cuda.device_array``/``device_array_like`` (and
        ``mapped_array``, which makes one) give memory nobody wrote: a
        kernel's read of it before any write is reported (``_uninit``); a
        host write (``copy_to_device``, item assignment) defines it."""
        import numba.cuda
        from numba.cuda.simulator.cudadrv import devicearray

        from . import _uninit

        real = devicearray.device_array

        def device_array(*args, **kwargs):
            made = real(*args, **kwargs)
            _uninit.mark_numpy(made._ary)
            return made

        self._set(devicearray, "device_array", device_array)
        self._set(numba.cuda, "device_array", device_array)
        fake = devicearray.FakeCUDAArray
        for method in ("__setitem__", "copy_to_device"):
            self._set(fake, method, _writing(getattr(fake, method), _uninit))

    # -- launching ------------------------------------------------------
    def launch(self, dialect, kernel, args, kwargs, grid, block, errors, shared=0):
        __tracebackhide__ = True
        from . import _launch
        from ._ksem import KsemError, UndefinedBehavior

        tolerate = None if self.strict else tolerated_ub
        try:
            result = _launch.run_live(dialect, kernel, args, kwargs, grid, block, shared=shared,
                                      tolerate_ub=tolerate)
        except UndefinedBehavior as e:
            self.ran += 1
            reports = getattr(e, "reports", ())
            self.ub += 1
            for kind in sorted({u.kind for u in reports}) or ["?"]:
                self.ub_causes[kind] += 1
            # chained as the anchors chain their errors: tests read
            # exc.__cause__ (Triton's test_invalid_pid_axis)
            raise errors(str(e), ub=True) from e
        except KsemError as e:
            self.refused += 1
            self.causes[cause_of(str(e))] += 1
            raise errors(str(e)) from e
        except _launch.HostError as h:
            raise h.original from None  # the host's own code failed, as it would on the anchor
        except Exception as e:
            if getattr(e, "_ksem_kernel_raised", False):
                # a kernel compiled with debug=True raised (ksem._raise)
                self.ran += 1
                raise
            # a bug of the plugin: this test fails with it, the session goes on
            self.refused += 1
            self.causes[f"internal error of ksem's plugin ({type(e).__name__})"] += 1
            raise errors(
                f"ksem: internal error of the pytest plugin ({type(e).__name__}: {e}); please report it with this test"
            ) from e
        self.ran += 1
        if result.ub:
            if identical_store_races(result.ub):
                self.warned += 1
                warnings.warn(KsemRaceWarning("ksem: " + result.ub[0].text), stacklevel=3)
            else:
                self.warned_copies += 1
                warnings.warn(KsemUninitializedCopyWarning("ksem: " + result.ub[0].text), stacklevel=3)
        return None  # as the anchors' launches return


# The end of ksem's message for a race between plain stores that all stored
# the same bits (`ksem_interp::eval::IDENTICAL_STORES`).
IDENTICAL_STORES = "; every store stored the same bits"


def _writing(method, uninit):
    """`method` of a simulator device array, which writes it from the host:
    its memory is defined from then on."""

    @functools.wraps(method)
    def write(self, *args, **kwargs):
        uninit.written(self._ary)
        return method(self, *args, **kwargs)

    return write


# The end of ksem's message for a store of an unchanged copy of memory the
# launch left uninitialised (`ksem_interp::eval::UNINITIALIZED_COPY`).
UNINITIALIZED_COPY = "; it is an unchanged copy of memory the launch left uninitialised"


def uninitialized_copies(reports) -> bool:
    """Whether every UB report is a store of an unchanged copy of memory
    nobody wrote."""
    return bool(reports) and all(
        u.kind == "undefined-value" and u.message.endswith(UNINITIALIZED_COPY) for u in reports
    )


def tolerated_ub(reports) -> bool:
    """Whether a launch's UB is only what the plugin makes a warning: races
    of identical stores, or only stores of unchanged copies of memory nobody
    wrote (never a mix with other UB)."""
    return bool(reports) and all(
        (u.kind == "data-race" and u.message.endswith(IDENTICAL_STORES))
        or (u.kind == "undefined-value" and u.message.endswith(UNINITIALIZED_COPY))
        for u in reports
    )


def identical_store_races(reports) -> bool:
    """Whether every UB report is a race of stores of identical bits."""
    return bool(reports) and all(u.kind == "data-race" and u.message.endswith(IDENTICAL_STORES) for u in reports)


class KsemUninitializedCopyWarning(UserWarning):
    """A kernel stored unchanged copies of memory nobody wrote (UB
    ``undefined-value`` by ksem's contract), a warning from the plugin
    unless ``--ksem-strict``: its destination stays undefined."""


class KsemRaceWarning(UserWarning):
    """Program instances raced storing the same bits to one place: a data
    race by ksem's contract, a warning from the plugin unless ``--ksem-strict``."""


def cause_of(message: str) -> str:
    """A refusal's message reduced to its cause: the first line without the
    location, with argument names and numbers blanked (the construct named
    in backquotes, e.g. the builtin ksem does not know, is the cause)."""
    first = message.strip().splitlines()[0] if message.strip() else "?"
    first = re.sub(r"^.*?:\d+:\d+: (error: )?", "", first)
    first = re.sub(r"^[^ ]*: error: ", "", first)
    first = re.sub(r"\bargument `[^`]*`", "argument `…`", first)
    first = re.sub(r"\b\d+\b", "N", first)
    return first[:140]


def _error_type(name: str, bases: tuple):
    """An exception type that is ksem's KsemError and each of `bases`,
    keeping ksem's message as its text."""
    from ._ksem import KsemError, UndefinedBehavior

    def make(base_ksem):
        usable = []
        for b in bases:
            try:
                type("probe", (base_ksem, b), {})
                usable.append(b)
            except TypeError:
                continue

        def __init__(self, message, *a, **kw):
            Exception.__init__(self, message)
            self.message = self.error_message = message
            self.src = None
            self.node = None

        def __str__(self):
            return self.message

        return type(name, (base_ksem, *usable), {"__init__": __init__, "__str__": __str__,
                                                 "__module__": "ksem.pytest_plugin"})

    refuse, ub = make(KsemError), make(UndefinedBehavior)

    def raise_as(message, ub_found=False, **kw):
        return (ub if kw.get("ub") else refuse)(message)

    return raise_as


def _triton_errors():
    bases = []
    try:
        from triton.compiler.errors import CompilationError

        bases.append(CompilationError)
    except ImportError:
        pass
    try:
        from triton.runtime.errors import InterpreterError

        bases.append(InterpreterError)
    except ImportError:
        pass
    return _error_type("KsemTritonError", tuple(bases))


def _numba_errors():
    bases = []
    try:
        from numba.core.errors import TypingError

        bases.append(TypingError)
    except ImportError:
        pass
    return _error_type("KsemNumbaError", tuple(bases))
