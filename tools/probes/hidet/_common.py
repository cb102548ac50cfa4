"""Shared set-up for the Hidet 0.6.1 probes (imported by every probe).

* Hidet's g++ command line contains -ffast-math (hidet/backend/build.py,
  GCC.compile; there is no option or environment variable to drop it).  We
  monkeypatch SourceCompiler.run_compile_command so that '-ffast-math' is
  replaced by '-fno-fast-math -ffp-contract=off' before the command runs.
  The command actually used is written by Hidet to <cache>/ir_modules/<hash>/compile.sh.
* Hidet caches built modules by a hash of the IR text only (not the flags), so
  the probes use their own cache directory (HIDET_PROBE_CACHE, default
  /tmp/hidet_probe_cache) that never holds a fast-math build.
"""
import json
import os
import struct
import sys

import hidet
from hidet.backend import build as _hb

_orig = _hb.SourceCompiler.run_compile_command


def _no_fast_math(self, command, src_path, out_lib_path):
    command = command.replace('-ffast-math', '-fno-fast-math -ffp-contract=off')
    assert 'fast-math' not in command.replace('-fno-fast-math', '')
    return _orig(self, command, src_path, out_lib_path)


_hb.SourceCompiler.run_compile_command = _no_fast_math
hidet.option.cache_dir(os.environ.get('HIDET_PROBE_CACHE', '/tmp/hidet_probe_cache'))
hidet.option.parallel_build(False)

import torch  # noqa: E402
from hidet.ir import dtypes as D  # noqa: E402

# name -> (struct format, size) used to read/write raw bytes
FMT = {
    'int8': 'b', 'int16': 'h', 'int32': 'i', 'int64': 'q',
    'uint8': 'B', 'uint16': 'H', 'uint32': 'I', 'uint64': 'Q',
    'float16': 'e', 'float32': 'f', 'float64': 'd', 'tfloat32': 'f', 'bool': '?',
}
SIZE = {'int8': 1, 'int16': 2, 'int32': 4, 'int64': 8, 'uint8': 1, 'uint16': 2, 'uint32': 4,
        'uint64': 8, 'float16': 2, 'bfloat16': 2, 'float32': 4, 'tfloat32': 4, 'float64': 8,
        'bool': 1, 'complex64': 8, 'complex128': 16}


def encode(dtype, value):
    """bytes of `value` stored as `dtype` (ints wrap; bf16 = top half of f32, round-to-nearest-even)."""
    if dtype == 'bfloat16':
        u = struct.unpack('<I', struct.pack('<f', value))[0]
        if value != value:
            return struct.pack('<H', 0x7fc0)
        u = (u + 0x7fff + ((u >> 16) & 1)) >> 16
        return struct.pack('<H', u & 0xffff)
    f = FMT[dtype]
    if f in 'bhiqBHIQ':
        bits = SIZE[dtype] * 8
        value = int(value) & ((1 << bits) - 1)
        if f in 'bhiq' and value >= 1 << (bits - 1):
            value -= 1 << bits
    return struct.pack('<' + f, value)


def decode(dtype, raw):
    """(value, hex-of-bits) of raw bytes holding a `dtype`."""
    n = SIZE[dtype]
    raw = bytes(raw[:n])
    hexbits = '0x' + raw[::-1].hex()
    if dtype == 'bfloat16':
        v = struct.unpack('<f', raw + b'\0\0'[:0] if False else b'\0\0' + raw)[0]
    elif dtype in ('complex64', 'complex128'):
        f = 'ff' if dtype == 'complex64' else 'dd'
        re, im = struct.unpack('<' + f, raw)
        return [fmtf(re), fmtf(im)], hexbits
    else:
        v = struct.unpack('<' + FMT[dtype], raw)[0]
    if isinstance(v, float):
        v = fmtf(v)
    return v, hexbits


def fmtf(v):
    if v != v:
        return 'nan'
    if v in (float('inf'), float('-inf')):
        return str(v)
    return repr(v)


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def bits_f32(u):
    return struct.unpack('<f', struct.pack('<I', u))[0]


def byte_buffer(n):
    return torch.zeros(n, dtype=torch.uint8)


def emit(obj):
    print(json.dumps(obj), flush=True)


def err_text(e):
    """the exception's type and message, followed by its cause chain (the
    transpiler wraps the real error in 'Internal exception occurred ...')."""
    import re as _re
    parts = []
    while e is not None and len(parts) < 4:
        msg = _re.sub(r'\x1b\[[0-9;]*m', '', str(e).strip())
        if not msg and e.__traceback__ is not None:
            import traceback as _tb
            fr = _tb.extract_tb(e.__traceback__)[-1]
            msg = '(raised at {}:{} in {})'.format(fr.filename.split('site-packages/')[-1], fr.lineno, fr.name)
        parts.append(type(e).__name__ + ': ' + msg)
        e = e.__cause__ or e.__context__
    return ' <- caused by: '.join(parts)[:900]


def source_of(module):
    return open(os.path.join(module.module_dir, 'source.cc')).read()


_SRC_DIR = os.environ.get('HIDET_PROBE_SRC', '/tmp/hidet_probe_src')


def build_source(body, name='k', params='inp: ~u8, out: ~u8'):
    """Build a cpu_kernel whose body is `body` (Hidet script text, 8-space
    indented lines).  The script is written to a real .py file because
    hidet.script reads the function's source with inspect."""
    import hashlib
    import importlib.util
    os.makedirs(_SRC_DIR, exist_ok=True)
    text = (
        'import hidet\nimport hidet.ir.primitives.complex\n'
        'from hidet.lang import attrs, cast, printf\n'
        'from hidet.lang.types import u8\n'
        'from hidet.ir import dtypes as D\n'
        'def make():\n'
        '    with hidet.script_module() as sm:\n'
        '        @hidet.script\n'
        '        def {name}({params}):\n'
        '            attrs.func_kind = "cpu_kernel"\n'
    ).format(name=name, params=params)
    text += ''.join('            ' + ln + '\n' for ln in body)
    text += '    return sm.build()\n'
    h = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = os.path.join(_SRC_DIR, 'k_{}.py'.format(h))
    with open(path, 'w') as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location('k_' + h, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.make()


def run_bytes(module, inp_bytes, out_len):
    inp = torch.tensor(list(inp_bytes) or [0], dtype=torch.uint8)
    out = torch.zeros(out_len, dtype=torch.uint8)
    module(inp, out)
    return bytes(out.tolist())


def T(name):
    """the Hidet-script spelling of a dtype name, for generated kernels."""
    return 'D.' + ('boolean' if name == 'bool' else name)
