"""Probe (e): Hidet 0.6.1 layouts.  The index -> offset table of each layout is
taken from Hidet's layout objects directly (DataLayout(*indices) with Python
ints, evaluated by Hidet's own Python code), then some are checked through a
compiled cpu_kernel that writes t[i, j] = 100*i + j through a tensor pointer
with that layout over a zeroed buffer and reads the buffer back.

    /work/hidetvenv/bin/python tools/probes/hidet/layout.py > tools/probes/hidet/layout.json
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import *  # noqa: F401,F403
from hidet.ir.layout import row_major, column_major, local_layout, strided_layout

LAYOUTS = {
    'row_major(2, 3)': row_major(2, 3),
    'column_major(2, 3)': column_major(2, 3),
    'row_major(4, 4)': row_major(4, 4),
    'column_major(4, 4)': column_major(4, 4),
    'strided_layout([2, 2, 2], ranks=[0, 2, 1])': strided_layout([2, 2, 2], ranks=[0, 2, 1]),
    'strided_layout([2, 3, 4], ranks=[2, 0, 1])': strided_layout([2, 3, 4], ranks=[2, 0, 1]),
    'local_layout(2, 3)': local_layout(2, 3),
    'row_major(2, 1) * row_major(2, 2)': row_major(2, 1) * row_major(2, 2),
    'row_major(2, 1) * column_major(2, 2)': row_major(2, 1) * column_major(2, 2),
    'row_major(2, 2) * column_major(2, 3)': row_major(2, 2) * column_major(2, 3),
    'column_major(2, 2) * row_major(2, 3)': column_major(2, 2) * row_major(2, 3),
    'row_major(2, 1) * row_major(2, 2) * column_major(2, 2)': row_major(2, 1) * row_major(2, 2) * column_major(2, 2),
    '(row_major(2, 1) * row_major(2, 2)) * column_major(2, 2)': (row_major(2, 1) * row_major(2, 2)) * column_major(2, 2),
    'row_major(2, 1) * (row_major(2, 2) * column_major(2, 2))': row_major(2, 1) * (row_major(2, 2) * column_major(2, 2)),
    'row_major(2, 2) * local_layout(2, 1)': row_major(2, 2) * local_layout(2, 1),
    'local_layout(2, 1) * row_major(2, 2)': local_layout(2, 1) * row_major(2, 2),
    'row_major(2, 2).local(2, 1)': row_major(2, 2).local(2, 1),
    'row_major(2) + column_major(2, 3)  (concat)': row_major(2) + column_major(2, 3),
    'strided_layout([3, 2], ranks=None)': strided_layout([3, 2]),
}


def table(layout):
    shape = [int(s) for s in layout.shape]
    t = {}
    for idx in itertools.product(*[range(s) for s in shape]):
        t[','.join(map(str, idx))] = int(layout(*idx))
    return shape, t


for name, lay in LAYOUTS.items():
    shape, t = table(lay)
    rec = {'layout': name, 'class': type(lay).__name__, 'shape': shape, 'size': int(lay.size), 'offsets': t}
    if hasattr(lay, 'strides'):
        rec['strides'] = [int(s) for s in lay.strides]
    emit(rec)

# confirmation through compiled kernels (2-D layouts)
CHECK = ['row_major(2, 3)', 'column_major(2, 3)', 'row_major(2, 2) * column_major(2, 3)',
         'row_major(2, 1) * column_major(2, 2)', 'column_major(2, 2) * row_major(2, 3)']
for name in CHECK:
    lay = LAYOUTS[name]
    shape, t = table(lay)
    size = int(lay.size)
    expr = name.replace('row_major', 'hidet.lang.layout.row_major').replace('column_major', 'hidet.lang.layout.column_major')
    body = ['t = hidet.lang.as_tensor_pointer(cast(out, ~D.int32), D.int32, layout={})'.format(expr)]
    for i in range(shape[0]):
        for j in range(shape[1]):
            body.append('t[{i}, {j}] = {v}'.format(i=i, j=j, v=100 * i + j))
    # also index with runtime variables (loop) into a second buffer region
    body.append('u = hidet.lang.as_tensor_pointer(cast(out + {}, ~D.int32), D.int32, layout={})'.format(4 * size, expr))
    body.append('for i in range({}):'.format(shape[0]))
    body.append('    for j in range({}):'.format(shape[1]))
    body.append('        u[i, j] = 100 * i + j')
    try:
        import hidet.lang.layout  # noqa: F401
        m = build_source(body)
        out = run_bytes(m, b'', 8 * size)
        mem = [decode('int32', out[4 * k:4 * k + 4])[0] for k in range(2 * size)]
        expect = [0] * size
        for k, off in t.items():
            i, j = map(int, k.split(','))
            expect[off] = 100 * i + j
        emit({'layout': name, 'kernel_memory_const_index': mem[:size], 'kernel_memory_loop_index': mem[size:],
              'expected_from_table': expect, 'match': mem[:size] == expect and mem[size:] == expect})
    except Exception as e:  # noqa: BLE001
        emit({'layout': name, 'kernel_error': err_text(e)})
