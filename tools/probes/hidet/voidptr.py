"""Hidet 0.6.1 void pointers and addresses of variables, measured on the
cpu_kernel build (g++ without fast-math):

* which spellings of a void pointer the transpiler accepts (`void_p`,
  `~void`) as parameters, declarations and cast targets;
* void pointer arithmetic (bytes) with constant and runtime offsets,
  `-`, and what is refused (`* 2`, `+ 1.5`, `v - v`, `v[0]`, `~v`);
* `~x` of a scalar variable: writes through the pointer inside a loop, the
  variable's own assignments after the address was taken, a cast of
  `~x` to `void_p` and back.

    /work/hidetvenv/bin/python tools/probes/hidet/voidptr.py > tools/probes/hidet/voidptr.json
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403

F = struct.pack('<8f', 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0)
VP = 'hidet.lang.void_p'


def case(name, body, outs, params='inp: ~u8, out: ~u8'):
    rec = {'case': name, 'body': body}
    try:
        m = build_source(body, params=params)
        out = run_bytes(m, F, 64)
        rec['results'] = [list(decode(t, out[o:o + 16])) for o, t in outs]
        src = source_of(m).split('static void hidet_k', 1)[1].split('\n}', 1)[0]
        rec['c'] = [ln.strip() for ln in src.splitlines()[1:] if ln.strip()][:12]
    except Exception as e:  # noqa: BLE001
        msg = str(e)
        errs = [ln for ln in msg.splitlines() if 'error:' in ln]
        rec['error'] = errs[0][:400] if errs else err_text(e)
    emit(rec)


O = 'cast(out, ~D.float32)[0] = '
# spellings
case('void_p param', [O + 'cast(v + 8, ~D.float32)[0]'], [(0, 'float32')], params='v: %s, out: ~u8' % VP)
case('~void param', [O + 'cast(v + 8, ~D.float32)[0]'], [(0, 'float32')], params='v: ~hidet.lang.void, out: ~u8')
case('~void declaration', ['v: ~hidet.lang.void = inp', O + 'cast(v + 8, ~D.float32)[0]'], [(0, 'float32')])
case('void_p declaration from ~u8', ['v: %s = inp' % VP, O + 'cast(v + 8, ~D.float32)[0]'], [(0, 'float32')])
case('cast(x, ~void)', ['v = cast(inp, ~hidet.lang.void)', O + 'cast(v + 8, ~D.float32)[0]'], [(0, 'float32')])
case('cast(x, void_p) inferred', ['v = cast(inp, %s)' % VP, O + 'cast(v + 8, ~D.float32)[0]'], [(0, 'float32')])
# arithmetic
case('void_p - 4', ['v = cast(inp, %s) + 12' % VP, O + 'cast(v - 4, ~D.float32)[0]'], [(0, 'float32')])
case('void_p + runtime bytes', ['n = cast(inp + 28, ~D.float32)[0]', 'k = D.int32(n) - 4',
                                'v = cast(inp, %s)' % VP, O + 'cast(v + k, ~D.float32)[0]'], [(0, 'float32')])
case('void_p += 8', ['v = cast(inp, %s)' % VP, 'v += 8', O + 'cast(v, ~D.float32)[0]'], [(0, 'float32')])
case('void_p + 2 cast to f32 (misaligned)', ['v = cast(inp, %s)' % VP, 'cast(out, ~D.uint32)[0] = cast(v + 2, ~D.uint32)[0]'], [(0, 'uint32')])
case('void_p * 2', ['v = cast(inp, %s)' % VP, 'w = v * 2', O + '1.0'], [(0, 'float32')])
case('void_p + 1.5', ['v = cast(inp, %s)' % VP, 'w = v + 1.5', O + 'cast(w, ~D.float32)[0]'], [(0, 'float32')])
case('void_p - void_p', ['v = cast(inp, %s)' % VP, 'w = v + 8', 'cast(out, ~D.int64)[0] = w - v'], [(0, 'int64')])
case('void_p index', ['v = cast(inp, %s)' % VP, O + 'v[0]'], [(0, 'float32')])
case('~v of a void_p', ['v = cast(inp, %s)' % VP, 'w = ~v', O + '1.0'], [(0, 'float32')])
case('void_p to ~f32 declaration (implicit)', ['v = cast(inp, %s)' % VP, 'p: ~D.float32 = v', O + 'p[1]'], [(0, 'float32')])
case('cast(v + 4, ~f64) of float32 bytes (reinterprets)', ['v = cast(inp, %s)' % VP, O + 'cast(v + 4, ~D.float64)[0]'], [(0, 'float32')])
# ~x of scalar variables
case('~x in a loop', ['x: D.int32 = 3', 'p = ~x', 'for i in range(4):',
                      '    p[0] = p[0] + 1', '    x = x * 2', 'cast(out, ~D.int32)[0] = x'], [(0, 'int32')])
case('~x inferred variable', ['x = cast(inp, ~D.float32)[0]', 'p = ~x', 'p[0] = p[0] * 2.0', O + 'x'], [(0, 'float32')])
case('~x cast to void_p and back', ['x: D.float32 = 2.5', 'v = cast(~x, %s)' % VP, 'cast(v, ~D.float32)[0] = 9.0', O + 'x'], [(0, 'float32')])
case('~x read past the variable', ['x: D.int32 = 3', 'p = ~x', 'cast(out, ~D.int32)[0] = p[0]'], [(0, 'int32')])
