"""How Hidet 0.6.1 transpiles a comparison chain (`a < b < c`), read from
the C source its `cpu_kernel` build writes (source.cc in the module's cache
folder): prints each generated line that holds a chain's `&&`."""
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import _common  # noqa: E402,F401  (Hidet set-up: no fast-math, own cache)
import hidet  # noqa: E402
from hidet.lang import attrs, cast, int32, void_p  # noqa: E402

with hidet.script_module() as m:

    @hidet.script
    def chain(inp: void_p, out: void_p):
        attrs.func_kind = 'cpu_kernel'
        a = cast(inp, ~int32)[0]
        b = cast(inp, ~int32)[1]
        c = cast(inp, ~int32)[2]
        r = a < b < c
        cast(out, ~int32)[0] = int32(r)
        if a < b + 1 < c:
            cast(out, ~int32)[1] = 1

m.build()
cache = hidet.option.get_cache_dir()
for path in glob.glob(os.path.join(cache, 'ir_modules', '*', 'source.cc')):
    text = open(path).read()
    if 'hidet_chain' not in text:
        continue
    for line in text.splitlines():
        if '&&' in line:
            print(json.dumps({'generated': line.strip()}))
