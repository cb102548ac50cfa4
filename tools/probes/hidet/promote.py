"""Probe (a): Hidet 0.6.1 result type of mixed scalar operations, and the
runtime value the compiled cpu_kernel (g++, fast-math off) produces.

    /work/hidetvenv/bin/python tools/probes/hidet/promote.py > tools/probes/hidet/promote.json

Lines: {"part": "infer", ...}   result type from Hidet's own type inference
       (hidet.ir.tools.infer_type on `Var(a) op Var(b)`; this is what a
       script-level `r = a op b` declares r as);
       {"part": "run", ...}     value stored by a compiled kernel in a slot of
       the inferred type, for two value pairs (a, b) = (-7, 2) and (100, -3)
       (negative values wrap into unsigned types);
       {"part": "literal", ...} Python int / float literals combined with a typed value.
"""
import operator
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403
from hidet.ir.expr import Var
from hidet.ir.tools import infer_type

TYPES = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
         'float16', 'bfloat16', 'float32', 'float64', 'tfloat32']
OPS = [('+', operator.add), ('-', operator.sub), ('*', operator.mul), ('/', operator.truediv),
       ('//', operator.floordiv), ('%', operator.mod), ('<', operator.lt), ('==', operator.eq)]
VALUES = [(-7, 2), (100, -3)]


def dt(name):
    return getattr(D, 'boolean' if name == 'bool' else name)


def is_float(n):
    return n.startswith('float') or n.startswith('bfloat') or n.startswith('tfloat')


def infer(ta, tb, fn):
    try:
        return str(infer_type(fn(Var('a', dt(ta)), Var('b', dt(tb)))).name)
    except Exception as e:  # noqa: BLE001
        return 'error: ' + err_text(e)


# ---- part 1: type inference for every pair ----
RT = {}
for ta in TYPES:
    for tb in TYPES:
        row = {}
        for sym, fn in OPS:
            row[sym] = infer(ta, tb, fn)
            RT[(ta, tb, sym)] = row[sym]
        emit({'part': 'infer', 'a': ta, 'b': tb, 'result': row})

# ---- part 2: runtime values, one kernel per left type ----
SLOT = 16
for ta in TYPES:
    body = []
    plan = []
    inp = bytearray(16 * (1 + len(VALUES) * len(TYPES)) + 16 * len(VALUES))
    for vi, (va, vb) in enumerate(VALUES):
        off_a = 16 * len(VALUES) * len(TYPES) + 16 * vi
        inp[off_a:off_a + SIZE[ta]] = encode(ta, va)
        body.append('a{} = cast(inp + {}, ~{})[0]'.format(vi, off_a, T(ta)))
        for bi, tb in enumerate(TYPES):
            off_b = 16 * (vi * len(TYPES) + bi)
            inp[off_b:off_b + SIZE[tb]] = encode(tb, vb)
            body.append('b{}_{} = cast(inp + {}, ~{})[0]'.format(vi, bi, off_b, T(tb)))
            for sym, _ in OPS:
                rt = RT[(ta, tb, sym)]
                if rt.startswith('error'):
                    continue
                if sym == '%' and (is_float(ta) or is_float(tb)):
                    continue  # C '%' on a float does not compile: see the mod-float lines
                slot = len(plan) * SLOT
                plan.append((vi, tb, sym, rt, slot))
                body.append('cast(out + {}, ~{})[0] = a{} {} b{}_{}'.format(slot, T(rt), vi, sym, vi, bi))
    try:
        m = build_source(body)
        out = run_bytes(m, bytes(inp), SLOT * len(plan))
        for vi, tb, sym, rt, slot in plan:
            v, h = decode(rt, out[slot:slot + SLOT])
            emit({'part': 'run', 'a': ta, 'b': tb, 'op': sym, 'values': list(VALUES[vi]),
                  'a_stored': decode(ta, encode(ta, VALUES[vi][0]))[0],
                  'b_stored': decode(tb, encode(tb, VALUES[vi][1]))[0],
                  'type': rt, 'result': v, 'bits': h})
    except Exception as e:  # noqa: BLE001
        emit({'part': 'run', 'a': ta, 'error': err_text(e)})

# ---- '%' with a float operand ----
for ta, tb in [('float32', 'float32'), ('float16', 'float16'), ('float64', 'int32'), ('bfloat16', 'bfloat16')]:
    try:
        m = build_source(['a = cast(inp, ~{})[0]'.format(T(ta)), 'b = cast(inp + 8, ~{})[0]'.format(T(tb)),
                          'cast(out, ~{})[0] = a % b'.format(T(RT[(ta, tb, '%')]))])
        emit({'part': 'mod-float', 'a': ta, 'b': tb, 'result': 'compiled'})
    except Exception as e:  # noqa: BLE001
        msg = str(e)
        lines = [ln for ln in msg.splitlines() if 'error:' in ln]
        emit({'part': 'mod-float', 'a': ta, 'b': tb, 'error': lines[0][:300] if lines else msg[:300]})

# ---- bool operands ----
for ta, tb in [('bool', 'bool'), ('bool', 'int32'), ('int8', 'bool'), ('bool', 'float32')]:
    emit({'part': 'infer', 'a': ta, 'b': tb, 'result': {s: infer(ta, tb, f) for s, f in OPS[:4] + OPS[6:]}})

# ---- literals: typed value `a` op Python literal ----
LITS = [('1', 1), ('1.5', 1.5), ('1099511627776', 2 ** 40), ('-1', -1)]
for ta in TYPES:
    body = ['a = cast(inp, ~{})[0]'.format(T(ta))]
    plan = []
    for ltxt, lval in LITS:
        for side in ('a op lit', 'lit op a'):
            for sym, fn in [('+', operator.add), ('*', operator.mul), ('<', operator.lt)]:
                v = Var('a', dt(ta))
                try:
                    e = fn(v, lval) if side == 'a op lit' else fn(lval, v)
                    rt = infer_type(e).name
                except Exception as ex:  # noqa: BLE001
                    emit({'part': 'literal', 'a': ta, 'lit': ltxt, 'form': side, 'op': sym, 'error': err_text(ex)})
                    continue
                slot = len(plan) * SLOT
                expr = 'a {} {}'.format(sym, ltxt) if side == 'a op lit' else '{} {} a'.format(ltxt, sym)
                plan.append((ltxt, side, sym, rt, slot, expr))
                body.append('cast(out + {}, ~{})[0] = {}'.format(slot, T(rt), expr))
    try:
        m = build_source(body)
        inp = encode(ta, 100)
        out = run_bytes(m, inp, SLOT * len(plan))
        for ltxt, side, sym, rt, slot, expr in plan:
            v, h = decode(rt, out[slot:slot + SLOT])
            emit({'part': 'literal', 'a': ta, 'a_value': 100, 'expr': expr, 'type': rt, 'result': v, 'bits': h})
    except Exception as e:  # noqa: BLE001
        emit({'part': 'literal', 'a': ta, 'error': err_text(e)})

# `2 ** 40` written in a script (both operands Python ints) goes through hidet's pow primitive
try:
    build_source(['cast(out, ~D.int64)[0] = 2 ** 40'])
    emit({'part': 'literal', 'expr': '2 ** 40 (in the script)', 'result': 'compiled'})
except Exception as e:  # noqa: BLE001
    emit({'part': 'literal', 'expr': '2 ** 40 (in the script)', 'error': err_text(e)})
