# Rule (DESIGN.md): tl.program_id(0) is a runtime int32 0-d tensor, so // and % on a
# value derived from it follow C truncation, not Python floor.
#
#   grid = (4,), pid = 0..3, v = pid - 3 = [-3, -2, -1, 0]
#   q[pid] = v // 2 = [trunc(-1.5)=-1, -1, trunc(-0.5)=0, 0]      = [-1, -1, 0, 0]
#   r[pid] = v % 2  = [-3-2*(-1)=-1, -2-2*(-1)=0, -1-0=-1, 0]      = [-1, 0, -1, 0]
#   (Python floor would give q = [-2, -1, -1, 0], r = [1, 0, 1, 0])
import triton
import triton.language as tl


@triton.jit
def intdiv_program_id_kernel(q_ptr, r_ptr):
    pid = tl.program_id(0)
    v = pid - 3
    tl.store(q_ptr + pid, v // 2)
    tl.store(r_ptr + pid, v % 2)
