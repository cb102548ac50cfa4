# ---- the comparison (the same in every system's script) ----
def report(got):
    """Compares `got` (buffer name -> bit patterns as ints) with EXPECTED;
    prints each differing buffer and the verdict."""
    wrong = 0
    for name, want in EXPECTED.items():
        exp = [int(b, 16) for b in want["bits"]]
        have = got[name]
        bad = [i for i in range(len(exp)) if have[i] != exp[i]]
        wrong += len(bad)
        print(f"{name} ({want['dtype']}): {len(bad)} of {len(exp)} elements differ")
        for i in bad[:16]:
            print(f"  [{i}] expected 0x{exp[i]:x} got 0x{have[i]:x}")
    print("BUG REPRODUCED" if wrong else "NOT REPRODUCED")


def scalar_of(dtype, bits):
    """The Python number whose bits of `dtype` are `bits` (hex): exact."""
    import struct
    v = int(bits, 16)
    if dtype == "bool":
        return bool(v)
    if dtype in ("float32", "float64", "float16"):
        fmt = {"float16": ("<H", "<e"), "float32": ("<I", "<f"), "float64": ("<Q", "<d")}[dtype]
        return struct.unpack(fmt[1], struct.pack(fmt[0], v))[0]
    w = WIDTH[dtype]
    return v - (1 << w) if dtype.startswith("int") and v >> (w - 1) else v


WIDTH = {"bool": 8, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "float16": 16,
         "bfloat16": 16, "int32": 32, "uint32": 32, "float32": 32, "int64": 64, "uint64": 64,
         "float64": 64, "float8e4nv": 8, "float8e5": 8}
