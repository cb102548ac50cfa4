"""Probe (c): conversions on Hidet 0.6.1 cpu_kernel (g++, fast-math off):
float -> int out of range (UB in C), f32 -> f16 / bf16 / tf32 rounding,
f64 -> f16 / bf16 (double rounding?), int -> float.  Each value is read from
memory (bit pattern given) and converted with `D.<dst>(x)` (a Hidet cast).

    /work/hidetvenv/bin/python tools/probes/hidet/conv.py > tools/probes/hidet/conv.json
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403


def f64_bits(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


def raw(dtype, bits):
    n = SIZE[dtype]
    return bits.to_bytes(n, 'little')


def convert(src, dst, items, expr='D.{dst}(x)'):
    """items: list of (label, raw bytes)."""
    body = []
    inp = b''
    for i, (_, rb) in enumerate(items):
        body.append('x{i} = cast(inp + {o}, ~{s})[0]'.format(i=i, o=16 * i, s=T(src)))
        body.append('cast(out + {o}, ~{d})[0] = {e}'.format(
            o=16 * i, d=T(dst), e=expr.format(dst=T(dst)[2:]).replace('(x)', '(x{})'.format(i)).replace('x ', 'x{} '.format(i))))
        inp += rb + b'\0' * (16 - len(rb))
    try:
        m = build_source(body)
    except Exception as e:  # noqa: BLE001
        emit({'src': src, 'dst': dst, 'error': err_text(e)})
        return
    out = run_bytes(m, inp, 16 * len(items))
    for i, (label, rb) in enumerate(items):
        v, h = decode(dst, out[16 * i:16 * i + 16])
        sv, sh = decode(src, rb)
        emit({'src': src, 'dst': dst, 'input': label, 'input_bits': sh, 'input_value': sv, 'result': v, 'bits': h})


F32 = [('1+2^-11 (f16 tie, even down)', 0x3f801000), ('1+3*2^-11 (f16 tie, even up)', 0x3f803000),
       ('1+2^-11+2^-23', 0x3f801001), ('1+2^-11-2^-23', 0x3f800fff), ('65504 (f16 max)', 0x477fe000),
       ('65519.996', 0x477fefff), ('65520 (tie above f16 max)', 0x477ff000), ('2^-14 (f16 min normal)', 0x38800000),
       ('2^-25 (tie to 0)', 0x33000000), ('2^-25+ulp', 0x33000001), ('3*2^-25 (tie to 2^-23)', 0x33400000),
       ('2^-24 (f16 min subnormal)', 0x33800000), ('1.5*2^-24 (tie)', 0x33c00000), ('1e-10', f32_bits(1e-10)),
       ('-0.0', 0x80000000), ('inf', 0x7f800000), ('-inf', 0xff800000), ('qnan', 0x7fc00000),
       ('-qnan', 0xffc00000), ('snan payload 1', 0x7f800001), ('qnan payload 0x1fff', 0x7fc01fff),
       ('1+2^-8 (bf16 tie, even down)', 0x3f808000), ('1+3*2^-8 (bf16 tie, even up)', 0x3f818000),
       ('1+2^-8+2^-23', 0x3f808001), ('f32 max', 0x7f7fffff), ('bf16 max + half ulp', 0x7f7f8000),
       ('f32 min subnormal', 0x00000001), ('subnormal 0x00008000', 0x00008000), ('subnormal 0x00018000', 0x00018000),
       ('tf32 tie bit12 even down 0x3f801000', 0x3f801000), ('tf32 tie even up 0x3f803000', 0x3f803000),
       ('0x3f800fff', 0x3f800fff), ('0x3f801fff', 0x3f801fff), ('0.1', f32_bits(0.1))]
F32_ITEMS = [(lbl, raw('float32', b)) for lbl, b in F32]
for dst in ['float16', 'bfloat16', 'tfloat32']:
    convert('float32', dst, F32_ITEMS)
# tf32 stored back to f32 after arithmetic: is any rounding applied?
convert('float32', 'float32', F32_ITEMS[:6], expr='D.float32(D.tfloat32(x) * D.tfloat32(1.0000001))')

F64 = [('1+2^-11+2^-40 (f16: just above tie)', f64_bits(1 + 2 ** -11 + 2 ** -40)),
       ('1+2^-8+2^-40 (bf16: just above tie)', f64_bits(1 + 2 ** -8 + 2 ** -40)),
       ('1+2^-24+2^-60 (f32: just above tie)', f64_bits(1 + 2 ** -24 + 2 ** -60)),
       ('65519.99 (f16)', f64_bits(65519.99)), ('1e300', f64_bits(1e300)), ('qnan', 0x7ff8000000000000),
       ('nan payload 0x7ff0000000000001', 0x7ff0000000000001), ('0.1', f64_bits(0.1))]
F64_ITEMS = [(lbl, raw('float64', b)) for lbl, b in F64]
for dst in ['float16', 'bfloat16', 'float32']:
    convert('float64', dst, F64_ITEMS)

# float -> int
FI = [2.7, -2.7, 0.5, -0.5, 127.5, 128.0, 300.0, -129.0, 40000.0, 70000.0, -1.0, 2147483520.0, 2147483648.0, -2147483904.0,
      3e9, -3e9, 5e9, 1e19, 2e19, 1e20, float('inf'), float('-inf'), float('nan')]
FI_ITEMS = [(repr(v), encode('float32', v)) for v in FI]
for dst in ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'bool']:
    convert('float32', dst, FI_ITEMS)
for dst in ['int32', 'uint32', 'int64', 'uint64']:
    convert('float64', dst, [(repr(v), encode('float64', v)) for v in FI])
H = [2.7, -2.7, 300.0, -300.0, 40000.0, 65504.0, float('inf'), float('nan'), -1.0]
for dst in ['int8', 'uint8', 'int16', 'int32', 'uint32', 'int64', 'uint64']:
    convert('float16', dst, [(repr(v), encode('float16', v)) for v in H])
for dst in ['int8', 'int32', 'uint8']:
    convert('bfloat16', dst, [(repr(v), encode('bfloat16', v)) for v in H])

# int -> float
convert('int32', 'float32', [(str(v), encode('int32', v)) for v in [16777217, 16777219, 2147483647, -2147483648, 33554435]])
convert('int32', 'float16', [(str(v), encode('int32', v)) for v in [2049, 2051, 65504, 65519, 65520, 100000, -70000]])
convert('int32', 'bfloat16', [(str(v), encode('int32', v)) for v in [257, 259, 2147483647]])
convert('int64', 'float64', [(str(v), encode('int64', v)) for v in [2 ** 53 + 1, 2 ** 53 + 3, 2 ** 63 - 1]])
convert('int64', 'float32', [(str(v), encode('int64', v)) for v in [2 ** 53 + 1, 2 ** 24 + 1, 2 ** 63 - 1]])
convert('uint64', 'float32', [(str(v), encode('uint64', v)) for v in [2 ** 64 - 1, 2 ** 63 + 2 ** 39 + 1]])
convert('uint64', 'float64', [(str(v), encode('uint64', v)) for v in [2 ** 64 - 1, 2 ** 63 + 2 ** 10 + 1]])
convert('uint32', 'float16', [(str(v), encode('uint32', v)) for v in [4294967295, 65520]])
convert('int8', 'float16', [(str(v), encode('int8', v)) for v in [-128, 127]])
convert('int64', 'float16', [(str(v), encode('int64', v)) for v in [2049, 2 ** 40]])
convert('int32', 'bool', [(str(v), encode('int32', v)) for v in [0, 2, -1, 256]])
# narrowing integer casts
convert('int32', 'int8', [(str(v), encode('int32', v)) for v in [300, -129, 128, 255]])
convert('int64', 'uint32', [(str(v), encode('int64', v)) for v in [-1, 2 ** 32 + 5]])
convert('uint32', 'int32', [(str(v), encode('uint32', v)) for v in [2 ** 32 - 1, 2 ** 31]])
convert('float16', 'bfloat16', [(str(v), encode('float16', v)) for v in [1.0009765625, 65504.0]])
convert('bfloat16', 'float16', [(str(v), encode('bfloat16', v)) for v in [1.0078125, 1e10, 3.0e-8]])
