"""Probe (f): complex64/complex128 and vector types on the Hidet 0.6.1 CPU
target (cpu_kernel, g++).  Each case is a small kernel; a compile or
transpile failure is recorded with its message.

    /work/hidetvenv/bin/python tools/probes/hidet/complexvec.py > tools/probes/hidet/complexvec.json
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403
from hidet.ir.expr import Var
from hidet.ir.tools import infer_type

PRE = ['from hidet.ir.primitives.complex import real, imag, conj, make_complex']


def case(name, body, inp, outs):
    """outs: [(offset, dtype)] read back."""
    rec = {'case': name, 'body': body}
    try:
        m = build_source(body)
        out = run_bytes(m, inp, 64)
        rec['results'] = [list(decode(t, out[o:o + 16])) for o, t in outs]
        src = source_of(m).split('static void hidet_k', 1)[1].split('\n}', 1)[0]
        rec['c'] = [ln.strip() for ln in src.splitlines()[1:] if 'out' in ln]
    except Exception as e:  # noqa: BLE001
        msg = str(e)
        errs = [ln for ln in msg.splitlines() if 'error:' in ln]
        rec['error'] = errs[0][:400] if errs else err_text(e)
    emit(rec)


c64in = struct.pack('<ffff', 1.5, -2.0, 0.5, 4.0)         # a = 1.5-2i, b = 0.5+4i
c128in = struct.pack('<dddd', 1.5, -2.0, 0.5, 4.0)
for t, inp in [('complex64', c64in), ('complex128', c128in)]:
    w = SIZE[t]
    for op in ['+', '-', '*', '/']:
        case('{} a {} b'.format(t, op),
             ['a = cast(inp, ~D.{})[0]'.format(t), 'b = cast(inp + {}, ~D.{})[0]'.format(w, t),
              'cast(out, ~D.{})[0] = a {} b'.format(t, op)], inp, [(0, t)])
    case('{} a == b'.format(t), ['a = cast(inp, ~D.{})[0]'.format(t), 'b = cast(inp + {}, ~D.{})[0]'.format(w, t),
                                  'cast(out, ~D.boolean)[0] = a == b'], inp, [(0, 'bool')])
    case('{} a < b'.format(t), ['a = cast(inp, ~D.{})[0]'.format(t), 'b = cast(inp + {}, ~D.{})[0]'.format(w, t),
                                 'cast(out, ~D.boolean)[0] = a < b'], inp, [(0, 'bool')])
ft = 'float32'
# complex with a real operand, and the complex primitives (real, imag, conj, make_complex, abs)
body = ['from hidet.ir.primitives.complex import real, imag, conj, make_complex']
case('complex64 * float32 (promotion table: c64)', ['a = cast(inp, ~D.complex64)[0]', 'f = cast(inp + 16, ~D.float32)[0]',
     'cast(out, ~D.complex64)[0] = a * f'], c64in + struct.pack('<f', 2.0), [(0, 'complex64')])
case('complex64 + int32', ['a = cast(inp, ~D.complex64)[0]', 'f = cast(inp + 16, ~D.int32)[0]',
     'cast(out, ~D.complex64)[0] = a + f'], c64in + struct.pack('<i', 2), [(0, 'complex64')])
case('complex64 + float64', ['a = cast(inp, ~D.complex64)[0]', 'f = cast(inp + 16, ~D.float64)[0]',
     'cast(out, ~D.complex128)[0] = a + f'], c64in + struct.pack('<d', 2.0), [(0, 'complex128')])
case('real/imag/conj/make_complex via hidet.ir.primitives',
     ['a = cast(inp, ~D.complex64)[0]',
      'cast(out, ~D.float32)[0] = hidet.ir.primitives.complex.real(a)',
      'cast(out + 4, ~D.float32)[0] = hidet.ir.primitives.complex.imag(a)',
      'cast(out + 8, ~D.complex64)[0] = hidet.ir.primitives.complex.conj(a)',
      'cast(out + 16, ~D.complex64)[0] = hidet.ir.primitives.complex.make_complex(D.float32(3.0), D.float32(-1.0))'],
     c64in, [(0, 'float32'), (4, 'float32'), (8, 'complex64'), (16, 'complex64')])
case('complex64 literal 1+2j', ['cast(out, ~D.complex64)[0] = D.complex64(1 + 2j)'], b'', [(0, 'complex64')])
case('complex division by zero', ['a = cast(inp, ~D.complex64)[0]', 'z = cast(inp + 16, ~D.complex64)[0]',
     'cast(out, ~D.complex64)[0] = a / z'], c64in + b'\0' * 8, [(0, 'complex64')])
case('complex (1e30+1e30j)*(1e30+1e30j) overflow', ['a = cast(inp, ~D.complex64)[0]',
     'cast(out, ~D.complex64)[0] = a * a'], struct.pack('<ff', 1e30, 1e30), [(0, 'complex64')])
case('complex inf*(1+0j) (Annex G?)', ['a = cast(inp, ~D.complex64)[0]', 'b = cast(inp + 8, ~D.complex64)[0]',
     'cast(out, ~D.complex64)[0] = a * b'], struct.pack('<ffff', float('inf'), 0.0, 1.0, 0.0), [(0, 'complex64')])
emit({'case': 'infer c64 op f32', 'result': str(infer_type(Var('a', D.complex64) * Var('b', D.float32)))})
for tb in ['float64', 'int32', 'complex128', 'float16']:
    try:
        r = str(infer_type(Var('a', D.complex64) + Var('b', getattr(D, tb))))
    except Exception as e:  # noqa: BLE001
        r = 'error: ' + err_text(e)
    emit({'case': 'infer complex64 + ' + tb, 'result': r})

# vector types
f4 = struct.pack('<ffff', 1.0, 2.0, 3.0, 4.0) + struct.pack('<ffff', 0.5, 0.25, -1.0, 8.0)
case('f32x4 a + b', ['a = cast(inp, ~D.float32x4)[0]', 'b = cast(inp + 16, ~D.float32x4)[0]',
     'cast(out, ~D.float32x4)[0] = a + b'], f4, [(0, 'float32'), (4, 'float32'), (8, 'float32'), (12, 'float32')])
case('f32x4 a * b', ['a = cast(inp, ~D.float32x4)[0]', 'b = cast(inp + 16, ~D.float32x4)[0]',
     'cast(out, ~D.float32x4)[0] = a * b'], f4, [(0, 'float32'), (4, 'float32'), (8, 'float32'), (12, 'float32')])
case('f32x4 copy (load/store only)', ['a = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.float32x4)[0] = a'],
     f4, [(0, 'float32'), (4, 'float32'), (8, 'float32'), (12, 'float32')])
case('f32x4 lane a[1]', ['a = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.float32)[0] = a[1]'], f4, [(0, 'float32')])
case('f32x4 lane a.y', ['a = cast(inp, ~D.float32x4)[0]', 'cast(out, ~D.float32)[0] = a.y'], f4, [(0, 'float32')])
case('f32x4 lanes via pointer cast (~f32)', ['p = cast(cast(inp, ~D.float32x4), ~D.float32)',
     'cast(out, ~D.float32)[0] = p[2]'], f4, [(0, 'float32')])
case('f32x8 a + b', ['a = cast(inp, ~D.float32x8)[0]', 'cast(out, ~D.float32x8)[0] = a + a'],
     f4, [(0, 'float32'), (28, 'float32')])
h2 = struct.pack('<eeee', 1.0, 2.0, 0.5, 0.25)
case('f16x2 a + b', ['a = cast(inp, ~D.float16x2)[0]', 'b = cast(inp + 4, ~D.float16x2)[0]',
     'cast(out, ~D.float16x2)[0] = a + b'], h2, [(0, 'float16'), (2, 'float16')])
case('f16x2 copy', ['a = cast(inp, ~D.float16x2)[0]', 'cast(out, ~D.float16x2)[0] = a'], h2, [(0, 'float16'), (2, 'float16')])
case('i8x4 a + b', ['a = cast(inp, ~D.int8x4)[0]', 'b = cast(inp + 4, ~D.int8x4)[0]',
     'cast(out, ~D.int8x4)[0] = a + b'], bytes([1, 2, 3, 250, 10, 20, 30, 10]), [(0, 'int8'), (3, 'int8')])
case('i8x4 copy', ['a = cast(inp, ~D.int8x4)[0]', 'cast(out, ~D.int8x4)[0] = a'], bytes([1, 2, 3, 250]), [(0, 'int8'), (3, 'int8')])
case('f32x2 copy', ['a = cast(inp, ~D.float32x2)[0]', 'cast(out, ~D.float32x2)[0] = a'], f4, [(0, 'float32'), (4, 'float32')])
case('bf16x2 copy', ['a = cast(inp, ~D.bfloat16x2)[0]', 'cast(out, ~D.bfloat16x2)[0] = a'], h2, [(0, 'bfloat16')])
for name in ['f32x4', 'f16x2', 'int8x4']:
    dtv = getattr(D, name)
    try:
        r = str(infer_type(Var('a', dtv) + Var('b', dtv)))
    except Exception as e:  # noqa: BLE001
        r = 'error: ' + err_text(e)
    emit({'case': 'infer {} + {}'.format(name, name), 'result': r})
try:
    r = str(infer_type(Var('a', D.f32x4) + Var('b', D.float32)))
except Exception as e:  # noqa: BLE001
    r = 'error: ' + err_text(e)
emit({'case': 'infer f32x4 + float32', 'result': r})
