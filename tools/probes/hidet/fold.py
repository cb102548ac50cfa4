"""Probe (d): where Hidet 0.6.1 folds constant expressions in Python (Python
int/float semantics) while the generated C computes differently.  Each case is
compiled twice: `folded` writes the expression with constant operands (Hidet
folds it: while building the IR -- Python evaluates Python-int literals, and
Expr._binary / Constant._binary fold typed constants -- or later in
rule_based_simplify's ConstExprSimplifier); `runtime` reads the same operands
from memory, so the C code computes.  The generated C line is recorded.

    /work/hidetvenv/bin/python tools/probes/hidet/fold.py > tools/probes/hidet/fold.json
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403


def c_line(m):
    src = source_of(m)
    body = src.split('static void hidet_k', 1)[1].split('\n}', 1)[0]
    lines = [ln.strip() for ln in body.splitlines()[1:] if 'out' in ln]
    return lines[-1] if lines else None


def case(name, out_t, folded_expr, runtime_expr=None, operands=(), pre=()):
    """operands: [(name, dtype, value)] read from memory for the runtime variant."""
    rec = {'case': name, 'type': out_t, 'folded_expr': folded_expr}
    if folded_expr is None:
        pass
    else:
      try:
        m = build_source(list(pre) + ['cast(out, ~{})[0] = {}'.format(T(out_t), folded_expr)])
        out = run_bytes(m, b'', 16)
        rec['folded'], rec['folded_bits'] = decode(out_t, out)
        rec['folded_c'] = c_line(m)
      except Exception as e:  # noqa: BLE001
        msg = str(e)
        errs = [ln for ln in msg.splitlines() if 'error:' in ln.lower()]
        rec['folded_error'] = (errs[0] if errs else err_text(e))[:400]
    if runtime_expr is not None:
        rec['runtime_expr'] = runtime_expr
        body, inp, off = [], b'', 0
        for nm, t, v in operands:
            body.append('{} = cast(inp + {}, ~{})[0]'.format(nm, off, T(t)))
            inp += encode(t, v) + b'\0' * (8 - SIZE[t])
            off += 8
        rec['operands'] = [[nm, t, fmtf(v) if isinstance(v, float) else v] for nm, t, v in operands]
        try:
            m = build_source(body + ['cast(out, ~{})[0] = {}'.format(T(out_t), runtime_expr)])
            out = run_bytes(m, inp, 16)
            rec['runtime'], rec['runtime_bits'] = decode(out_t, out)
            rec['runtime_c'] = c_line(m)
        except Exception as e:  # noqa: BLE001
            rec['runtime_error'] = err_text(e)
        if 'folded' in rec and 'runtime' in rec:
            rec['diverges'] = rec['folded_bits'] != rec['runtime_bits']
    emit(rec)


I32 = 'int32'
# Python-int literals: evaluated by Python itself while the script is transpiled
case('py literals 7 // -2', I32, '7 // -2', 'a // b', [('a', I32, 7), ('b', I32, -2)])
case('py literals -7 // 2', I32, '-7 // 2', 'a // b', [('a', I32, -7), ('b', I32, 2)])
case('py literals 7 % -2', I32, '7 % -2', 'a % b', [('a', I32, 7), ('b', I32, -2)])
case('py literals -7 % 2', I32, '-7 % 2', 'a % b', [('a', I32, -7), ('b', I32, 2)])
case('py literals -7 / 2 (true division -> float32 const)', I32, '-7 / 2', 'a / b', [('a', I32, -7), ('b', I32, 2)])
case('py literals -7 / 2 stored as float32', 'float32', '-7 / 2')
case('py literal 65536 * 65536', I32, '65536 * 65536', 'a * b', [('a', I32, 65536), ('b', I32, 65536)])
case('py literal (65536*65536)//65536', I32, '(65536 * 65536) // 65536', '(a * b) // b', [('a', I32, 65536), ('b', I32, 65536)])
case('py literal 1 << 40 >> 38', I32, '(1 << 40) >> 38', '(a << b) >> c', [('a', I32, 1), ('b', I32, 40), ('c', I32, 38)])
# typed hidet constants (D.int32(7) is a Constant): folded in Expr._binary with Python semantics
case('int32(7) // int32(-2)', I32, 'D.int32(7) // D.int32(-2)', 'a // b', [('a', I32, 7), ('b', I32, -2)])
case('int32(7) % int32(-2)', I32, 'D.int32(7) % D.int32(-2)', 'a % b', [('a', I32, 7), ('b', I32, -2)])
case('int32(-7) / int32(2)', I32, 'D.int32(-7) / D.int32(2)', 'a / b', [('a', I32, -7), ('b', I32, 2)])
case('int8(300)', 'int8', 'D.int8(300)', 'a', [('a', 'int32', 300)])
case('int8(300) stored into int32', I32, 'D.int8(300)', 'D.int32(a)', [('a', 'int8', 300)])
case('int8(100)+int8(100)', 'int8', 'D.int8(100) + D.int8(100)', 'a + b', [('a', 'int8', 100), ('b', 'int8', 100)])
case('(int8(100)+int8(100)) // int8(2)', 'int8', '(D.int8(100) + D.int8(100)) // D.int8(2)', '(a + b) // c',
     [('a', 'int8', 100), ('b', 'int8', 100), ('c', 'int8', 2)])
case('int8(200) < int8(0)', 'bool', 'D.int8(200) < D.int8(0)', 'a < b', [('a', 'int8', 200), ('b', 'int8', 0)])
case('(int32(65536)*int32(65536)) // int32(65536)', I32, '(D.int32(65536) * D.int32(65536)) // D.int32(65536)',
     '(a * b) // b', [('a', I32, 65536), ('b', I32, 65536)])
case('int32(2**31-1) + int32(1) compared < 0', 'bool', 'D.int32(2147483647) + D.int32(1) < D.int32(0)', 'a + b < c',
     [('a', I32, 2147483647), ('b', I32, 1), ('c', I32, 0)])
case('int64(2**62) * int64(4)', 'int64', 'D.int64(4611686018427387904) * D.int64(4)', 'a * b',
     [('a', 'int64', 2 ** 62), ('b', 'int64', 4)])
case('uint32(0) - uint32(1)', 'uint32', 'D.uint32(0) - D.uint32(1)', 'a - b', [('a', 'uint32', 0), ('b', 'uint32', 1)])
case('(uint32(0) - uint32(1)) // uint32(2)', 'uint32', '(D.uint32(0) - D.uint32(1)) // D.uint32(2)', '(a - b) // c',
     [('a', 'uint32', 0), ('b', 'uint32', 1), ('c', 'uint32', 2)])
case('uint8(3) - uint8(5) < uint8(0)', 'bool', 'D.uint8(3) - D.uint8(5) < D.uint8(0)', 'a - b < c',
     [('a', 'uint8', 3), ('b', 'uint8', 5), ('c', 'uint8', 0)])
case('int32(1) << 40', I32, 'D.int32(1) << 40', 'a << b', [('a', I32, 1), ('b', I32, 40)])
# float constants: the value is a Python float (double) until printed as a C literal
case('f32 16777217.0 - 16777216.0', 'float32', 'D.float32(16777217.0) - D.float32(16777216.0)', 'a - b',
     [('a', 'float32', 16777217.0), ('b', 'float32', 16777216.0)])
case('f32(0.1) + f32(0.2)', 'float32', 'D.float32(0.1) + D.float32(0.2)', 'a + b',
     [('a', 'float32', 0.1), ('b', 'float32', 0.2)])
case('f32(1e30) * f32(1e30) / f32(1e30)', 'float32', 'D.float32(1e30) * D.float32(1e30) / D.float32(1e30)', 'a * b / c',
     [('a', 'float32', 1e30), ('b', 'float32', 1e30), ('c', 'float32', 1e30)])
case('f16(2049.0) - f16(2048.0)', 'float16', 'D.float16(2049.0) - D.float16(2048.0)', 'a - b',
     [('a', 'float16', 2049.0), ('b', 'float16', 2048.0)])
case('f16(60000) * f16(2) / f16(4)', 'float16', 'D.float16(60000.0) * D.float16(2.0) / D.float16(4.0)', 'a * b / c',
     [('a', 'float16', 60000.0), ('b', 'float16', 2.0), ('c', 'float16', 4.0)])
case('py float literals 0.1 + 0.2 into f32', 'float32', '0.1 + 0.2', 'a + b', [('a', 'float32', 0.1), ('b', 'float32', 0.2)])
case('f32(1.0) / f32(0.0)', 'float32', 'D.float32(1.0) / D.float32(0.0)', 'a / b', [('a', 'float32', 1.0), ('b', 'float32', 0.0)])
case('py 7 // 0', I32, '7 // 0')
case('int32(7) // int32(0)', I32, 'D.int32(7) // D.int32(0)')
# names bound to constants: x = 7 declares a variable; does the simplifier fold through it?
case('x = 7; x // -2', I32, 'x // -2', 'a // b', [('a', I32, 7), ('b', I32, -2)], pre=['x = 7'])
case('x: int32 = 7; x // -2', I32, 'x // -2', pre=['x: D.int32 = 7'])
case('x = int32(7); x % -2', I32, 'x % -2', pre=['x = D.int32(7)'])
case('x = int8(100); (x + x) // 2', 'int8', '(x + x) // D.int8(2)', pre=['x = D.int8(100)'])
# algebraic rewrite rules of rule_based_simplify applied to runtime values
case('(a * 65536) // 65536 (rule (e*c)//c -> e)', I32, None, '(a * 65536) // 65536', [('a', I32, 65536)])
case('(a * 65536) // b', I32, None, '(a * 65536) // b', [('a', I32, 65536), ('b', I32, 65536)])
case('(a * 2 + b) % 2 (rule -> b % 2)', I32, None, '(a * 2 + b) % 2', [('a', I32, 2 ** 30), ('b', I32, 3)])
case('(a + 5) - 5', 'int8', None, '(a + D.int8(5)) - D.int8(5)', [('a', 'int8', 126)])
case('a - a for NaN', 'float32', None, 'a - a', [('a', 'float32', float('nan'))])
case('a * 0 for NaN', 'float32', None, 'a * 0.0', [('a', 'float32', float('nan'))])
case('a * 0 for inf', 'float32', None, 'a * 0', [('a', 'float32', float('inf'))])
case('a + 0.0 for -0.0', 'float32', None, 'a + 0.0', [('a', 'float32', -0.0)])
case('a // a for 0', I32, None, 'a // a', [('a', I32, 0)])
