import triton
import triton.language as tl
from typing import NamedTuple
import cfhelpers
import cfhelpers as ch
from cfhelpers import cube_plus


class Cfg(NamedTuple):
    block: tl.constexpr
    scale: tl.constexpr


@triton.constexpr_function
def log2_loop(n):
    k = 0
    while n > 1:
        n = n // 2
        k += 1
    return k


@triton.constexpr_function
def first_multiple(n, m):
    i = 0
    while True:
        i += 1
        if i % m != 0:
            continue
        if i >= n:
            break
    return i


@triton.constexpr_function
def sum_tuple(t):
    s = 0
    for v in t:
        if v < 0:
            continue
        s += v
    return s


@triton.constexpr_function
def sum_range(a, b):
    s = 0
    for i in range(a, b, 2):
        s += i
        if s > 100:
            break
    return s


@triton.constexpr_function
def nested(x):
    return log2_loop(x) * 100 + sum_tuple((x, -1, 2))


@triton.jit
def take_cfg(c: tl.constexpr):
    return c.block * c.scale + log2_loop(c.block)


@triton.jit
def kern(out):
    tl.store(out + 0, log2_loop(1024))
    tl.store(out + 1, first_multiple(10, 3))
    tl.store(out + 2, sum_tuple((1, -2, 3, 4)))
    tl.store(out + 3, sum_range(1, 40))
    tl.store(out + 4, nested(16))
    tl.store(out + 5, cfhelpers.cube_plus(2))
    tl.store(out + 6, ch.inner(41) + cube_plus(1))
    tl.store(out + 7, ch.jit_uses(3))
    tl.store(out + 8, take_cfg(Cfg(64, 3)))
