"""Probe (g): what Hidet 0.6.1 refuses (or silently accepts) in a cpu_kernel
script, with the exact message.  `status` is accepted (built; the result
is shown) or refused (the error chain: the transpiler's HidetProgramError and
the exception that caused it, or g++'s first error line).

    /work/hidetvenv/bin/python tools/probes/hidet/refuse.py > tools/probes/hidet/refuse.json
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403


def case(name, body, out_t=None, inp=b'\0' * 16):
    rec = {'case': name, 'body': body}
    try:
        m = build_source(body)
        rec['status'] = 'accepted'
        if out_t:
            out = run_bytes(m, inp, 16)
            rec['result'], rec['bits'] = decode(out_t, out)
        src = source_of(m).split('static void hidet_k', 1)[1].split('\n}', 1)[0]
        rec['c'] = [ln.strip() for ln in src.splitlines()[1:] if ln.strip()][:6]
    except Exception as e:  # noqa: BLE001
        rec['status'] = 'refused'
        msg = str(e)
        errs = [ln for ln in msg.splitlines() if 'error:' in ln]
        rec['error'] = ('g++: ' + errs[0])[:500] if errs else err_text(e)
    emit(rec)


case('tensor with a runtime shape', ['n = cast(inp, ~D.int32)[0]',
     'a = hidet.lang.tensor(dtype=D.float32, shape=[n])', 'a[0] = 1.0'])
case('tensor with a constant shape', ['a = hidet.lang.tensor(dtype=D.float32, shape=[4])', 'a[0] = 1.5',
     'cast(out, ~D.float32)[0] = a[0]'], 'float32')
case('x: int32 = 1.5 (float into int-declared)', ['x: D.int32 = 1.5', 'cast(out, ~D.int32)[0] = x'], 'int32')
case('x = 1 then x = 2.7 (reassign float to int var)', ['x = 1', 'x = 2.7', 'cast(out, ~D.int32)[0] = x'], 'int32')
case('x = 1.5 then x = 3 (int to float var)', ['x = 1.5', 'x = 3', 'cast(out, ~D.float32)[0] = x'], 'float32')
case('x: int32 = runtime float', ['f = cast(inp, ~D.float32)[0]', 'x: D.int32 = f', 'cast(out, ~D.int32)[0] = x'], 'int32',
     encode('float32', -2.7) + b'\0' * 12)
case('x: float32 = pointer', ['p = cast(inp, ~D.float32)', 'x: D.float32 = p'])
case('pointer * 2', ['p = cast(inp, ~D.float32)', 'q = p * 2'])
case('pointer + pointer', ['p = cast(inp, ~D.float32)', 'q = p + p'])
case('pointer - pointer (int32)', ['p = cast(inp, ~D.float32)', 'cast(out, ~D.int64)[0] = (p + 3) - p'], 'int64')
case('pointer < int', ['p = cast(inp, ~D.float32)', 'cast(out, ~D.boolean)[0] = p < 3'])
case('pointer + float', ['p = cast(inp, ~D.float32)', 'q = p + 1.5'])
case('store float into pointer-typed var', ['p = cast(inp, ~D.float32)', 'p = 1.5'])
case('index a scalar', ['x = cast(inp, ~D.float32)[0]', 'cast(out, ~D.float32)[0] = x[0]'])
case('too many indices on a pointer', ['p = cast(inp, ~D.float32)', 'cast(out, ~D.float32)[0] = p[0, 1]'])
case('undefined name', ['cast(out, ~D.int32)[0] = y'])
case('a ** 2 on a runtime value', ['x = cast(inp, ~D.float32)[0]', 'cast(out, ~D.float32)[0] = x ** 2'], 'float32',
     encode('float32', 3.0) + b'\0' * 12)
case('a ** 2 on a runtime int', ['x = cast(inp, ~D.int32)[0]', 'cast(out, ~D.int32)[0] = x ** 2'], 'int32',
     encode('int32', 3) + b'\0' * 12)
case('x if c else y, int vs float', ['x = cast(inp, ~D.int32)[0]', 'f = cast(inp + 4, ~D.float32)[0]',
     'cast(out, ~D.float32)[0] = x if x < 3 else f'])
case('python `and` on runtime conditions', ['x = cast(inp, ~D.int32)[0]',
     'cast(out, ~D.boolean)[0] = x < 3 and x > -3'], 'bool')
case('if on a runtime condition', ['x = cast(inp, ~D.int32)[0]', 'if x < 3:', '    cast(out, ~D.int32)[0] = 1',
     'else:', '    cast(out, ~D.int32)[0] = 2'], 'int32')
case('while loop', ['i = 0', 'while i < 4:', '    i += 1', 'cast(out, ~D.int32)[0] = i'], 'int32')
case('a = b = 1', ['a = b = 1'])
case('constant index out of range on tensor', ['a = hidet.lang.tensor(dtype=D.int32, shape=[4])', 'a[7] = 5',
     'cast(out, ~D.int32)[0] = 1'], 'int32')
case('bool + bool', ['x = cast(inp, ~D.boolean)[0]', 'cast(out, ~D.boolean)[0] = x + x'], 'bool', b'\x01' + b'\0' * 15)
case('~x (address-of, not bitwise not)', ['x = cast(inp, ~D.int32)[0]', 'cast(out, ~D.int32)[0] = ~x'])
case('bitwise_not(x)', ['x = cast(inp, ~D.int32)[0]', 'cast(out, ~D.int32)[0] = hidet.lang.bitwise_not(x)'], 'int32',
     encode('int32', 5) + b'\0' * 12)
case('float % float', ['x = cast(inp, ~D.float32)[0]', 'cast(out, ~D.float32)[0] = x % x'])
case('float << int', ['x = cast(inp, ~D.float32)[0]', 'cast(out, ~D.float32)[0] = x << 1'])
case('float & int', ['x = cast(inp, ~D.float32)[0]', 'cast(out, ~D.float32)[0] = x & 1'])
case('not x (runtime)', ['x = cast(inp, ~D.int32)[0]', 'cast(out, ~D.boolean)[0] = not x'])
case('return a value from cpu_kernel', ['return 1'])
