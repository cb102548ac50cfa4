"""Host values the plugin passes to numba-cuda kernels (issue 24): `S<n>`/
`U<n>` arrays, datetime64/timedelta64 arrays and scalars, enum member
arguments, calls of functions numba-cuda ``@overload``s, numba
functions of a module object made at run time, and a record dtype closed
over (a shared array of records). Run under the
simulator with the plugin on, in a fresh pytest process (pytester); skipped
where numba-cuda's simulator cannot be loaded (CI installs only numpy and
pytest).

Expected values: numba-cuda's on the GPU, measured
(tools/probes/numba/host_values.json), and reasoned in each test."""

import pytest

from test_plugin import SUMMARY, _run, _simulator_loads

pytest_plugins = ["pytester"]

TESTS = '''
import enum
import inspect

import numpy as np
import pytest
from numba import cuda
from numba.cuda import types
from numba.cuda.extending import overload

import ksem


def test_text_arrays():
    @cuda.jit
    def k(u, s):
        u[0] = "héllo€"
        s[1] = b"0123456789abcdef"

    u = np.array(["pqrstuvwxyzW"] * 2, dtype="<U12")
    s = np.array([b"pqrstuvwxyzW"] * 2, dtype="S12")
    k[1, 1](u, s)
    # code points, zero padding, truncation (numba-cuda's rule, measured)
    assert list(u) == ["héllo€", "pqrstuvwxyzW"]
    assert u.view(np.uint32)[6:12].tolist() == [0] * 6
    assert list(s) == [b"pqrstuvwxyzW", b"0123456789ab"]


def test_datetimes_with_nat():
    @cuda.jit
    def k(start, end, target, out, eq):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = end[i] - start[i]
            eq[i] = end[i] == target

    start = np.array(["2005-02-01", "NaT", "2005-02-03"], dtype="datetime64[D]")
    end = np.array(["2005-03-01", "2005-01-01", "2005-03-01"], dtype="datetime64[D]")
    out = np.zeros(3, dtype="timedelta64[D]")
    eq = np.zeros(3, dtype=np.bool_)
    k[1, 4](start, end, np.datetime64("2005-03-01"), out, eq)
    assert out.view(np.int64).tolist() == [28, np.iinfo(np.int64).min, 26]  # NaT stays NaT
    assert eq.tolist() == [True, False, True]


class Color(enum.Enum):
    red = 1
    green = 2


class Shape(enum.IntEnum):
    circle = 2


class Other(enum.IntEnum):
    two = 2


def test_enum_member_arguments():
    @cuda.jit
    def k(a, b, out):
        out[0] = a == b
        out[1] = a is b
        out[2] = a is Color.red  # the kernel's own name for the class: one class

    out = np.zeros(3, np.bool_)
    k[1, 1](Color.red, Color.red, out)
    assert out.tolist() == [True, True, True]
    k[1, 1](Color.green, Color.red, out)
    assert out.tolist() == [False, False, False]
    k[1, 1](Shape.circle, Other.two, out)  # IntEnums: == of integers, `is` false across classes
    assert out.tolist() == [True, False, False]


def pick(a, b=None):
    return b


@overload(pick)
def ol_pick(a, b=None):
    if isinstance(b, types.UniTuple):
        return lambda a, b=None: b[0]
    return lambda a, b=None: a


def constant(x):
    return 0


@overload(constant)
def ol_constant(x):
    def impl(x):
        return 42

    return impl


def test_overloads_read_the_implementation_numba_chooses():
    @cuda.jit
    def k(out, a, b):
        out[0] = pick(a, b)  # b's type is known at the launch: UniTuple
        out[1] = constant(a + 1)  # the overload does not look at the type

    out = np.zeros(2, np.int64)
    k[1, 1](out, 5, (7,))
    assert out.tolist() == [7, 42]
    k[1, 1](out, 5, 9)  # an int64 b: the other implementation
    assert out.tolist() == [5, 42]


def test_calls_choosing_different_overloads():
    @cuda.jit
    def k(out, a, b):
        # each call gets the implementation for its types, under a name of
        # its own (`pick` renamed in the text, columns kept)
        out[0] = pick(a, b) * 100 + pick(a, a)  # UniTuple b: b[0] = 7; int64: a = 5

    out = np.zeros(1, np.int64)
    k[1, 1](out, 5, (7,))
    assert out.tolist() == [705]


def test_a_function_of_a_module_made_at_run_time():
    from types import ModuleType

    def add(a, b):
        return a + b

    mymod = ModuleType("mymod")
    mymod.add = cuda.jit(device=True)(add)

    @cuda.jit
    def k(ary):
        i = cuda.grid(1)
        ary[i] = mymod.add(ary[i], 1)  # read as `mymod_add(…)`, no column moved

    ary = np.arange(4)
    k[1, 4](ary)
    assert ary.tolist() == [1, 2, 3, 4]


def test_a_record_dtype_closed_over():
    from numba.np import numpy_support as nps

    rec = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
    dt = nps.from_dtype(rec)  # numba's Record: written as ksem.record({…})

    @cuda.jit
    def k(x, y):
        sm = cuda.shared.array(4, dtype=dt)
        t = cuda.threadIdx.x
        sm[t] = x[t]
        cuda.syncthreads()
        y[t] = sm[3 - t]

    x = np.zeros(4, dtype=rec)
    x["i"] = [1, 2, 3, 4]
    x["j"] = np.arange(24, dtype=np.float32).reshape(4, 3, 2)
    y = np.zeros_like(x)
    k[1, 4](x, y)
    assert y["i"].tolist() == [4, 3, 2, 1]
    assert (y["j"] == x["j"][::-1]).all()


def test_an_undecidable_overload_is_refused():
    @cuda.jit
    def k(out, a):
        out[0] = pick(a, a + 1)  # `a + 1`: a type the plugin does not know

    with pytest.raises(ksem.KsemError, match=r"test_h.py:\\d+:\\d+: error: the @overload of `pick`"):
        k[1, 1](np.zeros(1, np.int64), 5)


def third(a, b):
    return a


@overload(third)
def ol_third(a, b):
    if isinstance(b, types.UniTuple):
        return lambda a, b: b[3]
    return lambda a, b: a


def test_an_error_in_an_overload_implementation_is_at_the_call():
    # the two calls choose different implementations (bound under names of
    # ksem's); the UniTuple one reads past the tuple: the error is at the
    # call it serves, `third(a, b)` (col 32), and names `third`
    line = inspect.currentframe().f_lineno + 4

    @cuda.jit
    def k(out, a, b):
        out[0] = third(a, a) + third(a, b)

    at = rf"test_h.py:{line}:32: error: tuple index 3 out of range for a tuple of 1 \\(in the @overload implementation of `third`"
    with pytest.raises(ksem.KsemError, match=at):
        k[1, 1](np.zeros(1, np.int64), 5, (7,))
'''


def test_host_values_under_the_plugin(pytester):
    if not _simulator_loads():
        pytest.skip("numba-cuda's simulator is not installed or cannot be loaded")
    pytester.makepyfile(test_h=TESTS)
    r = _run(pytester, "--ksem", env={"NUMBA_ENABLE_CUDASIM": "1"})
    r.assert_outcomes(passed=9)
    # two refusals: the undecidable overload, the implementation's error
    assert SUMMARY.findall(r.stdout.str()) == [("10", "2")]
