"""Probe (g): the complex, vector and pointer questions complexvec.py left
open, on Hidet 0.6.1's cpu_kernel (g++ 12.2, -ffast-math replaced by
-fno-fast-math -ffp-contract=off as in _common.py).

* which complex expressions the transpiler accepts (unary minus, !=,
  literals, conversions, declarations, tensors of complex);
* complex * and / on edge operands (inf, NaN, zeros, overflow, underflow),
  for checking ksem's libgcc __mulsc3/__divsc3/__muldc3/__divdc3 rules
  bit for bit (`edge` records);
* void_p, `~x` of a variable, pointers to pointers.

    /work/hidetvenv/bin/python tools/probes/hidet/complex2.py > tools/probes/hidet/complex2.json
"""
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403


def case(name, body, inp, outs, params='inp: ~u8, out: ~u8'):
    rec = {'case': name, 'body': body}
    try:
        m = build_source(body, params=params)
        out = run_bytes(m, inp, 64)
        rec['results'] = [list(decode(t, out[o:o + 16])) for o, t in outs]
        src = source_of(m).split('static void hidet_k', 1)[1].split('\n}', 1)[0]
        rec['c'] = [ln.strip() for ln in src.splitlines()[1:] if ln.strip()][:12]
    except Exception as e:  # noqa: BLE001
        msg = str(e)
        errs = [ln for ln in msg.splitlines() if 'error:' in ln]
        rec['error'] = errs[0][:400] if errs else err_text(e)
    emit(rec)


c64in = struct.pack('<ffff', 1.5, -2.0, 0.5, 4.0)
c128in = struct.pack('<dddd', 1.5, -2.0, 0.5, 4.0)
A64 = 'a = cast(inp, ~D.complex64)[0]'
B64 = 'b = cast(inp + 8, ~D.complex64)[0]'
A128 = 'a = cast(inp, ~D.complex128)[0]'
O64 = 'cast(out, ~D.complex64)[0] = '
O128 = 'cast(out, ~D.complex128)[0] = '
case('c64 -a', [A64, O64 + '-a'], c64in, [(0, 'complex64')])
case('c64 a != b', [A64, B64, 'cast(out, ~D.boolean)[0] = a != b'], c64in, [(0, 'bool')])
case('c64 a * 2.0 (literal)', [A64, O64 + 'a * 2.0'], c64in, [(0, 'complex64')])
case('c64 a + 1.5 (literal)', [A64, O64 + 'a + 1.5'], c64in, [(0, 'complex64')])
case('c64 a + 1 (int literal)', [A64, O64 + 'a + 1'], c64in, [(0, 'complex64')])
case('c64 a * 1 (int literal 1)', [A64, O64 + 'a * 1'], c64in, [(0, 'complex64')])
case('c64 a + 0.0 (literal 0), a.im = -0', ['a = cast(inp + 16, ~D.complex64)[0]', O64 + 'a + 0.0'],
     c64in + struct.pack('<ff', 1.0, -0.0), [(0, 'complex64')])
case('c64 a + f (f32 +0.0), a.im = -0', ['a = cast(inp + 16, ~D.complex64)[0]', 'f = cast(inp + 24, ~D.float32)[0]',
     O64 + 'a + f'], c64in + struct.pack('<fff', 1.0, -0.0, 0.0), [(0, 'complex64')])
case('f32 - c64 (f - a)', [A64, 'f = cast(inp + 16, ~D.float32)[0]', O64 + 'f - a'],
     c64in + struct.pack('<f', 3.0), [(0, 'complex64')])
case('c128 a * 2.0 (literal)', [A128, O128 + 'a * 2.0'], c128in, [(0, 'complex128')])
case('c128 a * f64', [A128, 'f = cast(inp + 32, ~D.float64)[0]', O128 + 'a * f'],
     c128in + struct.pack('<d', 2.0), [(0, 'complex128')])
case('c128 a * f32', [A128, 'f = cast(inp + 32, ~D.float32)[0]', O128 + 'a * f'],
     c128in + struct.pack('<f', 2.0), [(0, 'complex128')])
case('D.complex128(c64)', [A64, O128 + 'D.complex128(a)'], c64in, [(0, 'complex128')])
case('cast(c64, complex128)', [A64, O128 + 'cast(a, D.complex128)'], c64in, [(0, 'complex128')])
case('D.complex64(c128) 0.1', [A128, O64 + 'D.complex64(a)'], struct.pack('<dd', 0.1, -1e300), [(0, 'complex64')])
case('D.complex64(f32 var)', ['f = cast(inp, ~D.float32)[0]', O64 + 'D.complex64(f)'], c64in, [(0, 'complex64')])
case('D.complex64(i32 var)', ['f = cast(inp, ~D.int32)[0]', O64 + 'D.complex64(f)'], struct.pack('<i', 7), [(0, 'complex64')])
case('D.complex64(f64 var)', ['f = cast(inp, ~D.float64)[0]', O64 + 'D.complex64(f)'], struct.pack('<d', 0.1), [(0, 'complex64')])
case('D.complex64(1.5) literal', [O64 + 'D.complex64(1.5)'], b'', [(0, 'complex64')])
case('D.float32(c64)', [A64, 'cast(out, ~D.float32)[0] = D.float32(a)'], c64in, [(0, 'float32')])
case('x: D.complex64 = a; x = x * x', [A64, 'x: D.complex64 = a', 'x = x * x', O64 + 'x'], c64in, [(0, 'complex64')])
case('x = a (inferred), x += a', [A64, 'x = a', 'x += a', O64 + 'x'], c64in, [(0, 'complex64')])
case('x: D.complex64 = 1.5 (float)', ['x: D.complex64 = 1.5', O64 + 'x'], b'', [(0, 'complex64')])
case('x: D.complex64 = f32 var', ['f = cast(inp, ~D.float32)[0]', 'x: D.complex64 = f', O64 + 'x'], c64in, [(0, 'complex64')])
case('x: D.float32 = c64', [A64, 'x: D.float32 = a', 'cast(out, ~D.float32)[0] = x'], c64in, [(0, 'float32')])
case('a.real attribute', [A64, 'cast(out, ~D.float32)[0] = a.real'], c64in, [(0, 'float32')])
case('real(a) + imag(a) via hidet.ir.primitives.complex', [A64,
     'cast(out, ~D.float32)[0] = hidet.ir.primitives.complex.real(a) + hidet.ir.primitives.complex.imag(a)'], c64in, [(0, 'float32')])
case('make_complex(f32, f64)', ['cast(out, ~D.complex64)[0] = hidet.ir.primitives.complex.make_complex(D.float32(1.0), D.float64(2.0))'],
     b'', [(0, 'complex64')])
case('make_complex(1.0, 2.0) literals', [O64 + 'hidet.ir.primitives.complex.make_complex(1.0, 2.0)'], b'', [(0, 'complex64')])
case('real(f32)', ['f = cast(inp, ~D.float32)[0]', 'cast(out, ~D.float32)[0] = hidet.ir.primitives.complex.real(f)'],
     c64in, [(0, 'float32')])
case('complex tensor local', [A64, 't = hidet.lang.tensor(dtype=D.complex64, shape=[2])', 't[0] = a', 't[1] = t[0] * a',
     O64 + 't[1]'], c64in, [(0, 'complex64')])
case('complex pointer arith p + 1', ['p = cast(inp, ~D.complex64)', 'q = p + 1', O64 + 'q[0]'], c64in, [(0, 'complex64')])
case('c64 a < f (real)', [A64, 'f = cast(inp + 16, ~D.float32)[0]', 'cast(out, ~D.boolean)[0] = a == f'],
     c64in + struct.pack('<f', 1.5), [(0, 'bool')])
case('if a (truth)', [A64, 'if a:', '    cast(out, ~D.int32)[0] = 1'], c64in, [(0, 'int32')])
case('abs(c64) primitive', [A64, 'cast(out, ~D.float32)[0] = hidet.ir.primitives.math.abs(a)'], c64in, [(0, 'float32')])
case('c64 a ** 2', [A64, O64 + 'a ** 2'], c64in, [(0, 'complex64')])
case('c64 a // b', [A64, B64, O64 + 'a // b'], c64in, [(0, 'complex64')])
case('c64 param', [O64 + 'z * z'], c64in, [(0, 'complex64')], params='inp: ~u8, out: ~u8, z: D.complex64')

# void_p, address of a variable, pointers to pointers
case('void_p param cast', ['cast(cast(out, hidet.lang.void_p), ~D.float32)[0] = 2.5'], b'', [(0, 'float32')])
case('void_p variable', ['v: hidet.lang.void_p = out', 'cast(v, ~D.float32)[0] = 2.5'], b'', [(0, 'float32')])
case('void_p index', ['v: hidet.lang.void_p = out', 'cast(out, ~D.float32)[0] = v[0]'], b'', [(0, 'float32')])
case('void_p + 4', ['v: hidet.lang.void_p = out', 'cast(v + 4, ~D.float32)[0] = 2.5'], b'', [(4, 'float32')])
case('~(~f32) param', ['cast(out, ~D.int32)[0] = 1'], b'', [(0, 'int32')], params='inp: ~u8, out: ~u8, pp: ~(~D.float32)')
case('pointer to pointer local', ['p = cast(out, ~D.float32)', 'pp = ~p', 'pp[0][1] = 3.5'], b'', [(4, 'float32')])
case('~x of a scalar variable', ['x: D.int32 = 5', 'p = ~x', 'p[0] = 7', 'cast(out, ~D.int32)[0] = x'], b'', [(0, 'int32')])
case('~x passed to pointer', ['x: D.float32 = 5.0', 'p: ~D.float32 = ~x', 'p[0] = 7.0', 'cast(out, ~D.float32)[0] = x'], b'', [(0, 'float32')])
case('p: ~(~f32) declared', ['p = cast(out, ~D.float32)', 'pp: ~(~D.float32) = ~p', 'q = pp[0]', 'q[2] = 1.25'], b'', [(8, 'float32')])

# vectors
f4 = struct.pack('<ffffffff', 1.0, 2.0, 3.0, 4.0, 0.5, 0.25, -1.0, 8.0)
case('f32x4 declared local x: f32x4 = load', ['x: D.float32x4 = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.float32x4)[0] = x'],
     f4, [(0, 'float32'), (12, 'float32')])
pid = os.fork()
if pid == 0:  # a misaligned __m128 load may kill the process: run it in a child
    case('f32x4 load at inp+4 (misaligned)', ['x = cast(inp + 4, ~D.float32x4)[0]', 'cast(out, ~D.float32x4)[0] = x'],
         f4, [(0, 'float32'), (12, 'float32')])
    os._exit(0)
_, status = os.waitpid(pid, 0)
if os.WIFSIGNALED(status):
    emit({'case': 'f32x4 load at inp+4 (misaligned)', 'error': 'killed by signal {}'.format(os.WTERMSIG(status))})
case('f32x4 ptr arith p + 1', ['p = cast(inp, ~D.float32x4)', 'cast(out, ~D.float32x4)[0] = p[1]'], f4, [(0, 'float32')])
case('f32x4 tensor local', ['t = hidet.lang.tensor(dtype=D.float32x4, shape=[2])', 't[1] = cast(inp, ~D.float32x4)[0]',
     'cast(out, ~D.float32x4)[0] = t[1]'], f4, [(0, 'float32'), (12, 'float32')])
case('f32x4 param', ['cast(out, ~D.float32x4)[0] = v'], f4, [(0, 'float32')], params='inp: ~u8, out: ~u8, v: D.float32x4')
case('f32x4 x = f32 scalar', ['x: D.float32x4 = 1.0', 'cast(out, ~D.float32x4)[0] = x'], f4, [(0, 'float32'), (4, 'float32')])
case('f32x4 == ', ['a = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.boolean)[0] = a == a'], f4, [(0, 'bool')])
case('f32x4 -a', ['a = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.float32x4)[0] = -a'], f4, [(0, 'float32')])
case('f32x4 cast to f32', ['a = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.float32)[0] = D.float32(a)'], f4, [(0, 'float32')])
case('f32x8 ptr lanes', ['p = cast(cast(inp, ~D.float32x8), ~D.float32)', 'cast(out, ~D.float32)[0] = p[7]'], f4, [(0, 'float32')])
case('f32x4 from ~f32 ptr', ['p = cast(inp, ~D.float32)', 'q = cast(p + 4, ~D.float32x4)', 'cast(out, ~D.float32x4)[0] = q[0]'],
     f4, [(0, 'float32'), (12, 'float32')])
case('f32 ptr as ~i32 (reinterpret)', ['p = cast(inp, ~D.float32)', 'cast(out, ~D.int32)[0] = cast(p, ~D.int32)[0]'], f4, [(0, 'int32')])

# edge operands for * and /: checked against ksem's rules
inf, nan = float('inf'), float('nan')
vals = [0.0, -0.0, 1.0, -1.0, inf, -inf, nan, 1e30, -3e-39, 2.5, 1e-45, 3.4e38]
random.seed(11)
pairs = []
for _ in range(160):
    pairs.append(tuple(random.choice(vals) for _ in range(4)))
pairs += [(1.0, 1.0, 0.0, 0.0), (inf, 0.0, 1.0, 0.0), (1e30, 1e30, 1e30, 1e30), (inf, nan, 0.0, 1.0),
          (nan, nan, 0.0, 0.0), (1.0, 2.0, inf, nan), (1e-30, 1e-30, 1e-30, 1e-30), (3.0, 4.0, 1e-40, 2e-40),
          (1.0, 2.0, 3.0, 4.0), (0.1, 0.7, 0.3, -0.9)]
for _ in range(80):
    pairs.append(tuple(random.uniform(-4, 4) * 10.0 ** random.randint(-40, 38) for _ in range(4)))
N = len(pairs)
for t, fmt, w in [('complex64', 'f', 4), ('complex128', 'd', 8)]:
    for op in ['*', '/']:
        inp = b''.join(struct.pack('<' + fmt * 4, *p) for p in pairs)
        body = ['for i in range({}):'.format(N),
                '    a = cast(inp, ~D.{})[2 * i]'.format(t),
                '    b = cast(inp, ~D.{})[2 * i + 1]'.format(t),
                '    cast(out, ~D.{})[i] = a {} b'.format(t, op)]
        try:
            m = build_source(body)
            out = run_bytes(m, inp, N * 2 * w)
            for k, p in enumerate(pairs):
                raw = out[k * 2 * w:(k + 1) * 2 * w]
                re = '0x' + raw[:w][::-1].hex()
                im = '0x' + raw[w:][::-1].hex()
                ins = ['0x' + struct.pack('<' + fmt, x)[::-1].hex() for x in p]
                emit({'edge': t, 'op': op, 'in': ins, 'out': [re, im]})
        except Exception as e:  # noqa: BLE001
            emit({'edge': t, 'op': op, 'error': err_text(e)})
