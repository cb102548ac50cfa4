"""CUDA Python (numba-cuda style) kernels tested from pytest on ksem, as
with numba's CUDA simulator. numba need not be installed: ``from ksem import
cuda`` stands in for ``from numba import cuda``, and ksem reads this file.
Expected values are computed independently with numpy, in the kernel's
order of operations where rounding depends on it.
"""

import numpy as np
import pytest

from ksem import cuda

THREADS = 64


@cuda.jit
def block_sum(a, out):
    s = cuda.shared.array(64, np.float32)
    i = cuda.threadIdx.x
    s[i] = a[cuda.grid(1)]
    cuda.syncthreads()
    stride = 32
    while stride > 0:
        if i < stride:
            s[i] += s[i + stride]
        cuda.syncthreads()
        stride //= 2
    if i == 0:
        out[cuda.blockIdx.x] = s[0]


@cuda.jit
def histogram(data, bins, n):
    i = cuda.grid(1)
    if i < n:
        cuda.atomic.add(bins, data[i], 1)


@cuda.jit
def scale(x, factor):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = x[i] * factor


def tree_sum(block: np.ndarray) -> np.float32:
    """The kernel's reduction order: s[i] += s[i + stride], stride 32 … 1,
    in float32."""
    s = block.astype(np.float32).copy()
    stride = len(s) // 2
    while stride > 0:
        s[:stride] = s[:stride] + s[stride : 2 * stride]
        stride //= 2
    return s[0]


def test_shared_memory_tree_reduction_bit_exact():
    rng = np.random.default_rng(3)
    blocks = 4
    a = rng.standard_normal(blocks * THREADS).astype(np.float32)
    out = np.zeros(blocks, np.float32)
    block_sum[blocks, THREADS](a, out)
    expected = np.array([tree_sum(a[b * THREADS : (b + 1) * THREADS]) for b in range(blocks)], np.float32)
    np.testing.assert_array_equal(out.view(np.uint32), expected.view(np.uint32))


def test_atomic_histogram():
    rng = np.random.default_rng(4)
    n = 1000
    data = rng.integers(0, 16, size=n, dtype=np.int32)
    bins = np.zeros(16, np.int32)
    histogram[(n + 127) // 128, 128](data, bins, n)
    np.testing.assert_array_equal(bins, np.bincount(data, minlength=16))


def test_python_float_is_float64_as_numba_passes_it():
    # numba passes a Python float as float64: x[i] * 0.1 is computed in
    # float64 and rounded to float32 on the store, which differs from a
    # float32 multiplication for some x (9.0 here).
    x = np.array([9.0, 3.0, -7.5], np.float32)
    expected = (x.astype(np.float64) * 0.1).astype(np.float32)
    assert expected[0] != x[0] * np.float32(0.1)  # the test can tell them apart
    scale[1, 32](x, 0.1)
    np.testing.assert_array_equal(x.view(np.uint32), expected.view(np.uint32))


@cuda.jit
def copy_twice(src, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[i] * 2


def test_device_array_read_before_any_write_is_reported():
    """``cuda.device_array`` is memory nobody wrote: reading it is UB where
    the value is used (the store), naming the element read."""
    import pytest

    import ksem

    src = cuda.device_array(3, np.float32)
    out = cuda.device_array(3, np.float32)
    with pytest.raises(ksem.UndefinedBehavior, match=r"undefined-value.*src\[0\]"):
        copy_twice[1, 4](src, out)
    # a host write defines it: 2 * (0, 1, 2)
    src[:] = np.arange(3, dtype=np.float32)
    copy_twice[1, 4](src, out)
    assert list(out.copy_to_host()) == [0.0, 2.0, 4.0]
    # `out` was written by the kernel: read back, it is defined
    copy_twice[1, 4](out, src)
    assert list(src.copy_to_host()) == [0.0, 4.0, 8.0]


class KernelError(Exception):
    pass


@cuda.jit(debug=True)
def checked(x, out):
    i = cuda.grid(1)
    if x[i] < 0:
        raise KernelError("negative input")
    out[i] = x[i] * 2


@cuda.jit
def unchecked(x, out):
    i = cuda.grid(1)
    if x[i] < 0:
        raise KernelError("negative input")
    out[i] = x[i] * 2


def test_a_raise_under_debug_is_raised_on_the_host_as_numba_cuda_words_it():
    # numba-cuda on a GPU (tools/probes/numba/raise_debug.json): the user's
    # exception, "In function …, file …, line …, tid=[z, y, x] ctaid=[z, y,
    # x]: message", and no array copied back
    x = np.array([1, 2, -3, 4], np.int32)
    out = np.zeros(4, np.int32)
    with pytest.raises(
        KernelError,
        match=r"^In function 'checked', file .*test_cuda\.py, line \d+, tid=\[0, 0, 2\] ctaid=\[0, 0, 0\]: negative input$",
    ):
        checked[1, 4](x, out)
    np.testing.assert_array_equal(out, [0, 0, 0, 0])
    checked[1, 4](np.abs(x), out)
    np.testing.assert_array_equal(out, [2, 4, 6, 8])


def test_a_raise_without_debug_ends_the_thread_silently():
    x = np.array([1, 2, -3, 4], np.int32)
    out = np.zeros(4, np.int32)
    unchecked[1, 4](x, out)
    np.testing.assert_array_equal(out, [2, 4, 0, 8])
