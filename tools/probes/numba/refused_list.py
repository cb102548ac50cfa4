# Probe (i): numba refuses a dict literal (getitem on DictType) in a kernel -> numba_run.py must exit 2.
from numba import cuda


@cuda.jit
def uses_dict(out):
    d = {1: 2}
    out[0] = d[1]
