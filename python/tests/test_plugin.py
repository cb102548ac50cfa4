"""The pytest plugin (``pytest --ksem`` / ``KSEM_INTERPRET=1``), run on small
test files in a fresh pytest process (pytester): inert when off; when on,
the anchors' launches run on ksem (checked against values numpy computes),
a refusal fails only its test with ksem's located message as an exception of
the anchor's own type, and the session ends with the one summary line.

The parts that need Triton or numba-cuda skip where they are not installed
(CI installs only numpy and pytest)."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

pytest_plugins = ["pytester"]

SUMMARY = re.compile(r"^ksem: (\d+) kernel launches ran on ksem, (\d+) refused$", re.MULTILINE)

PLAIN = """
def test_nothing_to_launch():
    assert 1 + 1 == 2
"""


def _run(pytester, *args, env=None):
    for k, v in (env or {}).items():
        pytester._monkeypatch.setenv(k, v)
    # the plugin comes from the installed package's pytest11 entry point
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def test_off_by_default_prints_nothing(pytester):
    pytester._monkeypatch.delenv("KSEM_INTERPRET", raising=False)
    pytester.makepyfile(PLAIN)
    r = _run(pytester)
    r.assert_outcomes(passed=1)
    assert not SUMMARY.search(r.stdout.str())


@pytest.mark.parametrize("switch", [["--ksem"], []])
def test_on_prints_exactly_one_summary_line(pytester, switch):
    pytester.makepyfile(PLAIN)
    r = _run(pytester, *switch, env=None if switch else {"KSEM_INTERPRET": "1"})
    r.assert_outcomes(passed=1)
    found = SUMMARY.findall(r.stdout.str())
    assert found == [("0", "0")]


TRITON_TESTS = '''
import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from typing import NamedTuple


def test_nested_kernel_runs_on_ksem():
    K = 3

    @triton.jit
    def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * K, mask=m)

    x = torch.arange(100, dtype=torch.int32)
    out = torch.zeros_like(x)
    k[(2,)](x, out, 100, BLOCK=64)
    assert torch.equal(out, x * 3)


def test_transposed_view_through_its_strides():
    @triton.jit
    def copy(x_ptr, out_ptr, s0, s1, M: tl.constexpr, N: tl.constexpr):
        i = tl.arange(0, M)[:, None]
        j = tl.arange(0, N)[None, :]
        tl.store(out_ptr + i * N + j, tl.load(x_ptr + i * s0 + j * s1))

    x = torch.arange(32, dtype=torch.float32).reshape(4, 8).t()
    out = torch.empty(8, 4)
    copy[(1,)](x, out, x.stride(0), x.stride(1), M=8, N=4)
    assert torch.equal(out, x)


def test_refused_launch_fails_with_ksems_message():
    @triton.jit
    def bad(x_ptr):
        tl.store(x_ptr + tl.arange(0, 3), 1.0)

    bad[(1,)](torch.zeros(4))


def test_anchor_error_type_is_accepted():
    @triton.jit
    def bad(x_ptr):
        tl.store(x_ptr + tl.arange(0, 3), 1.0)

    with pytest.raises(triton.CompilationError):
        bad[(1,)](torch.zeros(4))


def test_kernel_built_by_exec_of_a_string():
    src = """
@triton.jit
def plus(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + ADD)
"""
    scope = {"triton": triton, "tl": tl, "ADD": 5}
    exec(src, scope)
    x = torch.arange(8, dtype=torch.int32)
    scope["plus"][(1,)](x, BLOCK=8)
    assert torch.equal(x, torch.arange(8, dtype=torch.int32) + 5)


def test_grid_callable_errors_are_the_hosts():
    @triton.jit
    def k(x_ptr):
        pass

    def grid(meta):
        raise KeyError("BLOCK")

    with pytest.raises(KeyError):
        k[grid](torch.zeros(1))


def test_an_internal_error_is_a_refusal(monkeypatch):
    import ksem
    import ksem._launch

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(ksem._launch, "live_source", broken)

    @triton.jit
    def k(x_ptr):
        pass

    with pytest.raises(ksem.KsemError, match="internal error of the pytest plugin [(]RuntimeError: boom[)]"):
        k[(1,)](torch.zeros(1))


class View(NamedTuple):
    ptr: object
    shape: tuple
    stride: tuple


class Op(NamedTuple):
    fn: tl.constexpr
    args: tuple


@triton.constexpr_function
def halve(n):
    return n // 2


def test_namedtuple_arguments_and_a_constexpr_function():
    @triton.jit
    def axpy(x, a, b):
        return x * a + b

    @triton.jit
    def k(src, dst, op, N2: tl.constexpr):
        i = tl.arange(0, halve(N2))
        m = i < src.shape[0]
        x = tl.load(src.ptr + i * src.stride[0], mask=m)
        tl.store(dst + i, op.fn(x, *op.args), mask=m)

    x = torch.arange(16, dtype=torch.float32)[::2]
    out = torch.zeros(8)
    k[(1,)](View(x, x.shape, x.stride()), out, Op(axpy, (3.0, 1.0)), N2=16)
    assert torch.equal(out, x * 3 + 1)


def test_session_goes_on():
    assert True
'''


def test_triton_launches_run_on_ksem(pytester):
    for m in ("torch", "triton"):
        if importlib.util.find_spec(m) is None:
            pytest.skip(f"{m} is not installed")
    pytester.makepyfile(test_t=TRITON_TESTS)
    r = _run(pytester, "--ksem", "-v", env={"TRITON_INTERPRET": "1"})
    r.assert_outcomes(passed=8, failed=1)
    out = r.stdout.str()
    assert SUMMARY.findall(out) == [("4", "3")]
    # the refusal's message: ksem's, located in the test file, and the cause listed under the summary
    assert re.search(r"KsemTritonError: .*test_t.py:\d+:\d+: error: .*arange", out)
    assert re.search(r"^\s+2 refused: .*arange", out, re.MULTILINE)
    assert re.search(r"^\s+1 refused: internal error of ksem's plugin \(RuntimeError\)", out, re.MULTILINE)


def test_signature_scalars():
    from ksem._launch import signature_scalars

    assert signature_scalars("void(float32[::1], intp, f8, float64[:, :], boolean)") == [
        None, "int64", "float64", None, "bool"]
    assert signature_scalars("(int32, uint8)") == ["int32", "uint8"]


def test_signature_types_of_numba_type_objects():
    pytest.importorskip("numba")
    from numba import boolean, float32, float64, intp, void

    from ksem._launch import is_signature_object, signature_types

    assert signature_types(void(float32[::1], intp, float64[:, :], boolean)) == [None, "int64", None, "bool"]
    assert signature_types((float32, float64[:])) == ["float32", None]
    assert signature_types("void(float32)") == ["float32"]
    assert signature_types([void(float32)]) == []  # several signatures: numba picks one per call
    assert not is_signature_object(lambda x: x)


def test_a_cause_keeps_the_construct_and_blanks_the_specifics():
    from ksem.pytest_plugin import cause_of

    msg = "/t/test_a.py:12:5: error: `flip` is not a Triton builtin ksem knows\n  ┌─ /t/test_a.py:12:5"
    assert cause_of(msg) == "`flip` is not a Triton builtin ksem knows"
    assert cause_of("/t/a.py:1:1: error: argument `x_ptr`: arrays of 3 dims") == "argument `…`: arrays of N dims"


NUMBA_TESTS = '''
import numpy as np
from numba import cuda


def test_simulator_kernel_runs_on_ksem():
    SCALE = 7

    @cuda.jit(device=True)
    def f(v):
        return v * SCALE

    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = f(x[i]) + 1

    x = np.arange(40, dtype=np.int64)
    out = np.zeros_like(x)
    k[2, 32](x, out)
    assert (out == x * 7 + 1).all()


def test_device_array_round_trip():
    @cuda.jit
    def k(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = a[i] * 2

    d = cuda.to_device(np.arange(10, dtype=np.float32))
    k[1, 16](d)
    assert (d.copy_to_host() == np.arange(10, dtype=np.float32) * 2).all()


def test_refused():
    @cuda.jit
    def k(a):
        cuda.cg.this_grid().sync()  # a grid-wide barrier on 2 blocks: ksem refuses it

    k[2, 1](np.zeros(1))


def test_a_debug_kernels_raise_is_raised_on_the_host():
    class Boom(Exception):
        pass

    @cuda.jit(debug=True)
    def k(a):
        if a[0] > 0:
            raise Boom("boom")
        a[0] = 5

    a = np.ones(1)
    try:
        k[1, 1](a)
    except Boom as e:  # numba-cuda's wording (docs/numba-measured.md (l))
        assert str(e).startswith("In function 'k', file ")
        assert str(e).endswith("tid=[0, 0, 0] ctaid=[0, 0, 0]: boom")
    else:
        raise AssertionError("the kernel's exception was not raised")
    assert a[0] == 1  # not written back


def test_explicit_signature_converts_scalars_as_numba():
    @cuda.jit("void(float32[::1], float32)")
    def k(out, v):
        out[0] = v * 3

    out = np.zeros(1, np.float32)
    k[1, 1](out, 0.1)  # 0.1 rounded to float32 first, then times 3 in float32
    assert out[0] == np.float32(0.1) * np.float32(3)

    def body(out, v):
        out[0] = v + 1

    k2 = cuda.jit("void(int32[:], int32)")(body)
    out2 = np.zeros(1, np.int32)
    k2[1, 1](out2, 41)
    assert out2[0] == 42
    k2[1, 1](out2, 2**32 - 1)  # numba wraps 4294967295 to the int32 -1
    assert out2[0] == 0


def test_signature_of_type_objects_converts_scalars_as_numba():
    from numba import float32, int32, int64, void

    @cuda.jit(void(float32[::1], float32))
    def sq(out, v):
        out[0] = v * v

    out = np.zeros(1, np.float32)
    sq[1, 1](out, 0.1)  # in float32: 0.010000000707805157 (float64 then rounded: 0.009999999776482582)
    assert out[0] == np.float32(0.1) * np.float32(0.1)

    def body(out, v):
        out[0] = v

    k = cuda.jit((int64[:], int32))(body)
    out2 = np.zeros(1, np.int64)
    k[1, 1](out2, 2**32 - 1)  # 4294967295 as the int32 -1
    assert out2[0] == -1


def test_tuple_arguments():
    @cuda.jit
    def f(r, x, nothing):
        r[0] = x[0] + x[1][0]
        r[1] = x[1][1]

    r = np.zeros(2, np.float64)
    f[1, 1](r, (1, (2.5, 4)), ())  # numba's Tuple(int64, Tuple(float64, int64)) and an empty tuple
    assert list(r) == [3.5, 4.0]


def test_closed_over_operator_enum_and_ufunc():
    import enum
    import operator

    class Color(enum.IntEnum):
        red = 1
        green = 2

    op = operator.add  # read as `from operator import add as op`
    f = np.hypot  # a numpy ufunc: `from numpy import hypot as f`

    @cuda.jit
    def k(out):
        out[0] = op(Color.green, 3)  # the enum class as a class of its values
        out[1] = f(3.0, 4.0)

    out = np.zeros(2)
    k[1, 1](out)
    assert list(out) == [5.0, 5.0]


def test_in_out_inout():
    def set_three(a):
        a[0] = 3

    k = cuda.jit(set_three)
    a = np.zeros(1, np.int64)
    k[1, 1](cuda.In(a))  # copied to the device, never back
    assert a[0] == 0
    k[1, 1](cuda.InOut(a))
    assert a[0] == 3
'''


def _simulator_loads() -> bool:
    """numba-cuda's simulator imports (it needs the CUDA runtime library,
    `pip install nvidia-cuda-runtime`, even with no GPU)."""
    if importlib.util.find_spec("numba") is None:
        return False
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    code = "from numba.cuda.simulator import kernel"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True).returncode == 0


def test_numba_simulator_launches_run_on_ksem(pytester):
    if not _simulator_loads():
        pytest.skip("numba-cuda's simulator is not installed or cannot be loaded")
    pytester.makepyfile(test_n=NUMBA_TESTS)
    r = _run(pytester, "--ksem", env={"NUMBA_ENABLE_CUDASIM": "1"})
    r.assert_outcomes(passed=8, failed=1)
    out = r.stdout.str()
    assert SUMMARY.findall(out) == [("12", "1")]
    assert re.search(r"KsemNumbaError: .*test_n.py:\d+:\d+: error: ", out)


UNINIT_NUMBA_TESTS = '''
import numpy as np
import pytest
from numba import cuda

import ksem


@cuda.jit
def twice(src, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[i] * 2


@cuda.jit
def fill(a, v, n):
    i = cuda.grid(1)
    if i < n:
        a[i] = v


def test_a_never_written_device_array_is_reported():
    src = cuda.device_array(4, np.float32)
    out = cuda.device_array(4, np.float32)
    with pytest.raises(ksem.UndefinedBehavior, match="undefined-value.*src.0."):
        twice[1, 4](src, out)


def test_a_device_array_written_by_a_kernel_then_read():
    src = cuda.device_array(4, np.float32)
    out = cuda.device_array(4, np.float32)
    fill[1, 4](src, 1.5, 4)
    twice[1, 4](src, out)
    assert (out.copy_to_host() == np.float32(3.0)).all()


def test_half_written_then_read_names_the_first_unwritten_element():
    src = cuda.device_array(4, np.float32)
    out = cuda.device_array(4, np.float32)
    fill[1, 4](src, 1.5, 2)  # elements 0 and 1 only
    with pytest.raises(ksem.UndefinedBehavior, match="src.2."):
        twice[1, 4](src, out)


def test_host_writes_define_a_device_array():
    a = cuda.device_array(4, np.float32)
    a.copy_to_device(np.arange(4, dtype=np.float32))
    b = cuda.device_array(4, np.float32)
    b[:] = 2.0
    out = cuda.device_array(4, np.float32)
    twice[1, 4](a, out)
    assert list(out.copy_to_host()) == [0.0, 2.0, 4.0, 6.0]
    twice[1, 4](b, out)
    assert list(out.copy_to_host()) == [4.0] * 4


def test_to_device_is_defined():
    out = cuda.device_array(3, np.float32)
    twice[1, 4](cuda.to_device(np.ones(3, np.float32)), out)
    assert list(out.copy_to_host()) == [2.0] * 3


@cuda.jit
def copy(src, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[i]


def test_a_copy_of_a_never_written_device_array_is_a_warning():
    src = cuda.device_array(4, np.float32)
    out = np.ones(4, np.float32)
    copy[1, 4](src, out)  # a KsemUninitializedCopyWarning; the launch ran
'''


def test_uninitialised_device_arrays_under_the_plugin(pytester):
    if not _simulator_loads():
        pytest.skip("numba-cuda's simulator is not installed or cannot be loaded")
    pytester.makepyfile(test_u=UNINIT_NUMBA_TESTS)
    r = _run(pytester, "--ksem", env={"NUMBA_ENABLE_CUDASIM": "1"})
    r.assert_outcomes(passed=6, warnings=1)
    out = r.stdout.str()
    assert "KsemUninitializedCopyWarning" in out
    assert re.search(r"^\s+1 of the launches that ran stored unchanged copies of memory nobody wrote", out, re.M)
    # --ksem-strict fails the copy like any other UB
    r = _run(pytester, "--ksem", "--ksem-strict", env={"NUMBA_ENABLE_CUDASIM": "1"})
    r.assert_outcomes(passed=5, failed=1)


UNINIT_TORCH_TESTS = '''
import pytest
import torch
import triton
import triton.language as tl

import ksem


@triton.jit
def accumulate(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def test_accumulating_into_torch_empty_is_reported():
    out = torch.empty(1)
    with pytest.raises(ksem.UndefinedBehavior, match="undefined-value"):
        accumulate[(2,)](torch.ones(3), out, 3, BLOCK=4)


def test_torch_empty_written_by_torch_first():
    out = torch.empty(1)
    out.zero_()  # a torch write: the version moves, the tensor is defined
    accumulate[(2,)](torch.ones(3), out, 3, BLOCK=4)
    assert out.item() == 6.0
'''


def test_torch_empty_under_the_plugin(pytester):
    for m in ("torch", "triton"):
        if importlib.util.find_spec(m) is None:
            pytest.skip(f"{m} is not installed")
    pytester.makepyfile(test_e=UNINIT_TORCH_TESTS)
    r = _run(pytester, "--ksem", env={"TRITON_INTERPRET": "1"})
    r.assert_outcomes(passed=2)


RACE_TESTS = '''
import torch
import triton
import triton.language as tl


@triton.jit
def every_program_stores(out_ptr, V):
    tl.store(out_ptr, V)


@triton.jit
def each_program_stores_its_id(out_ptr):
    tl.store(out_ptr, tl.program_id(0))


def test_identical_stores():
    out = torch.zeros(1, dtype=torch.int32)
    every_program_stores[(4,)](out, 7)
    assert int(out[0]) == 7  # the launch's results are kept


def test_different_stores():
    out = torch.zeros(1, dtype=torch.int32)
    each_program_stores_its_id[(4,)](out)
'''


@pytest.mark.parametrize("strict", [False, True])
def test_a_race_of_identical_stores_is_a_warning_unless_strict(pytester, strict):
    for m in ("torch", "triton"):
        if importlib.util.find_spec(m) is None:
            pytest.skip(f"{m} is not installed")
    pytester.makepyfile(test_r=RACE_TESTS)
    r = _run(pytester, "--ksem", *(["--ksem-strict"] if strict else []), env={"TRITON_INTERPRET": "1"})
    out = r.stdout.str()
    if strict:
        r.assert_outcomes(failed=2)
        assert "every store stored the same bits" in out
    else:
        r.assert_outcomes(passed=1, failed=1, warnings=1)
        assert "KsemRaceWarning" in out
        assert re.search(r"^\s+1 of the launches that ran raced storing identical bits", out, re.MULTILINE)
    # the race of different stores fails either way
    assert re.search(r"test_different_stores - ", out)

