//! CUDA Python: nested functions (closures) and functions passed to device
//! functions, with `*args`, defaults and keyword arguments; tuples returned
//! by device functions; `raise`/`assert` as numba-cuda compiles them
//! (without `debug=True` the thread ends silently; with it the first raising
//! thread is recorded in `__ksem_raise`: measured on a GPU,
//! tools/probes/numba/raise_debug.json); self-recursive device functions
//! inlined up to `MAX_DEPTH` (12) nested calls. Expected values are worked
//! out by hand beside each case (CPython gives the same for the closures).

use ksem_interp::launch::{parse_launch, Launch};
use ksem_tests::*;
use serde_json::{json, Value as Json};

fn launch_with(block: u64, args: Json) -> Launch {
    let text = json!({"grid": [1], "block": [block], "args": args}).to_string();
    parse_launch(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn ints(v: &[i64]) -> Vec<u64> {
    v.iter().map(|&x| x as u64).collect()
}

const CLOSURES: &str = "from numba import cuda

G = 123

@cuda.jit(device=True)
def consumer(func, *args):
    return func(*args)

@cuda.jit(device=True)
def consumer2(f1, f2):
    return f2(f1)

@cuda.jit(device=True)
def impl(x):
    t = 12
    def inner(a, b, c, d1=123, d2=456):
        z = 4
        return d1 + d2 + z + t + a + b + c
    def ten():
        return 10
    def call(f):
        return f()
    def callinner(z):
        def deep():
            return 10
        return t + z + G + deep()
    return (inner(1, 2, 5, 91, 53), consumer(inner, 1, 2, 3, 73), consumer(inner, 1, 2, 3),
            inner(1, 2, 4, d2=1000), consumer(callinner, x), consumer2(ten, call))

@cuda.jit
def k(out, x):
    out[0], out[1], out[2], out[3], out[4], out[5] = impl(x[0])
";

#[test]
fn closures_capture_defaults_keywords_varargs_and_tuple_results() {
    // with t = 12, z = 4 and inner's sum d1 + d2 + 4 + 12 + a + b + c:
    // 91 + 53 + 16 + 8 = 168; consumer(inner, 1, 2, 3, 73) binds d1 = 73
    // by position, d2 = 456: 73 + 456 + 16 + 6 = 551; both defaults: 123 + 456 + 16 + 6 = 601;
    // d2 = 1000 by keyword: 123 + 1000 + 16 + 7 = 1146; callinner(5):
    // 12 + 5 + 123 + 10 = 150; consumer2(ten, call) = call(ten) = 10
    let l = launch_with(
        1,
        json!({"out": zeros("int64", 6), "x": buf("int64", json!([5]))}),
    );
    let r = run_clean(CLOSURES, &l);
    assert_eq!(bits(&r, "out"), ints(&[168, 551, 601, 1146, 150, 10]));
}

#[test]
fn a_closure_reads_the_variable_it_captured() {
    // y is a variable of the kernel (from x[0] = 7), captured by add
    let src = "from numba import cuda

@cuda.jit
def k(out, x):
    y = x[0]
    def add(v):
        return v + y
    out[0] = add(1)
    out[1] = add(add(2))
";
    let l = launch_with(
        1,
        json!({"out": zeros("int64", 2), "x": buf("int64", json!([7]))}),
    );
    assert_eq!(bits(&run_clean(src, &l), "out"), ints(&[8, 16]));
}

#[test]
fn a_call_with_an_unknown_keyword_is_refused() {
    let src = "from numba import cuda

@cuda.jit
def k(out):
    def f(a, b=1):
        return a + b
    out[0] = f(1, c=2)
";
    let l = launch_with(1, json!({"out": zeros("int64", 1)}));
    let d = refused(src, &l);
    assert_diag(
        src,
        &d,
        loc1(src, "f(1, c=2)"),
        &["has no parameter `c`"],
        None,
    );
}

const RAISES: &str = "from numba import cuda

@cuda.jit(device=True)
def g(x):
    if x == 1:
        raise ValueError('g')
    return x + 1

@cuda.jit(DEBUG)
def k(o, x):
    t = cuda.threadIdx.x
    assert x[t] >= 0, 'negative'
    if t == 3:
        raise ValueError('three')
    o[t] = g(x[t])
";

fn raises(debug: bool) -> ksem_interp::launch::RunResult {
    let src = RAISES.replace("DEBUG", if debug { "debug=True" } else { "debug=False" });
    let l = launch_with(
        6,
        json!({"o": zeros("int64", 6), "x": buf("int64", json!([0, 1, -2, 3, 4, 5]))}),
    );
    run_clean(&src, &l)
}

#[test]
fn a_fired_raise_or_assert_ends_the_thread_silently_without_debug() {
    // thread 1 raises in g, thread 2 fails the assert, thread 3 raises:
    // their o stays 0 (the GPU without debug: the thread ends, measured
    // `many_threads_nodebug`, `device_raise_nodebug`); the others store
    // x + 1; no raise buffer is made
    let r = raises(false);
    assert_eq!(bits(&r, "o"), ints(&[1, 0, 0, 0, 5, 6]));
    assert!(r.buffers.iter().all(|b| b.name != "__ksem_raise"));
}

#[test]
fn with_debug_the_first_raising_thread_is_recorded() {
    // the same threads end; ksem's threads run in step, so thread 2's
    // assert (line 12, column 5, in the kernel: kind 1) fires first and
    // wins the compare-and-swap; the thread and block indices follow
    let r = raises(true);
    assert_eq!(bits(&r, "o"), ints(&[1, 0, 0, 0, 5, 6]));
    assert_eq!(
        bits(&r, "__ksem_raise"),
        ints(&[12, 5, 1, 2, 0, 0, 0, 0, 0])
    );
}

#[test]
fn a_raise_in_a_device_function_is_kind_two_with_debug() {
    // only thread 0 runs g(1): kind 2 (numba-cuda reports SystemError for it)
    let src = RAISES.replace("DEBUG", "debug=True");
    let l = launch_with(
        1,
        json!({"o": zeros("int64", 1), "x": buf("int64", json!([1]))}),
    );
    let r = run_clean(&src, &l);
    assert_eq!(bits(&r, "o"), ints(&[0]));
    assert_eq!(bits(&r, "__ksem_raise"), ints(&[6, 9, 2, 0, 0, 0, 0, 0, 0]));
}

#[test]
fn an_exception_argument_computed_at_run_time_is_refused() {
    let src = "from numba import cuda

@cuda.jit
def k(o):
    v = o[0]
    raise ValueError(v)
";
    let l = launch_with(1, json!({"o": zeros("int64", 1)}));
    let d = refused(src, &l);
    assert_diag(
        src,
        &d,
        loc(src, "raise", "v)"),
        &["exception argument computed at run time"],
        None,
    );
}

const FIB: &str = "from numba import cuda

@cuda.jit('i8(i8)', device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

@cuda.jit
def k(r, x):
    r[0] = fib(x[0])
";

#[test]
fn recursion_is_inlined_to_twelve_levels() {
    // fib(10) = 55 and fib(12) = 144 (0 1 1 2 3 5 8 13 21 34 55 89 144):
    // fib(12) calls down to fib(1), 12 nested calls
    for (n, f) in [(10, 55), (12, 144)] {
        let l = launch_with(
            1,
            json!({"r": zeros("int64", 1), "x": buf("int64", json!([n]))}),
        );
        let r = run_clean(FIB, &l);
        assert_eq!(bits(&r, "r"), ints(&[f]));
        assert_eq!(bits(&r, "__ksem_raise")[0], 0);
    }
}

#[test]
fn recursion_past_the_limit_is_recorded_as_kind_three() {
    // fib(13) needs a 13th nested call: the call at line 7, column 12
    // records kind 3 and the thread ends (r stays 0)
    let l = launch_with(
        1,
        json!({"r": zeros("int64", 1), "x": buf("int64", json!([13]))}),
    );
    let r = run_clean(FIB, &l);
    assert_eq!(bits(&r, "r"), ints(&[0]));
    assert_eq!(bits(&r, "__ksem_raise")[..3], ints(&[7, 12, 3])[..]);
}

const GRID_SYNC: &str = "from numba import cuda

@cuda.jit
def k(M):
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    for row in range(1, M.shape[0]):
        M[row, col] = M[row - 1, M.shape[1] - col - 1] + 1
        g.sync()
";

#[test]
fn a_grid_barrier_on_one_block_is_the_blocks_barrier() {
    // numba-cuda's sequential_rows: each row reads the row above, written
    // by the opposite thread before the barrier: row r holds r everywhere
    // (without the barrier the read of row r - 1 would race with its write)
    let l = launch_with(
        4,
        json!({"M": {"buffer": {"dtype": "int32", "shape": [3, 4], "len": 12}}}),
    );
    assert_eq!(
        bits(&run_clean(GRID_SYNC, &l), "M"),
        ints(&[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    );
}

#[test]
fn a_grid_barrier_on_several_blocks_is_refused() {
    let text = json!({"grid": [2], "block": [4], "args": {"M": {"buffer": {"dtype": "int32", "shape": [3, 8], "len": 24}}}});
    let l = parse_launch(&text.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let d = refused(GRID_SYNC, &l);
    assert_diag(
        GRID_SYNC,
        &d,
        loc1(GRID_SYNC, "g.sync()"),
        &["grid-wide barrier on a grid of 2×1×1 blocks"],
        Some("launch one block"),
    );
}

#[test]
fn a_tuple_indexed_out_of_range_at_run_time_raises_index_error() {
    // numba-cuda's UniTuple getitem (measured, tools/probes/numba/
    // tuple_index.json): in range a negative index counts from the end
    // (shape[-1] of a 1-d array of 2 is 2); out of range the thread raises
    // IndexError, silently ending it without debug (threads 2 and 3 keep
    // their first store of 1)
    let src = "from numba import cuda

@cuda.jit(DEBUG)
def k(ary, o):
    x = cuda.threadIdx.x
    o[x] = 1
    o[x] = ary.shape[-x] + 10
";
    let l = launch_with(
        4,
        json!({"ary": zeros("float64", 2), "o": zeros("int64", 4)}),
    );
    let r = run_clean(&src.replace("DEBUG", "debug=False"), &l);
    assert_eq!(bits(&r, "o"), ints(&[12, 12, 1, 1]));
    // with debug, thread 2 is recorded first (kind 4, at the subscript)
    let src = src.replace("DEBUG", "debug=True");
    let r = run_clean(&src, &l);
    let (line, col) = loc1(&src, "ary.shape[-x]");
    assert_eq!(
        bits(&r, "__ksem_raise"),
        ints(&[line as i64, col as i64, 4, 2, 0, 0, 0, 0, 0])
    );
}
