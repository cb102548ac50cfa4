"""ksem from Python: run Triton, CUDA Python, TileLang and Hidet script
kernels on ksem's exact reference interpreter, in-process, on numpy arrays
(and torch CPU tensors).

- :func:`run` — one launch of a kernel of a source file.
- :mod:`ksem.triton` — ``@ksem.triton.jit`` (or ``ksem.triton.jit(f)`` on an
  existing ``@triton.jit`` function): ``kernel[grid](x, y, out, n, BLOCK=1024)``.
- :mod:`ksem.cuda` — ``@ksem.cuda.jit``: ``kernel[grid, block](…)`` as numba.
- :class:`KsemError` (bad input, ``file:line:col``), its subclasses
  :class:`UnsupportedSyntax` and :class:`UndefinedBehavior`.
- :mod:`ksem.pytest_plugin` — ``pytest --ksem`` (or ``KSEM_INTERPRET=1``):
  an unmodified suite's ``triton.jit`` launches under ``TRITON_INTERPRET=1``
  and ``numba.cuda.jit`` launches under ``NUMBA_ENABLE_CUDASIM=1`` run on ksem.
"""

from ._host import Bits, Constexpr, Scalar
from ._ksem import KsemError, UndefinedBehavior, UnsupportedSyntax
from ._run import BufferResult, Result, UbReport, run
from . import cuda, triton

__all__ = [
    "run",
    "Result",
    "BufferResult",
    "UbReport",
    "Scalar",
    "Constexpr",
    "Bits",
    "KsemError",
    "UnsupportedSyntax",
    "UndefinedBehavior",
    "triton",
    "cuda",
]
