"""Triton kernels tested from pytest on ksem, as with TRITON_INTERPRET=1.

The kernels are plain functions of this module: ``@ksem.triton.jit`` reads
this file and runs them by name. Triton need not be installed (the
``triton.language`` import falls back to ksem's stand-in); expected values
are numpy's, which rounds float32 addition exactly as IEEE 754 (and as
Triton's ``x + y``) does, and integer sums and maxima exactly.
"""

import numpy as np
import pytest

import ksem
import ksem.triton

try:
    import triton.language as tl
except ImportError:
    import ksem.triton.language as tl


@ksem.triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@ksem.triton.jit
def row_max_sum_kernel(x_ptr, max_ptr, sum_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-(2**31))
    tl.store(max_ptr + row, tl.max(x, axis=0))
    tl.store(sum_ptr + row, tl.sum(tl.where(mask, x, 0), axis=0))


def bits(a: np.ndarray) -> np.ndarray:
    """The bit patterns of a float32 array."""
    return a.view(np.uint32)


def test_vector_add_masked_writes_output_in_place():
    rng = np.random.default_rng(1)
    n = 1000  # not a multiple of BLOCK: the last program's mask cuts it
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, 7.0, np.float32)
    result = add_kernel[(ksem.triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    np.testing.assert_array_equal(bits(out), bits(x + y))
    np.testing.assert_array_equal(result["out_ptr"].bits, bits(x + y))
    assert result.ub == ()


def test_grid_as_callable_of_meta():
    n = 300
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, np.float32)
    out = np.zeros(n, np.float32)
    seen = {}

    def grid(meta):
        seen.update(meta)
        return (ksem.triton.cdiv(meta["n"], meta["BLOCK"]),)

    add_kernel[grid](x, y, out, n, BLOCK=128, num_warps=4)
    assert seen["BLOCK"] == 128 and seen["n"] == n
    np.testing.assert_array_equal(bits(out), bits(x + y))


def test_special_values_bit_exact():
    # -0.0 + -0.0 is -0.0; inf + -inf is NaN; float32 rounding of 1 + 2**-24
    # ties to even (1.0); 1 + 3 * 2**-24 rounds up to 1 + 2**-22.
    x = np.array([-0.0, np.inf, 1.0, 1.0], np.float32)
    y = np.array([-0.0, -np.inf, 2.0**-24, 3 * 2.0**-24], np.float32)
    out = np.zeros(4, np.float32)
    add_kernel[(1,)](x, y, out, 4, BLOCK=4)
    assert bits(out)[0] == 0x80000000
    assert np.isnan(out[1])
    assert out[2] == 1.0
    assert out[3] == np.float32(1 + 2.0**-22)


def test_row_reduction_max_and_sum():
    rng = np.random.default_rng(2)
    rows, cols = 6, 50
    x = rng.integers(-1000, 1000, size=(rows, cols), dtype=np.int32)
    mx = np.zeros(rows, np.int32)
    sm = np.zeros(rows, np.int32)
    row_max_sum_kernel[(rows,)](x, mx, sm, cols, cols, BLOCK=64)
    np.testing.assert_array_equal(mx, x.max(axis=1))
    np.testing.assert_array_equal(sm, x.sum(axis=1))


def test_untouched_read_only_inputs_are_accepted():
    n = 64
    x = np.ones(n, np.float32)
    x.setflags(write=False)
    out = np.zeros(n, np.float32)
    add_kernel[(1,)](x, x, out, n, BLOCK=64)
    assert (out == 2.0).all()


def test_torch_cpu_tensors_written_in_place():
    torch = pytest.importorskip("torch")
    x = torch.arange(100, dtype=torch.float32)
    out = torch.zeros(100, dtype=torch.float32)
    add_kernel[(1,)](x, x, out, 100, BLOCK=128)
    assert torch.equal(out, x + x)


def test_wraps_a_real_triton_jit_function():
    pytest.importorskip("triton")
    from triton_real_kernels import sub_kernel

    k = ksem.triton.jit(sub_kernel)
    x = np.arange(10, dtype=np.float32)
    out = np.zeros(10, np.float32)
    k[(1,)](x, x * 3, out, 10, BLOCK=16)
    np.testing.assert_array_equal(out, x - x * 3)


@ksem.triton.jit
def shift_store_then_load_kernel(x_ptr, y_ptr, out_ptr):
    offs = tl.arange(0, 4)
    tl.store(y_ptr + offs, offs + 10, mask=offs < 3)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs))


def test_arguments_sharing_memory_see_each_others_writes():
    # y = x[1:] is x's memory from element 1: the stores through y land in
    # x[1..4] and the load through x after them reads them (one program, in
    # program order), as on a GPU: [100, 10, 11, 12]. As two separate
    # buffers the load would give the initial [100, 101, 102, 103].
    x = np.array([100, 101, 102, 103], np.int32)
    out = np.zeros(4, np.int32)
    shift_store_then_load_kernel[(1,)](x, x[1:], out)
    np.testing.assert_array_equal(out, [100, 10, 11, 12])
    np.testing.assert_array_equal(x, [100, 10, 11, 12])


def test_in_place_arguments_are_one_memory():
    # k(x, x, out): y is x itself, so the stores through y are x[0..3]
    # and the load of x reads [10, 11, 12, 103].
    x = np.array([100, 101, 102, 103], np.int32)
    out = np.zeros(4, np.int32)
    shift_store_then_load_kernel[(1,)](x, x, out)
    np.testing.assert_array_equal(out, [10, 11, 12, 103])
    np.testing.assert_array_equal(x, [10, 11, 12, 103])
