# Probe: scalar_div_semantics (run: python3 tools/triton_run.py tools/probes/scalar_div_semantics.py --launch tools/probes/scalar_div_semantics.json --json)
# // and % on runtime int scalars (kernel arguments, program_id) versus constexprs
# and literals: the docs say C truncation for the former, Python floor for all-scalar.
# Each result's dtype is printed at compile time as `KSEM <label> <value>` (tl.static_print).
import triton
import triton.language as tl


@triton.jit
def probe(n, d, n_div_d_ptr, n_mod_d_ptr, c_div_d_const_ptr, c_mod_d_const_ptr, n_div_D_ptr, n_mod_D_ptr, C_div_d_ptr, C_mod_d_ptr, lit_div_ptr, lit_mod_ptr, pid_div_ptr, pid_mod_ptr, F_floordiv_2_ptr, F_mod_2_ptr, n_truediv_d_ptr, C_truediv_D_ptr, C: tl.constexpr, D: tl.constexpr, F: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    n_div_d = n // d
    tl.static_print("KSEM", "n_div_d", n_div_d)
    tl.store(n_div_d_ptr, n_div_d)
    n_mod_d = n % d
    tl.static_print("KSEM", "n_mod_d", n_mod_d)
    tl.store(n_mod_d_ptr, n_mod_d)
    c_div_d_const = C // D
    tl.static_print("KSEM", "c_div_d_const", c_div_d_const)
    tl.store(c_div_d_const_ptr, c_div_d_const)
    c_mod_d_const = C % D
    tl.static_print("KSEM", "c_mod_d_const", c_mod_d_const)
    tl.store(c_mod_d_const_ptr, c_mod_d_const)
    n_div_D = n // D
    tl.static_print("KSEM", "n_div_D", n_div_D)
    tl.store(n_div_D_ptr, n_div_D)
    n_mod_D = n % D
    tl.static_print("KSEM", "n_mod_D", n_mod_D)
    tl.store(n_mod_D_ptr, n_mod_D)
    C_div_d = C // d
    tl.static_print("KSEM", "C_div_d", C_div_d)
    tl.store(C_div_d_ptr, C_div_d)
    C_mod_d = C % d
    tl.static_print("KSEM", "C_mod_d", C_mod_d)
    tl.store(C_mod_d_ptr, C_mod_d)
    lit_div = (-7) // 2
    tl.static_print("KSEM", "lit_div", lit_div)
    tl.store(lit_div_ptr, lit_div)
    lit_mod = (-7) % 2
    tl.static_print("KSEM", "lit_mod", lit_mod)
    tl.store(lit_mod_ptr, lit_mod)
    pid_div = (tl.program_id(0) - 7) // 2
    tl.static_print("KSEM", "pid_div", pid_div)
    tl.store(pid_div_ptr, pid_div)
    pid_mod = (tl.program_id(0) - 7) % 2
    tl.static_print("KSEM", "pid_mod", pid_mod)
    tl.store(pid_mod_ptr, pid_mod)
    F_floordiv_2 = F // 2
    tl.static_print("KSEM", "F_floordiv_2", F_floordiv_2)
    tl.store(F_floordiv_2_ptr, F_floordiv_2)
    F_mod_2 = F % 2
    tl.static_print("KSEM", "F_mod_2", F_mod_2)
    tl.store(F_mod_2_ptr, F_mod_2)
    n_truediv_d = n / d
    tl.static_print("KSEM", "n_truediv_d", n_truediv_d)
    tl.store(n_truediv_d_ptr, n_truediv_d)
    C_truediv_D = C / D
    tl.static_print("KSEM", "C_truediv_D", C_truediv_D)
    tl.store(C_truediv_D_ptr, C_truediv_D)
