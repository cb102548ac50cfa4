"""ksem's errors as Python exceptions: UB raises UndefinedBehavior with
ksem's diagnostic, unsupported constructs UnsupportedSyntax with the
supported alternative, other bad input KsemError with file:line:col — each
pointing into this file, where the kernels are."""

import inspect

import numpy as np
import pytest

import ksem
import ksem.triton
from ksem import cuda

try:
    import triton.language as tl
except ImportError:
    import ksem.triton.language as tl

HERE = __file__


@ksem.triton.jit
def unmasked_copy(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


@ksem.triton.jit
def star_args(x_ptr, *rest):
    tl.store(x_ptr, 1.0)


@ksem.triton.jit
def undefined_name(x_ptr):
    tl.store(x_ptr, not_defined_anywhere)


@ksem.triton.jit
def store_scalar(out_ptr, n):
    tl.store(out_ptr, n)


@cuda.jit
def write_one(a):
    i = cuda.grid(1)
    a[i] = 1.0


@cuda.jit("void(float32[:], float32[:])")
def copy_f32(a, b):
    i = cuda.grid(1)
    b[i] = a[i]


def line_of(fn, text: str) -> int:
    """The line of this file where `text` first occurs in `fn`'s source."""
    lines, start = inspect.getsourcelines(fn.fn if hasattr(fn, "fn") else fn.py_func)
    return start + next(i for i, l in enumerate(lines) if text in l)


def test_out_of_bounds_load_raises_undefined_behavior():
    # 100 elements, 2 programs of 64: program 1 loads offsets 64..127 and
    # offset 100, tile element 36, is the first past the end.
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(128, np.float32)
    with pytest.raises(ksem.UndefinedBehavior) as e:
        unmasked_copy[(2,)](x, out, BLOCK=64)
    line = line_of(unmasked_copy, "tl.load(x_ptr + offs)")
    first = str(e.value).splitlines()[0]
    assert first.startswith(f"{HERE}:{line}:")
    assert "undefined behaviour: out-of-bounds" in first
    assert "program (1,0,0)" in first and "element [36]" in first
    assert isinstance(e.value, ksem.KsemError)
    report = e.value.reports[0]
    assert (report.line, report.program, report.element) == (line, (1, 0, 0), (36,))


def test_out_of_bounds_store_names_the_thread():
    # 2 blocks of 4 threads over 6 elements: block 1's threads 2 and 3 index
    # 6 and 7; a block stops at its first UB, thread 2's.
    a = np.zeros(6, np.float32)
    with pytest.raises(ksem.UndefinedBehavior) as e:
        write_one[2, 4](a)
    line = line_of(write_one, "a[i] = 1.0")
    first = str(e.value).splitlines()[0]
    assert first.startswith(f"{HERE}:{line}:5: undefined behaviour: out-of-bounds-index")
    assert "program (1,0,0), thread (2,0,0)" in first
    assert [(r.program, r.thread) for r in e.value.reports] == [((1, 0, 0), (2, 0, 0))]


def test_ub_leaves_arrays_unchanged_and_reports_without_raising():
    a = np.zeros(4, np.float32)
    r = ksem.run(HERE, kernel="write_one", grid=2, block=4, args={"a": a}, dialect="cudapy", raise_on_ub=False)
    assert [u.thread for u in r.ub] == [(0, 0, 0)]
    assert (a == 0.0).all()  # a run with UB has no defined result: nothing is written back
    assert (r["a"].values == 1.0).all()  # block 0 ran to its end in ksem's memory


def test_unsupported_syntax_names_the_alternative():
    with pytest.raises(ksem.UnsupportedSyntax) as e:
        star_args[(1,)](np.zeros(1, np.float32))
    msg = str(e.value)
    line = line_of(star_args, "def star_args")
    assert msg.startswith(f"{HERE}:{line}:")
    assert "is not supported in a Triton kernel" in msg
    assert "help: use explicit parameters" in msg


def test_other_bad_input_is_ksem_error_with_position():
    with pytest.raises(ksem.KsemError) as e:
        undefined_name[(1,)](np.zeros(1, np.float32))
    assert not isinstance(e.value, ksem.UnsupportedSyntax)
    line = line_of(undefined_name, "not_defined_anywhere")
    assert str(e.value).startswith(f"{HERE}:{line}:")
    assert "not_defined_anywhere" in str(e.value)


def test_dtype_mismatch_with_signature_is_an_error():
    a = np.zeros(4)  # float64, the signature says float32
    with pytest.raises(ksem.KsemError) as e:
        copy_f32[1, 4](a, np.zeros(4, np.float32))
    line = line_of(copy_f32, "def copy_f32")
    assert str(e.value).startswith(f"{HERE}:{line}:")
    assert "float64" in str(e.value) and "float32" in str(e.value)


def test_unsupported_array_dtype_is_an_error():
    with pytest.raises(ksem.KsemError, match=r"Triton has no complex dtype"):
        unmasked_copy[(1,)](np.zeros(4, np.complex128), np.zeros(4, np.float32), BLOCK=4)


def test_bits_wrapper_checks_the_stored_width():
    with pytest.raises(ksem.KsemError, match=r"takes a uint16 array, not float16"):
        unmasked_copy[(1,)](ksem.Bits(np.zeros(4, np.float16), "float16"), np.zeros(4, np.float32), BLOCK=4)


def test_bits_wrapper_round_trips_bfloat16():
    # bfloat16 1.5 is 0x3fc0; a copy keeps the bits; BufferResult.values
    # decodes bfloat16 exactly (as float32).
    x = np.array([0x3FC0, 0xFF80, 0x0001, 0x8000], np.uint16)
    out = np.zeros(4, np.uint16)
    r = unmasked_copy[(1,)](ksem.Bits(x, "bfloat16"), ksem.Bits(out, "bfloat16"), BLOCK=4)
    np.testing.assert_array_equal(out, x)
    assert r["out_ptr"].values[0] == 1.5 and r["out_ptr"].values[1] == -np.inf


def test_scalar_out_of_range_names_the_argument():
    with pytest.raises(ksem.KsemError, match=r"launch: args\.n\.scalar\.value"):
        store_scalar[(1,)](np.zeros(1, np.int32), ksem.Scalar(2**40, "int32"))


def test_python_int_is_typed_as_triton_specializes_it():
    out32 = np.zeros(1, np.int64)
    r = store_scalar[(1,)](out32, 2**31 - 1)  # int32: fits
    assert out32[0] == 2**31 - 1
    big = np.zeros(1, np.int64)
    store_scalar[(1,)](big, 2**40)  # int64
    assert big[0] == 2**40
    assert r.kernel == "store_scalar"


def test_kernel_called_directly_says_how_to_launch():
    with pytest.raises(ksem.KsemError, match=r"launch it as unmasked_copy\[grid\]"):
        unmasked_copy(np.zeros(1))
