"""The ptxas int16 negation miscompile (repro_ptx.py) reached from Triton.

`(-h).to(tl.int32)` of an int16 tile: Triton's unary minus is `0 - h` in
int16, which wraps (0 - (-32768) = -32768), then the value is sign-extended.
For h = [-32768, 1, -1, 0] the only right int32 results are
[-32768, -1, 1, 0] = [0xffff8000, 0xffffffff, 0x00000001, 0x00000000].
torch computes the same thing on the same GPU as a control.

Run: python3 repro_triton.py   (prints BUG REPRODUCED / NOT REPRODUCED, exits 0)
"""
import torch
import triton
import triton.language as tl


@triton.jit
def neg_widen(h_ptr, out_ptr):
    offs = tl.arange(0, 4)
    h = tl.load(h_ptr + offs)
    tl.store(out_ptr + offs, (-h).to(tl.int32))


def main():
    print(f"triton {triton.__version__}, torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU {torch.cuda.get_device_name()}")
    hs = [-32768, 1, -1, 0]
    want = [(((-h) & 0xFFFF) ^ 0x8000) - 0x8000 for h in hs]  # wrap to int16, then sign-extend
    h = torch.tensor(hs, dtype=torch.int16, device="cuda")
    out = torch.empty(4, dtype=torch.int32, device="cuda")
    neg_widen[(1,)](h, out)
    got = out.cpu().tolist()
    ref = (-h).to(torch.int32).cpu().tolist()
    fmt = lambda xs: " ".join(f"0x{x & 0xFFFFFFFF:08x}" for x in xs)  # noqa: E731
    print("h        :", hs)
    print("expected :", fmt(want))
    print("torch    :", fmt(ref))
    print("triton   :", fmt(got))
    print("BUG REPRODUCED: the int16 negation was not wrapped before widening" if got != want else
          "NOT REPRODUCED")


if __name__ == "__main__":
    main()
