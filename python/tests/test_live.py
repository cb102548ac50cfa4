"""Kernels read from the live function (closures, globals, exec()'d
strings, helpers reached through them) and arguments as the anchors take
them (strided and offset arrays through their own storage, 0-d arrays as
Triton pointers, bool bytes other than 0/1, Python numbers for constexprs).

Expected values come from numpy on the same inputs; Triton need not be
installed (ksem's stand-in module is used where it is not)."""

import linecache
import textwrap

import numpy as np
import pytest

import ksem
import ksem.triton
import ksem._launch
from ksem import cuda
from ksem._kernel import live_source

try:
    import triton.language as tl
except ImportError:
    import ksem.triton.language as tl


SCALE = 3


def make_scaled_copy(factor):
    """A kernel defined inside a function, over a closure cell (`factor`),
    a module constant (`SCALE`) and a helper that is itself a closure."""

    @ksem.triton.jit
    def twice(x):
        return x * factor

    @ksem.triton.jit
    def scaled_copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, twice(x) + SCALE, mask=mask)

    return scaled_copy


def test_kernel_defined_in_a_function_reads_closure_globals_and_helpers():
    kernel = make_scaled_copy(5)
    x = np.arange(100, dtype=np.int32)
    out = np.zeros_like(x)
    kernel[(2,)](x, out, 100, BLOCK=64)
    np.testing.assert_array_equal(out, x * 5 + SCALE)


def test_the_live_source_keeps_the_kernels_real_lines_and_columns():
    kernel = make_scaled_copy(2)
    ks = live_source(kernel, "triton")
    real = kernel.fn.__code__.co_firstlineno  # the decorator's line
    lines = ks.src.splitlines()
    assert lines[real].strip().startswith("def scaled_copy(")  # the `def`, one line below
    assert ks.file == __file__
    # an error inside the nested kernel is reported at its column in this file
    x = np.zeros(4, np.float32)
    with pytest.raises(ksem.KsemError) as e:
        kernel[(1,)](x, x, 4, BLOCK=3)  # tl.arange needs a power of two
    where = str(e.value).split(": ")[0]
    file, line, col = where.rsplit(":", 2)
    assert file == __file__
    text = linecache.getline(__file__, int(line))
    assert text[int(col) - 1 :].startswith("tl.arange"), (where, text)


def test_kernel_built_by_exec_of_a_string_with_its_text_kept():
    src = textwrap.dedent(
        """
        @ksem.triton.jit
        def plus_k(x_ptr, out_ptr, BLOCK: tl.constexpr):
            offs = tl.arange(0, BLOCK)
            tl.store(out_ptr + offs, tl.load(x_ptr + offs) + K)
        """
    )
    name = "<test-live-exec>"
    linecache.cache[name] = (len(src), None, src.splitlines(True), name)
    scope = {"ksem": ksem, "tl": tl, "K": 7}
    exec(compile(src, name, "exec"), scope)
    x = np.arange(8, dtype=np.int32)
    out = np.zeros_like(x)
    scope["plus_k"][(1,)](x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x + 7)


def test_kernel_without_source_text_is_a_located_error():
    scope = {"ksem": ksem, "tl": tl}
    exec("def k(x_ptr):\n    pass\n", scope)
    kernel = ksem.triton.jit(scope["k"])
    with pytest.raises(ksem.KsemError, match="the source of `k` cannot be read"):
        kernel[(1,)](np.zeros(1, np.float32))


def test_cuda_kernel_defined_in_a_function_with_a_device_function_and_constants():
    OFFSET = 10

    @cuda.jit(device=True)
    def bump(v):
        return v + OFFSET

    @cuda.jit
    def apply(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = bump(x[i]) * SCALE

    x = np.arange(50, dtype=np.int64)
    out = np.zeros_like(x)
    apply[2, 32](x, out)
    np.testing.assert_array_equal(out, (x + OFFSET) * SCALE)


@ksem.triton.jit
def copy_2d(x_ptr, out_ptr, sx0, sx1, M: tl.constexpr, N: tl.constexpr):
    i = tl.arange(0, M)[:, None]
    j = tl.arange(0, N)[None, :]
    tl.store(out_ptr + i * N + j, tl.load(x_ptr + i * sx0 + j * sx1))


def test_strided_array_is_read_through_its_own_strides():
    base = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    x = base.T  # non-contiguous: strides (1, 16) in elements
    out = np.zeros((16, 8), np.float32)
    s0, s1 = (s // x.itemsize for s in x.strides)
    copy_2d[(1,)](x, out, s0, s1, M=16, N=8)
    np.testing.assert_array_equal(out, x)


def test_offset_view_is_a_pointer_to_its_first_element():
    base = np.arange(64, dtype=np.float32).reshape(8, 8)
    x = base[2:6, 1:5]  # offset and strided view
    out = np.zeros((4, 4), np.float32)
    copy_2d[(1,)](x, out, 8, 1, M=4, N=4)
    np.testing.assert_array_equal(out, x)


def test_strided_output_is_written_in_place_and_nothing_else():
    base = np.full((4, 8), -1.0, np.float32)
    out = base[:, ::2]  # every other column
    x = np.arange(16, dtype=np.float32).reshape(4, 4)

    @ksem.triton.jit
    def copy_into(x_ptr, out_ptr, so0, so1, M: tl.constexpr, N: tl.constexpr):
        i = tl.arange(0, M)[:, None]
        j = tl.arange(0, N)[None, :]
        tl.store(out_ptr + i * so0 + j * so1, tl.load(x_ptr + i * N + j))

    copy_into[(1,)](x, out, 8, 2, M=4, N=4)
    np.testing.assert_array_equal(base[:, ::2], x)
    np.testing.assert_array_equal(base[:, 1::2], -1.0)


@ksem.triton.jit
def add_one_in_place(p):
    tl.store(p, tl.load(p) + 1)


def test_zero_dim_array_is_a_pointer_in_triton():
    x = np.array(41, dtype=np.int32)
    add_one_in_place[(1,)](x)
    assert int(x) == 42


@ksem.triton.jit
def bool_to_int(b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(b_ptr + offs).to(tl.int32))


def test_bool_bytes_other_than_0_and_1_read_as_true_and_stay_untouched():
    raw = np.array([0, 176, 1, 2], dtype=np.uint8)
    b = raw.view(np.bool_)
    out = np.zeros(4, np.int32)
    bool_to_int[(1,)](b, out, BLOCK=4)
    np.testing.assert_array_equal(out, (raw != 0).astype(np.int32))
    np.testing.assert_array_equal(raw, [0, 176, 1, 2])  # an input: not rewritten


TRITON_FILE = '''
import triton
import triton.language as tl

@triton.jit
def fill(out_ptr, V: tl.constexpr, BLOCK: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, BLOCK), tl.full((BLOCK,), V, tl.float32))
'''


def test_run_takes_python_numbers_for_constexpr_parameters():
    out = np.zeros(4, np.float32)
    ksem.run(TRITON_FILE, kernel="fill", grid=1, args={"out_ptr": out, "V": 2.5, "BLOCK": 4})
    np.testing.assert_array_equal(out, 2.5)


def test_none_and_dtype_names_for_constexpr_parameters():
    @ksem.triton.jit
    def cast_or_copy(x_ptr, out_ptr, DT: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs)
        if DT is not None:
            x = x.to(DT)
        tl.store(out_ptr + offs, x)

    x = np.array([1.75, -2.5, 3.0, 0.5], np.float32)
    out = np.zeros(4, np.float32)
    cast_or_copy[(1,)](x, out, None, BLOCK=4)
    np.testing.assert_array_equal(out, x)
    out16 = np.zeros(4, np.int32)
    dtype = getattr(tl, "int32", None) if hasattr(tl, "int32") else "int32"
    cast_or_copy[(1,)](x, out16, dtype, BLOCK=4)
    np.testing.assert_array_equal(out16, x.astype(np.int32))  # truncation toward zero


@ksem.triton.jit
def fill_shape(out_ptr, SHAPE: tl.constexpr, FILL: tl.constexpr):
    rows = tl.arange(0, SHAPE[0])[:, None]
    cols = tl.arange(0, SHAPE[1])[None, :]
    tl.store(out_ptr + rows * SHAPE[1] + cols, (rows * SHAPE[1] + cols + FILL[0]).to(FILL[1]))


def test_tuple_constexprs_with_numbers_and_dtypes():
    out = np.zeros((2, 4), np.float32)
    fill_shape[(1,)](out, (2, 4), (0.5, "float32"))
    np.testing.assert_array_equal(out, np.arange(8, dtype=np.float32).reshape(2, 4) + 0.5)
    # the same through ksem.run, as the launch JSON carries it (an array)
    out = np.zeros((4, 2), np.float32)
    src = TRITON_FILE + """
@triton.jit
def fill_shape(out_ptr, SHAPE: tl.constexpr, FILL: tl.constexpr):
    rows = tl.arange(0, SHAPE[0])[:, None]
    cols = tl.arange(0, SHAPE[1])[None, :]
    tl.store(out_ptr + rows * SHAPE[1] + cols, (rows * SHAPE[1] + cols + FILL[0]).to(FILL[1]))
"""
    ksem.run(src, kernel="fill_shape", grid=1, args={"out_ptr": out, "SHAPE": (4, 2), "FILL": (1.0, "float32")})
    np.testing.assert_array_equal(out, np.arange(8, dtype=np.float32).reshape(4, 2) + 1.0)


def test_tuples_of_tensors_and_scalars_as_the_plugin_passes_them():
    # (the plugin's path, `run_live`: Triton's own tests pass tuples of
    # tensors, scalars and None, nested, to parameters without tl.constexpr)
    x = np.array([5], np.float32)
    y = np.zeros(1, np.float32)
    z = np.zeros(1, np.float32)
    ksem._launch.run_live("triton", add_one_in_place_pair, ((y, x),), {}, (1,), None)
    np.testing.assert_array_equal(y, [6])
    ksem._launch.run_live("triton", store_nested, ((x, (y, z)), (2.5, None)), {}, (1,), None)
    np.testing.assert_array_equal(y, [7.5])  # 5 + 2.5
    np.testing.assert_array_equal(z, [5])


def test_a_tuple_argument_keeps_columns_in_the_users_file():
    x = np.zeros(4, np.float32)
    with pytest.raises(ksem.KsemError) as e:
        ksem._launch.run_live("triton", bad_first_statement, ((x, x),), {}, (1,), None)
    where = str(e.value).split(": ")[0]
    file, line, col = where.rsplit(":", 2)
    assert file == __file__
    assert linecache.getline(__file__, int(line))[int(col) - 1 :].startswith("tl.arange(0, 3)")


def test_a_namedtuple_argument_is_rebuilt_by_its_class(monkeypatch):
    import collections

    Pair = collections.namedtuple("Pair", "a b")
    Op = collections.namedtuple("Op", "fn args")
    x = np.array([5], np.float32)
    y = np.zeros(1, np.float32)
    seen = []
    real = ksem._launch.live_source
    monkeypatch.setattr(ksem._launch, "live_source", lambda *a, **k: seen.append(real(*a, **k)) or seen[-1])
    # fields by name and index; a jit function in a field is called with
    # the other field's items spread: add_to(5, 2.5) = 7.5, plus 1
    ksem._launch.run_live("triton", add_one_by_field, (Pair(y, x), Op(add_to, (2.5,))), {}, (1,), None)
    np.testing.assert_array_equal(y, [8.5])
    # the classes under their own names, the jit function under the name
    # the kernel already gives it (its text once)
    assert [n for _, n in seen[-1].arg_names] == ["Pair", "Op", "add_to"]
    assert seen[-1].src.count("def add_to(") == 1


@ksem.triton.jit
def store_nested(ptrs, vals):
    src, (dst, other) = ptrs
    add, nothing = vals
    tl.store(dst, tl.load(src) + add)
    tl.store(other, tl.load(src))


@ksem.triton.jit
def bad_first_statement(ptrs):
    offs = tl.arange(0, 3)
    tl.store(ptrs[0] + offs, tl.load(ptrs[1] + offs))


@ksem.triton.jit
def add_to(v, w):
    return v + w


@ksem.triton.jit
def add_one_by_field(p, op):
    tl.store(p.a, op.fn(tl.load(p[1]), *op.args) + add_to(0.0, 1.0))


@ksem.triton.jit
def add_one_in_place_pair(x_ptr):
    tl.store(x_ptr[0], tl.load(x_ptr[1]) + 1)


def test_torch_tensors_strided_float8_and_dtype_constexpr():
    torch = pytest.importorskip("torch")
    x = torch.arange(32, dtype=torch.float32).reshape(4, 8).t()  # (8, 4), strides (1, 8)
    out = torch.zeros(8, 4)
    copy_2d[(1,)](x, out, x.stride(0), x.stride(1), M=8, N=4)
    assert torch.equal(out, x)
    # float8 storage, converted by the kernel (bits compared to torch's own cast)
    f8 = torch.tensor([0.5, -1.0, 448.0, 0.0], dtype=torch.float32).to(torch.float8_e4m3fn)
    back = torch.zeros(4)

    @ksem.triton.jit
    def widen(x_ptr, out_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs).to(tl.float32))

    widen[(1,)](f8, back, BLOCK=4)
    assert torch.equal(back, f8.to(torch.float32))
    # a 0-d tensor is a pointer
    t = torch.tensor(41, dtype=torch.int32)
    add_one_in_place[(1,)](t)
    assert int(t) == 42


def test_a_real_triton_jit_function_its_line_and_its_updated_src():
    triton = pytest.importorskip("triton")
    import triton.language as ttl

    @triton.jit
    def k(x_ptr, BLOCK: ttl.constexpr):
        offs = ttl.arange(0, BLOCK)
        ttl.store(x_ptr + offs, ttl.load(x_ptr + offs) + 1)

    if type(k).__name__ != "JITFunction":  # under TRITON_INTERPRET=1
        pytest.skip("Triton's interpreter is on")
    ks = live_source(k, "triton")
    # read from this file: the `def` at its real line and column
    line = int(ks.where.split(":")[-2])
    assert linecache.getline(__file__, line).strip().startswith("def k(")
    x = np.zeros(4, np.float32)
    ksem.triton.jit(k)[(1,)](x, BLOCK=4)
    np.testing.assert_array_equal(x, 1)
    # a test that rewrote the JITFunction's text (Triton's patch_kernel) runs that text
    k._unsafe_update_src(k.src.replace("+ 1)", "+ 2)"))
    ksem.triton.jit(k)[(1,)](x, BLOCK=4)
    np.testing.assert_array_equal(x, 3)


@ksem.triton.jit
def add_into(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)


@ksem.triton.jit
def bump_both(a_ptr, b_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(a_ptr + offs, tl.load(a_ptr + offs) + 1)
    tl.store(b_ptr + offs, tl.load(b_ptr + offs) + 10)


def test_arguments_sharing_memory():
    # in place through two arguments, one of them written: as on the GPU
    x = np.arange(4, dtype=np.int32)
    add_into[(1,)](x, x, BLOCK=4)
    np.testing.assert_array_equal(x, [1, 2, 3, 4])
    # both written, one element type: one memory, in program order: a's
    # stores make y[0..4] = 1, 2, 3, 4; b then loads y[2..6] = 3, 4, 4, 5 and
    # stores 13, 14, 14, 15 there
    y = np.arange(8, dtype=np.int32)
    bump_both[(1,)](y[:4], y[2:6], BLOCK=4)
    np.testing.assert_array_equal(y, [1, 2, 13, 14, 14, 15, 6, 7])
    # both written through different element types: two buffers to ksem, so
    # no one result for the shared memory: refused, nothing written
    y = np.arange(8, dtype=np.int32)
    with pytest.raises(ksem.KsemError, match="arguments `a_ptr` and `b_ptr` share memory"):
        bump_both[(1,)](y[:4], y[2:6].view(np.float32), BLOCK=4)
    np.testing.assert_array_equal(y, np.arange(8))


def point_sum(r, p):
    r[0] = p.x + p.y * 10


def test_a_namedtuple_argument_of_cuda_python_is_read_by_field():
    # numba's NamedTuple: the plugin passes its fields as a tuple and reads
    # `p.x` as `p[0]`
    import collections

    Point = collections.namedtuple("Point", "x y")
    r = np.zeros(1, np.int64)
    ksem._launch.run_live("cudapy", point_sum, (r, Point(1, 2)), {}, (1, 1, 1), (1, 1, 1))
    assert r[0] == 21
