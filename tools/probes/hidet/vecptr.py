"""Probe (h): what the Hidet fuzzer's vector constructs and pointer
differences do on Hidet 0.6.1's cpu_kernel (g++ 12.2, -ffast-math replaced
by -fno-fast-math -ffp-contract=off as in _common.py).

* local f32x4 / f32x8 tensors written lane by lane through
  `cast(~t[0], ~f32)`, copied whole (`v = t[k]`, `t[j] = v`, runtime k),
  negated (`-v`, on NaN and -0 lanes too) and read back lane by lane;
* the vector types the CPU build cannot declare in the same shape;
* pointer - pointer: typed pointers into a buffer and a local tensor,
  runtime offsets, negative results, vector pointers, the result's type,
  mixed pointee types.

    /work/hidetvenv/bin/python tools/probes/hidet/vecptr.py > tools/probes/hidet/vecptr.json
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403


def case(name, body, inp, outs):
    rec = {'case': name, 'body': body}
    try:
        m = build_source(body)
        out = run_bytes(m, inp, 128)
        rec['results'] = [list(decode(t, out[o:o + 16])) for o, t in outs]
        src = source_of(m).split('static void hidet_k', 1)[1].split('\n}', 1)[0]
        rec['c'] = [ln.strip() for ln in src.splitlines()[1:] if ln.strip()][:24]
    except Exception as e:  # noqa: BLE001
        msg = str(e)
        errs = [ln for ln in msg.splitlines() if 'error:' in ln]
        rec['error'] = errs[0][:400] if errs else err_text(e)
    emit(rec)


# inputs: 8 float32 (with a NaN of payload 0x7fa00001 and -0.0), then int32 k = 1
vals = [1.5, -2.25, float('nan'), -0.0, 3.0, 1e-45, -7.5, 65504.0]
f8 = b''.join(struct.pack('<f', v) for v in vals[:2]) + struct.pack('<I', 0x7fa00001) + \
    b''.join(struct.pack('<f', v) for v in vals[3:]) + struct.pack('<i', 1)
F = 'f = cast(inp, ~D.float32)'
K = 'k = cast(inp + 32, ~D.int32)[0]'
O = 'o = cast(out, ~D.float32)'

for n, ty in [(4, 'float32x4'), (8, 'float32x8')]:
    lanes_in = ['t = hidet.lang.tensor(dtype=D.{}, shape=[3])'.format(ty), 'q = cast(~t[0], ~D.float32)',
                'for j in range({}):'.format(3 * n), '    q[j] = f[j % 8]']
    case(ty + ' lanes written, v = t[k], w = -v, t[2] = w, lanes read', [F, K, O] + lanes_in + [
        'v = t[k]', 'w = -v', 't[2] = w', 'r = cast(~t[2], ~D.float32)',
        'for j in range({}):'.format(n), '    o[j] = r[j]'], f8, [(4 * j, 'float32') for j in range(n)])
    case(ty + ' t[0] = t[k] whole copy then lane 1 of element 0', [F, K, O] + lanes_in + [
        't[0] = t[k]', 'o[0] = q[1]', 'o[1] = q[{}]'.format(n + 1)], f8, [(0, 'float32'), (4, 'float32')])
    case(ty + ' lane write of an int and a f64 value (conversion)', [F, K, O] + lanes_in + [
        'q[1] = k + 6', 'q[2] = D.float64(0.1)', 'o[0] = q[1]', 'o[1] = q[2]'], f8, [(0, 'float32'), (4, 'float32')])
    case(ty + ' variable reassigned v = t[1]; v = -v', [F, K, O] + lanes_in + [
        'v = t[0]', 'v = -v', 't[1] = v', 'o[0] = q[{}]'.format(n), 'o[1] = q[{}]'.format(n + 2)],
         f8, [(0, 'float32'), (4, 'float32')])
    case(ty + ' declared x: T = t[1]', [F, K, O] + lanes_in + [
        'x: D.{} = t[1]'.format(ty), 't[0] = x', 'o[0] = q[0]'], f8, [(0, 'float32')])
    case(ty + ' vector pointer p = ~t[1]; p[0]', [F, K, O] + lanes_in + [
        'p = ~t[1]', 't[0] = p[1]', 'o[0] = q[0]'], f8, [(0, 'float32')])
    case(ty + ' lane pointer of a runtime element cast(~t[k], ~f32)', [F, K, O] + lanes_in + [
        'r = cast(~t[k], ~D.float32)', 'o[0] = r[1]'], f8, [(0, 'float32')])
    case(ty + ' -t[k] directly', [F, K, O] + lanes_in + ['t[0] = -t[k]', 'o[0] = q[0]'], f8, [(0, 'float32')])
    case(ty + ' lane pointer moved to element 1 (q + n)', [F, K, O] + lanes_in + [
        'r = q + {}'.format(n), 'o[0] = r[0]'], f8, [(0, 'float32')])

# vector tensors whose C type the CPU build lacks
for ty in ['float16x2', 'bfloat16x2', 'float32x2', 'int8x4', 'uint8x4']:
    case(ty + ' local tensor', ['t = hidet.lang.tensor(dtype=D.{}, shape=[2])'.format(ty), 't[1] = t[0]',
         'cast(out, ~D.int32)[0] = 1'], b'', [(0, 'int32')])

# pointer - pointer
I = 'a = cast(inp, ~D.float32)'
OI = 'cast(out, ~D.int64)[0] = '
case('ptr diff (a + 7) - (a + 2) vars', [I, 'p = a + 7', 'q = a + 2', OI + 'p - q'], f8, [(0, 'int64')])
case('ptr diff runtime (a + k + 5) - a', [I, K, 'p = a + (k + 5)', OI + 'p - a'], f8, [(0, 'int64')])
case('ptr diff negative a - (a + k + 5)', [I, K, 'p = a + (k + 5)', OI + 'a - p'], f8, [(0, 'int64')])
case('ptr diff into int32 variable d = p - q', [I, K, 'p = a + (k + 5)', 'd = p - a',
     'cast(out, ~D.float64)[0] = d / 4'], f8, [(0, 'float64')])
case('ptr diff declared d: i64 = p - q', [I, K, 'p = a + (k + 5)', 'd: D.int64 = p - a', OI + 'd'], f8, [(0, 'int64')])
case('ptr diff d: i8 = p - q, p - q = 300', [I, K, 'p = a + (k + 299)', 'd: D.int8 = p - a', OI + 'd'], f8, [(0, 'int64')])
case('ptr diff * 3 + 1 arithmetic', [I, K, 'p = a + (k + 5)', OI + '(p - a) * 3 + 1'], f8, [(0, 'int64')])
case('ptr diff of ~a[i] tensor elements', ['b = cast(inp, ~D.float32)', K, 't = hidet.lang.tensor(dtype=D.float32, shape=[4, 4])',
     'p = ~t[k, 2]', 'q = ~t[0, 1]', OI + 'p - q'], f8, [(0, 'int64')])
case('ptr diff of f32x4 pointers', [K, 't = hidet.lang.tensor(dtype=D.float32x4, shape=[4])',
     'p = ~t[k + 2]', 'q = ~t[0]', OI + 'p - q'], f8, [(0, 'int64')])
case('ptr diff int32 vs float32 pointee', [I, 'b = cast(inp, ~D.int32)', OI + 'a - b'], f8, [(0, 'int64')])
case('ptr diff of u8 and f64 pointers into one buffer', ['b = cast(inp, ~D.float64)', 'p = b + 2', OI + 'p - b'], f8, [(0, 'int64')])
case('ptr diff compared p - q < 3', [I, K, 'p = a + (k + 1)', 'cast(out, ~D.int32)[0] = 1 if p - a < 3 else 0'], f8, [(0, 'int32')])
case('ptr diff in index a[p - q]', [I, K, 'p = a + (k + 1)', 'cast(out, ~D.float32)[0] = a[p - a]'], f8, [(0, 'float32')])
case('ptr diff + pointer q + (p - q)', [I, K, 'p = a + (k + 1)', 'r = a + (p - a)', 'cast(out, ~D.float32)[0] = r[0]'], f8, [(0, 'float32')])
case('ptr diff of pointer params inp, out', [OI + 'out - inp'], f8, [(0, 'int64')])
