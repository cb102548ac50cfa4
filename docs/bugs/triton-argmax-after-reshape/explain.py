"""Why the reshaped argmin/argmax are wrong: runs on any machine with Triton
installed (no GPU: it only compiles for sm_90 and reads the IR).

1. The front end's IR has a plain `tt.reshape` (no reordering allowed).
2. After Triton's TTIR passes it is `tt.reshape ... allow_reorder`: the
   combine pass (`CombineReshapeReducePatterns`) relaxes any rank-1 reshape
   whose users are all `tt.reduce`, because a reduction does not depend on the
   order of its elements. argmin/argmax are a `tt.reduce` over two operands,
   the values and an index `tt.make_range(0, 128)`; only the values come
   through the reshape, so reordering them breaks the value/index pairing.
3. In `probe` the (4, 32) tiles get a layout with dim 0 fastest
   (threadsPerWarp [4, 8], order [0, 1]), so the "reordered" reshape gives
   thread t the element (t % 4, (t % 32) // 4 + 8 (t // 32)) while the index
   tensor says t. Replaying that mapping in Python (below) predicts every
   value measured on the GPU: [3, 11, 20, 11] and [25, 23, 27, 23]. With one
   tile only (`probe_a_only`) the layout is row-major (order [1, 0]) and the
   reorder happens to be the identity, so the result is right.

Run: python3 explain.py
"""
import importlib.util
import os
import random
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.modules.setdefault("torch", types.ModuleType("torch"))  # repro.py imports torch; compiling needs none
spec = importlib.util.spec_from_file_location("repro", os.path.join(HERE, "repro.py"))
repro = importlib.util.module_from_spec(spec)
spec.loader.exec_module(repro)

import triton  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402


def reshape_lines(text):
    return [ln.strip().split(" loc(")[0] for ln in text.splitlines() if "tt.reshape" in ln and "tensor<128x" in ln]


def main():
    print(f"triton {triton.__version__} (compiling for sm_90 only)")
    target = GPUTarget("cuda", 90, 32)
    try:  # the front end's IR, before any pass (internal API of Triton 3.6)
        from triton._C.libtriton import ir
        from triton.compiler.compiler import make_backend
        ctx = ir.context()
        ir.load_dialects(ctx)
        backend = make_backend(target)
        backend.load_dialects(ctx)
        opts = backend.parse_options({})
        src = ASTSource(fn=repro.probe, signature={"x_ptr": "*i32", "o_ptr": "*i32"}, constexprs={})
        mod = src.make_ir(target, opts, backend.get_codegen_implementation(opts), backend.get_module_map(), ctx)
        print("probe: the reshapes as the front end emits them:")
        for ln in reshape_lines(str(mod)):
            print("   ", ln)
    except Exception as e:  # noqa: BLE001 - only an illustration
        print(f"(front-end IR not shown: {type(e).__name__}: {e})")
    for name in ("probe", "probe_a_only"):
        src = ASTSource(fn=getattr(repro, name), signature={"x_ptr": "*i32", "o_ptr": "*i32"}, constexprs={})
        k = triton.compile(src, target=target)
        print(f"{name}: layouts of the 2-D tiles and the reshapes after the TTGIR passes:")
        for ln in k.asm["ttgir"].splitlines():
            if ln.startswith("#blocked ="):
                print("   ", ln)
        for ln in reshape_lines(k.asm["ttgir"]):
            print("   ", ln)

    def tile_position(t):  # `probe`'s 2-D layout: dim 0 fastest, 4 x 8 lanes, 4 warps along dim 1
        lane, warp = t % 32, t // 32
        return lane % 4, lane // 4 + 8 * warp

    x1 = [10] * 128
    for i in (5, 70):
        x1[i] = -3
    for i in (20, 37, 67, 96):
        x1[i] = 0
    x2 = list(range(128))
    random.Random(1).shuffle(x2)
    for label, x in (("fuzzer input", x1), ("permutation", x2)):
        seen_a = [x[32 * r + c] for r, c in map(tile_position, range(128))]
        seen_b = [x[r + c] for r, c in map(tile_position, range(128))]
        pred = [next(k for k, v in enumerate(s) if 7 > v) for s in (seen_a, seen_b)]
        pred += [s.index(min(s)) for s in (seen_a, seen_b)]
        print(f"{label}: a reorder by that layout predicts argmax(7 > a), argmax(7 > b), argmin(a), argmin(b) = {pred}")


if __name__ == "__main__":
    main()
