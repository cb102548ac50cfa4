# ---- bits <-> torch tensors ----
SIGNED = {8: torch.int8, 16: torch.int16, 32: torch.int32, 64: torch.int64}
VIEW = {"uint8": torch.uint8, "uint16": torch.uint16, "uint32": torch.uint32, "uint64": torch.uint64,
        "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
        "float64": torch.float64, "float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2}


def make(dtype, bits, dev):
    """A tensor holding exactly these bit patterns."""
    vals = [int(b, 16) for b in bits]
    if dtype == "bool":
        return torch.tensor([v != 0 for v in vals], dtype=torch.bool, device=dev)
    w = WIDTH[dtype]
    signed = [v - (1 << w) if v >> (w - 1) else v for v in vals]
    t = torch.tensor(signed, dtype=SIGNED[w], device=dev)
    return t.view(VIEW[dtype]) if dtype in VIEW else t


def bits_of(dtype, t):
    t = t.reshape(-1)
    if dtype == "bool":
        return [int(v) for v in t.to(torch.uint8).cpu().tolist()]
    w = WIDTH[dtype]
    return [v & ((1 << w) - 1) for v in t.view(SIGNED[w]).cpu().tolist()]
