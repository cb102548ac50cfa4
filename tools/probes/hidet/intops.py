"""Probe (b): integer `/`, `//`, `%` with negative operands, division by zero,
shifts, bitwise operators' result type, narrow-int wrap, on Hidet 0.6.1
cpu_kernel (g++, fast-math off).  Operands come from memory (runtime values),
so nothing is folded by Hidet.  Faults (SIGFPE) are caught by running the
kernel in a forked child.

    /work/hidetvenv/bin/python tools/probes/hidet/intops.py > tools/probes/hidet/intops.json
"""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403
from hidet.ir.expr import Var
from hidet.ir.tools import infer_type


def run_forked(m, inp, n):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = run_bytes(m, inp, n)
            os.write(w, out)
        finally:
            os._exit(0)
    os.close(w)
    data = b''
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return None, signal.Signals(os.WTERMSIG(status)).name
    return data, None


def binary(ta, tb, expr, va, vb, note=None):
    """stores `expr` (in terms of a, b) into a slot of Hidet's inferred type."""
    a, b = Var('a', getattr(D, ta)), Var('b', getattr(D, tb))
    rec = {'a': ta, 'b': tb, 'expr': expr, 'a_value': va, 'b_value': vb}
    if note:
        rec['note'] = note
    try:
        rt = infer_type(eval(expr, {'a': a, 'b': b})).name
    except Exception as e:  # noqa: BLE001
        rec['error'] = err_text(e)
        emit(rec)
        return
    rec['type'] = rt
    try:
        m = build_source(['a = cast(inp, ~{})[0]'.format(T(ta)), 'b = cast(inp + 8, ~{})[0]'.format(T(tb)),
                          'cast(out, ~{})[0] = {}'.format(T(rt), expr)])
    except Exception as e:  # noqa: BLE001
        rec['error'] = err_text(e)
        emit(rec)
        return
    inp = encode(ta, va) + b'\0' * (8 - SIZE[ta]) + encode(tb, vb)
    out, sig = run_forked(m, inp, 16)
    if sig:
        rec['signal'] = sig
    else:
        rec['result'], rec['bits'] = decode(rt, out)
    emit(rec)


# division / modulo signs
for ta in ['int8', 'int32', 'int64']:
    for va, vb in [(7, 2), (-7, 2), (7, -2), (-7, -2)]:
        for op in ['/', '//', '%']:
            binary(ta, ta, 'a {} b'.format(op), va, vb)
# most negative / -1
binary('int8', 'int8', 'a / b', -128, -1)
binary('int8', 'int8', 'a % b', -128, -1)
binary('int32', 'int32', 'a / b', -2 ** 31, -1, 'C: UB (overflow)')
binary('int32', 'int32', 'a % b', -2 ** 31, -1, 'C: UB')
binary('int64', 'int64', 'a / b', -2 ** 63, -1, 'C: UB (overflow)')
# division by zero
for t in ['int8', 'int32', 'int64', 'uint32']:
    binary(t, t, 'a / b', 7, 0, 'C: UB')
    binary(t, t, 'a % b', 7, 0, 'C: UB')
for t in ['float32', 'float64', 'float16']:
    binary(t, t, 'a / b', 7.0, 0.0)
    binary(t, t, 'a / b', -7.0, 0.0)
    binary(t, t, 'a / b', 0.0, 0.0)
    binary(t, t, 'a // b', -7.0, 2.0, 'float // is true division')
# narrow wrap
binary('int8', 'int8', 'a + b', 100, 100)
binary('int8', 'int8', 'a * b', 100, 100)
binary('int8', 'int8', 'a - b', -100, 100)
binary('uint8', 'uint8', 'a - b', 1, 2)
binary('int16', 'int16', 'a * b', 300, 300)
binary('uint16', 'uint16', 'a * b', 65535, 65535, 'C: int promotion, 65535*65535 overflows int (UB)')
binary('int32', 'int32', 'a + b', 2 ** 31 - 1, 1, 'C: UB (signed overflow)')
binary('int32', 'int32', 'a * b', 65536, 65536, 'C: UB (signed overflow)')
binary('uint32', 'uint32', 'a - b', 1, 2)
binary('int64', 'int64', 'a + b', 2 ** 63 - 1, 1, 'C: UB (signed overflow)')
binary('int8', 'int8', '-a', -128, 0)
binary('uint8', 'uint8', '-a', 5, 0)
binary('uint32', 'uint32', '-a', 5, 0)
# shifts
for ta, tb, va, vb in [('int32', 'int32', 1, 4), ('int32', 'int32', -7, 1), ('int32', 'int32', 1, 31),
                       ('int32', 'int32', 1, 32), ('int32', 'int32', 1, 33), ('int32', 'int32', 1, -1),
                       ('int8', 'int32', 1, 7), ('int8', 'int32', 1, 8), ('int8', 'int32', -128, 1),
                       ('int8', 'int32', 64, 1), ('uint8', 'int32', 200, 1), ('int64', 'int32', 1, 40),
                       ('int32', 'int64', 1, 40), ('uint32', 'int32', 0x80000000, 1),
                       ('int16', 'int8', -1, 3)]:
    binary(ta, tb, 'a << b', va, vb)
    binary(ta, tb, 'a >> b', va, vb)
# bitwise: result type is the left operand's type
for ta, tb, va, vb in [('int8', 'int32', -1, 0x1ff), ('int32', 'int8', 0x1ff, -1), ('uint8', 'int64', 0xf0, -1),
                       ('int32', 'uint32', -1, 0xffff)]:
    for op in ['&', '|', '^']:
        binary(ta, tb, 'a {} b'.format(op), va, vb)
# mixed-width division: operands are converted to the promoted type first
binary('uint32', 'int32', 'a / b', 7, -2)
binary('int32', 'uint32', 'a / b', -7, 2)
binary('uint32', 'int32', 'a % b', 7, -2)
binary('int8', 'uint8', 'a / b', -7, 2)
binary('uint64', 'int64', 'a / b', 7, -2)
binary('int64', 'uint64', 'a / b', -7, 2)
