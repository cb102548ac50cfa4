// ---- ksem runtime: exact element semantics on raw bit patterns ----------
// Mirrors ksem-interp's ops.rs and float.rs bit for bit. Every value is
// passed as the bits of its dtype in an unsigned 64-bit integer (bool: 0/1,
// pointers: buffer << 48 | 48-bit element offset), and every result is
// masked to its dtype's width. Signed arithmetic goes through unsigned types,
// UB cases (division by zero, MIN / -1, bad shifts, float->int out of range)
// yield 0, floats are rounded once by ksem_round_exact, and NaN results have
// the bits the interpreter gives them (float.rs: nan_bits, qnan_bits,
// f64_result, convert_nan -- the GPU's NaNs as measured on sm_90).
// Planted bugs (tests only, see planted.rs): each is a wrong rule the fuzzer
// must find. All are off unless the compile defines them to 1.
#ifndef KSEM_PLANT_FLOOR_DIV
#define KSEM_PLANT_FLOOR_DIV 0
#endif
#ifndef KSEM_PLANT_REDUCE_SEQ
#define KSEM_PLANT_REDUCE_SEQ 0
#endif
#ifndef KSEM_PLANT_F16_TRUNC
#define KSEM_PLANT_F16_TRUNC 0
#endif
#ifndef KSEM_PLANT_SHR_LOGICAL
#define KSEM_PLANT_SHR_LOGICAL 0
#endif
#ifndef KSEM_THREADS
#define KSEM_THREADS 128
#endif
#ifndef KSEM_MAX_ITERS
#define KSEM_MAX_ITERS 16777216ull
#endif

typedef unsigned char ku8;
typedef unsigned short ku16;
typedef unsigned int ku32;
typedef unsigned long long ku64;
typedef long long ki64;

// On the host, KSEM_HOST_LINKED (gpu/src/host_runtime.rs) gives the runtime's
// functions external linkage: their instances then come compiled once from
// the host runtime library, and a kernel's build only declares them.
#if defined(KSEM_HOST) && defined(KSEM_HOST_LINKED)
#define KSEM_FN __device__ __forceinline__
#else
#define KSEM_FN static __device__ __forceinline__
#endif
#define KSEM_CFN static __host__ __device__ constexpr

// Slots per thread of a tile of n elements; element i lives in thread
// i % KSEM_THREADS at slot i / KSEM_THREADS.
#define KSEM_SLOTS(n) ((((n) + KSEM_THREADS - 1) / KSEM_THREADS) > 0 ? (((n) + KSEM_THREADS - 1) / KSEM_THREADS) : 1)
#if KSEM_THREADS == 1
#define KSEM_TID 0
#else
#define KSEM_TID ((int)threadIdx.x)
#endif
#define KSEM_I (j * KSEM_THREADS + KSEM_TID)
// Loop over this thread's valid slots j of a tile of n elements (element KSEM_I).
#if KSEM_THREADS == 1
#define KSEM_FOR(n) for (int j = 0; j < (n); ++j)
#else
#define KSEM_FOR(n) for (int j = 0; j < KSEM_SLOTS(n); ++j) if (KSEM_I < (n))
#endif
// Loop over work items w = 0..n-1 spread over the block's threads.
#define KSEM_WORK(n) for (int w = KSEM_TID; w < (n); w += KSEM_THREADS)

// dtype ids (KB, KI8, ... KF64) come from the generated header (gpu/src/ids.rs)

KSEM_CFN bool kfp8(int d) {
  return d == KF8E4 || d == KF8E5 || d == KF8E4B15 || d == KF8E4B8 || d == KF8E5B16;
}
KSEM_CFN int kbits(int d) {
  return d == KB ? 1
       : (d == KI8 || d == KU8 || kfp8(d)) ? 8
       : (d == KI16 || d == KU16 || d == KF16 || d == KBF16) ? 16
       : (d == KI32 || d == KU32 || d == KF32) ? 32 : 64;
}
KSEM_CFN bool ksigned(int d) { return d == KI8 || d == KI16 || d == KI32 || d == KI64; }
KSEM_CFN bool kfloat(int d) { return d >= KF8E4; }
KSEM_CFN ku64 kmask(int d) { return kbits(d) == 64 ? ~0ull : ((1ull << kbits(d)) - 1ull); }
// A float format's exponent and mantissa widths, bias, and where its
// infinities and NaNs are (KSEM_SPECIALS_*: IEEE; MAX_IS_NAN, e4m3fn's
// S.1111.111; NEG_ZERO_IS_NAN, "fnuz"; ALL_FINITE): generated from dtype.rs's
// float_format (gpu/src/ids.rs).
KSEM_CFN int kexpbits(int d) { return KSEM_EXPBITS(d); }
KSEM_CFN int kmanbits(int d) { return KSEM_MANBITS(d); }
KSEM_CFN int kbias(int d) { return KSEM_BIAS(d); }
KSEM_CFN int kspecials(int d) { return KSEM_SPECIALS(d); }
KSEM_CFN bool khasinf(int d) { return kspecials(d) == KSEM_SPECIALS_IEEE; }
KSEM_CFN ku64 ksignbit(int d) { return 1ull << (kexpbits(d) + kmanbits(d)); }
// The largest finite pattern (float.rs max_finite_bits).
KSEM_CFN ku64 kmaxfin(int d) {
  const ku64 ones = (1ull << kexpbits(d)) - 1ull, mm = (1ull << kmanbits(d)) - 1ull;
  return kspecials(d) == KSEM_SPECIALS_IEEE ? (((ones - 1ull) << kmanbits(d)) | mm)
       : kspecials(d) == KSEM_SPECIALS_MAX_IS_NAN ? ((ones << kmanbits(d)) | (mm - 1ull)) : ((ones << kmanbits(d)) | mm);
}
// The NaN arithmetic produces (float.rs nan_bits): all exponent and mantissa
// bits set up to float32; float64's default NaN 0xfff8000000000000; a
// "fnuz" format's -0 pattern; float8e4b15 (no NaN) -max.
KSEM_CFN ku64 knanbits(int d) {
  return d == KF64 ? 0xfff8000000000000ull
       : kspecials(d) == KSEM_SPECIALS_NEG_ZERO_IS_NAN ? ksignbit(d)
       : kspecials(d) == KSEM_SPECIALS_ALL_FINITE ? (ksignbit(d) | kmaxfin(d))
                           : ((((1ull << kexpbits(d)) - 1ull) << kmanbits(d)) | ((1ull << kmanbits(d)) - 1ull));
}
// Positive infinity, or what stands for it (float.rs inf_bits).
KSEM_CFN ku64 kinfbits(int d) {
  return kspecials(d) == KSEM_SPECIALS_IEEE ? (((1ull << kexpbits(d)) - 1ull) << kmanbits(d))
       : kspecials(d) == KSEM_SPECIALS_ALL_FINITE ? kmaxfin(d) : knanbits(d);
}
// The standard quiet NaN (float.rs qnan_bits): only the top mantissa bit set.
KSEM_CFN ku64 kqnanbits(int d) {
  return khasinf(d) ? ((((1ull << kexpbits(d)) - 1ull) << kmanbits(d)) | (1ull << (kmanbits(d) - 1)))
                    : knanbits(d);
}

// ---- integers ---------------------------------------------------------------

// u64 -> i64 without implementation-defined conversion.
KSEM_FN ki64 ksem_u2i(ku64 x) { return (x >> 63) ? -(ki64)(~x) - 1 : (ki64)x; }
// Sign-extends the low `bits` bits of a.
KSEM_FN ki64 ksem_sext(ku64 a, int bits) {
  if (bits >= 64) return ksem_u2i(a);
  ku64 m = a & ((1ull << bits) - 1ull);
  ku64 s = 1ull << (bits - 1);
  return ksem_u2i((m ^ s) - s);
}
// Signed value of a signed dtype's bits.
template <int D> KSEM_FN ki64 ksem_sval(ku64 a) { return ksem_sext(a, kbits(D)); }

template <int D> KSEM_FN ku64 ksem_iadd(ku64 a, ku64 b) { return (a + b) & kmask(D); }
template <int D> KSEM_FN ku64 ksem_isub(ku64 a, ku64 b) { return (a - b) & kmask(D); }
template <int D> KSEM_FN ku64 ksem_imul(ku64 a, ku64 b) { return (a * b) & kmask(D); }

// Integer division / remainder; floor selects Python rounding. Division by
// zero gives 0 (also the defined result of DivZero::Zero); MIN / -1 wraps to
// MIN and MIN % -1 is 0.
template <int D> KSEM_FN ku64 ksem_idivrem(ku64 a, ku64 b, bool floor, bool rem) {
  a &= kmask(D);
  b &= kmask(D);
  if (b == 0) return 0;
  if constexpr (ksigned(D)) {
    ki64 x = ksem_sval<D>(a), y = ksem_sval<D>(b);
    ki64 minv = ksem_sext(1ull << (kbits(D) - 1), kbits(D));
    (void)minv;
    if (y == -1) {
      // x / -1 = -x (MIN wraps to MIN), remainder 0
      return rem ? 0 : ((0ull - (ku64)x) & kmask(D));
    }
    ki64 q = x / y;
    ki64 r = x - q * y;
    if ((floor || KSEM_PLANT_FLOOR_DIV) && r != 0 && ((r < 0) != (y < 0))) {
      q -= 1;
      r += y;
    }
    return ((ku64)(rem ? r : q)) & kmask(D);
  } else {
    return rem ? (a % b) : (a / b);
  }
}

// Shift amounts: range 0 (UB outside [0, width): gives 0), 1 (modulo the
// width), 2 (saturating: >= width shifts everything out; negative gives 0).
// Returns the amount to shift by, or -1 where the result is 0 / the sign.
template <int D> KSEM_FN int ksem_shift_amount(ku64 b, int range) {
  if (range == 1) return (int)(b & (ku64)(kbits(D) - 1));
  ki64 s = ksigned(D) ? ksem_sval<D>(b) : (ki64)(b & kmask(D) & 0x7fffffffffffffffull);
  bool big = (!ksigned(D) && (b & kmask(D)) >= (ku64)kbits(D)) || s >= kbits(D);
  if (s < 0) return -1;
  if (big) return range == 2 ? kbits(D) : -1;
  return (int)s;
}
template <int D> KSEM_FN ku64 ksem_shl(ku64 a, ku64 b, int range) {
  int s = ksem_shift_amount<D>(b, range);
  if (s < 0 || s >= 64) return 0;
  return (a << s) & kmask(D);
}
template <int D> KSEM_FN ku64 ksem_shr(ku64 a, ku64 b, bool arith, int range) {
  int s = ksem_shift_amount<D>(b, range);
  if (s < 0) return 0;
  if (s >= kbits(D)) s = kbits(D) - 1 + (arith ? 0 : 1);
  if (s >= 64) return 0;
  // arith: the top bit of the width fills, also for an unsigned D (Triton)
  if (arith && !KSEM_PLANT_SHR_LOGICAL) {
    ki64 x = ksem_sval<D>(a);
    ki64 r = x >= 0 ? (x >> s) : ~((~x) >> s);
    return ((ku64)r) & kmask(D);
  }
  return (a & kmask(D)) >> s;
}

// Integer comparison: op 0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge.
template <int D> KSEM_FN bool ksem_icmp(int op, ku64 a, ku64 b) {
  a &= kmask(D);
  b &= kmask(D);
  bool lt, eq = a == b;
  if constexpr (ksigned(D)) {
    lt = ksem_sval<D>(a) < ksem_sval<D>(b);
  } else {
    lt = a < b;
  }
  switch (op) {
    case 0: return eq;
    case 1: return !eq;
    case 2: return lt;
    case 3: return lt || eq;
    case 4: return !lt && !eq;
    default: return !lt;
  }
}
template <int D> KSEM_FN ku64 ksem_imin(ku64 a, ku64 b) { return ksem_icmp<D>(3, a, b) ? a : b; }
template <int D> KSEM_FN ku64 ksem_imax(ku64 a, ku64 b) { return ksem_icmp<D>(5, a, b) ? a : b; }
template <int D> KSEM_FN ku64 ksem_inot(ku64 a) { return ~a & kmask(D); }
template <int D> KSEM_FN ku64 ksem_iabs(ku64 a) {
  if constexpr (ksigned(D)) {
    return ksem_sval<D>(a) < 0 ? ((0ull - a) & kmask(D)) : (a & kmask(D));
  } else {
    return a & kmask(D);
  }
}

// ---- float bits <-> values ----------------------------------------------------

KSEM_FN float ksem_f32(ku64 a) { return __uint_as_float((ku32)a); }
KSEM_FN double ksem_f64(ku64 a) { return __longlong_as_double(ksem_u2i(a)); }
KSEM_FN ku64 ksem_f64bits(double v) { return (ku64)__double_as_longlong(v); }
KSEM_FN ku64 ksem_canon32(float v) { return v != v ? 0x7fffffffull : (ku64)__float_as_uint(v); }
// A float64 arithmetic result (float.rs f64_result): a NaN result takes the
// first NaN operand, quieted, else the default NaN.
KSEM_FN ku64 ksem_f64_result(double r, ku64 a, ku64 b = 0, ku64 c = 0, int nops = 1) {
  if (r == r) return ksem_f64bits(r);
  const ku64 ops[3] = {a, b, c};
  for (int i = 0; i < nops; ++i)
    if ((ops[i] & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) return ops[i] | (1ull << 51);
  return 0xfff8000000000000ull;
}
KSEM_FN double ksem_dnan() { return ksem_f64(0x7fffffffffffffffull); }
KSEM_FN double ksem_dinf(bool neg) { return ksem_f64(neg ? 0xfff0000000000000ull : 0x7ff0000000000000ull); }

template <int D> KSEM_FN bool ksem_isnan(ku64 a) {
  const ku64 ones = (1ull << kexpbits(D)) - 1ull, mm = (1ull << kmanbits(D)) - 1ull;
  ku64 e = (a >> kmanbits(D)) & ones, m = a & mm;
  if constexpr (kspecials(D) == KSEM_SPECIALS_IEEE) return e == ones && m != 0;
  else if constexpr (kspecials(D) == KSEM_SPECIALS_MAX_IS_NAN) return e == ones && m == mm;
  else if constexpr (kspecials(D) == KSEM_SPECIALS_NEG_ZERO_IS_NAN) return (a & kmask(D)) == ksignbit(D);
  else return false;
}

// Exact value of a float dtype's bits as a double.
template <int D> KSEM_FN double ksem_dec(ku64 a) {
  if constexpr (D == KF64) {
    return ksem_f64(a);
  } else if constexpr (D == KF32) {
    return (double)ksem_f32(a);
  } else if constexpr (D == KBF16) {
    // bfloat16 is the upper half of a float32
    if (ksem_isnan<D>(a)) return ksem_dnan();
    return (double)ksem_f32(a << 16);
#ifndef KSEM_HOST
  } else if constexpr (D == KF16) {
    if (ksem_isnan<D>(a)) return ksem_dnan();
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"((unsigned short)a));
    return (double)f;
#endif
  } else {
    const int eb = kexpbits(D), mb = kmanbits(D);
    const ku64 ones = (1ull << eb) - 1ull;
    const int bias = kbias(D);
    bool neg = (a >> (eb + mb)) & 1ull;
    ku64 e = (a >> mb) & ones, m = a & ((1ull << mb) - 1ull);
    if (ksem_isnan<D>(a)) return ksem_dnan();
    if (khasinf(D) && e == ones) return ksem_dinf(neg);
    ku64 sign = neg ? (1ull << 63) : 0ull;
    if (e == 0) {
      if (m == 0) return ksem_f64(sign);
      int k = 63 - __clzll((long long)m);  // msb position of m
      ku64 dexp = (ku64)(k + 1 - bias - mb + 1023);
      ku64 frac = (m << (52 - k)) & ((1ull << 52) - 1ull);
      return ksem_f64(sign | (dexp << 52) | frac);
    }
    ku64 dexp = (ku64)((int)e - bias + 1023);
    return ksem_f64(sign | (dexp << 52) | (m << (52 - mb)));
  }
}

// float16 bits to float8e4b15 (float.rs e4b15_from_f16): the magnitude
// clamped to 1.875, rounded half away from zero; NaN -> 0xff.
KSEM_FN ku64 ksem_e4b15_from_f16(ku64 h) {
  const ku64 mag = h & 0x7fffull;
  if (mag > 0x7c00ull) return 0xffull;
  return ((h >> 8) & 0x80ull) | (((mag < 0x3f80ull ? mag : 0x3f80ull) + 0x40ull) >> 7);
}

// Rounds (-1)^neg * m * 2^e once into dtype d, by its fields.
KSEM_FN ku64 ksem_round_fields(int d, bool neg, ku64 m, int e, bool rtz, bool sat) {
  const int eb = kexpbits(d), mb = kmanbits(d);
  const bool hasinf = khasinf(d);
  if (KSEM_PLANT_F16_TRUNC && eb == 5 && mb == 10) rtz = true;
  const ku64 sign = neg ? (1ull << (eb + mb)) : 0ull;
  // a zero of a format without -0 is +0
  const ku64 zero = kspecials(d) == KSEM_SPECIALS_NEG_ZERO_IS_NAN ? 0ull : sign;
  if (m == 0) return zero;
  const int bias = kbias(d);
  const int emin = 1 - bias;
  const int p = 64 - __clzll((long long)m);
  const int x = e + p - 1;
  const int qexp = x < emin ? emin - mb : x - mb;
  const int shift = qexp - e;
  ku64 q;
  if (shift <= 0) {
    q = (-shift) >= 64 ? 0ull : (m << (-shift));
  } else if (shift > 64) {
    q = 0;
  } else {
    ku64 kept = shift == 64 ? 0ull : (m >> shift);
    ku64 rem = shift == 64 ? m : (m & ((1ull << shift) - 1ull));
    ku64 half = 1ull << (shift - 1);
    bool up = !rtz && (rem > half || (rem == half && (kept & 1ull)));
    q = kept + (up ? 1ull : 0ull);
  }
  long long biased = x < emin ? 0 : (long long)x + bias;
  if (q >> (mb + 1)) {
    q >>= 1;
    biased += 1;
  } else if (biased == 0 && (q >> mb)) {
    biased = 1;
  }
  const ku64 ones = (1ull << eb) - 1ull;
  const ku64 mmask = (1ull << mb) - 1ull;
  const ku64 frac = q & mmask;
  const ku64 bits = ((ku64)biased << mb) | frac;
  const ku64 maxfin = kmaxfin(d);
  const ku64 infb = kinfbits(d);
  bool over = hasinf ? ((ku64)biased >= ones) : ((ku64)biased > ones || bits > maxfin);
  if (over) return sign | ((sat || rtz) ? maxfin : infb);
  if (bits == 0) return zero;
  return sign | bits;
}
// Rounds (-1)^neg * m * 2^e once into dtype d (float.rs round_exact;
// float8e4b15 through float16, as Triton converts it).
KSEM_FN ku64 ksem_round_exact(int d, bool neg, ku64 m, int e, bool rtz, bool sat) {
  if (d == KF8E4B15) return ksem_e4b15_from_f16(ksem_round_fields(KF16, neg, m, e, rtz, false));
  return ksem_round_fields(d, neg, m, e, rtz, sat);
}

// Rounds a double into float dtype D (float.rs from_f64); NaN -> the standard quiet NaN.
template <int D> KSEM_FN ku64 ksem_from_f64(double v, bool rtz, bool sat) {
  if constexpr (D == KF64) {
    return v != v ? kqnanbits(D) : ksem_f64bits(v);
  } else {
    const ku64 b = ksem_f64bits(v);
    const bool isnan = (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    // the hardware's round-to-nearest-even conversions (one rounding, as round_exact)
    if (!rtz && !sat && !isnan) {
      if constexpr (D == KF32) return (ku64)__float_as_uint(__double2float_rn(v));
#ifndef KSEM_HOST
      if constexpr (D == KF16) {
        unsigned short h;
        asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(v));
        return (ku64)h;
      }
#if __CUDA_ARCH__ >= 900
      if constexpr (D == KBF16) {
        unsigned short h;
        asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(h) : "d"(v));
        return (ku64)h;
      }
#endif
#endif
    }
    if (isnan) return kqnanbits(D);
    const bool neg = b >> 63;
    const ku64 sign = neg ? ksignbit(D) : 0ull;
    if ((b & 0x7fffffffffffffffull) == 0x7ff0000000000000ull) {
      return sign | (sat ? kmaxfin(D) : kinfbits(D));
    }
    const int ex = (int)((b >> 52) & 0x7ffull);
    const ku64 man = b & ((1ull << 52) - 1ull);
    ku64 m;
    int e;
    if (ex == 0) {
      m = man;
      e = -1074;
    } else {
      m = man | (1ull << 52);
      e = ex - 1075;
    }
    return ksem_round_exact(D, neg, m, e, rtz, sat);
  }
}
// Rounds an arithmetic result (narrower than float64) into D (ops.rs fround): NaN -> nan_bits.
template <int D> KSEM_FN ku64 ksem_fround(double v) {
  return v != v ? knanbits(D) : ksem_from_f64<D>(v, false, false);
}

// ---- float arithmetic -------------------------------------------------------

// op: 0 add, 1 sub, 2 mul, 3 div, 4 fmod
template <int D> KSEM_FN ku64 ksem_farith(int op, ku64 a, ku64 b) {
  if constexpr (D == KF32) {
    float x = ksem_f32(a), y = ksem_f32(b);
    switch (op) {
      case 0: return ksem_canon32(__fadd_rn(x, y));
      case 1: return ksem_canon32(__fsub_rn(x, y));
      case 2: return ksem_canon32(__fmul_rn(x, y));
      case 3: return ksem_canon32(__fdiv_rn(x, y));
      default: return ksem_fround<D>(fmod((double)x, (double)y));
    }
  } else if constexpr (D == KF64) {
    double x = ksem_f64(a), y = ksem_f64(b), r;
    switch (op) {
      case 0: r = __dadd_rn(x, y); break;
      case 1: r = __dsub_rn(x, y); break;
      case 2: r = __dmul_rn(x, y); break;
      case 3: r = __ddiv_rn(x, y); break;
      default: r = fmod(x, y); break;
    }
    return ksem_f64_result(r, a, b, 0, 2);
  } else {
    double x = ksem_dec<D>(a), y = ksem_dec<D>(b), r;
    switch (op) {
      case 0: r = __dadd_rn(x, y); break;
      case 1: r = __dsub_rn(x, y); break;
      case 2: r = __dmul_rn(x, y); break;
      case 3: r = __ddiv_rn(x, y); break;
      default: r = fmod(x, y); break;
    }
    return ksem_fround<D>(r);
  }
}
template <int D> KSEM_FN ku64 ksem_fadd(ku64 a, ku64 b) { return ksem_farith<D>(0, a, b); }
template <int D> KSEM_FN ku64 ksem_fsub(ku64 a, ku64 b) { return ksem_farith<D>(1, a, b); }
template <int D> KSEM_FN ku64 ksem_fmul(ku64 a, ku64 b) { return ksem_farith<D>(2, a, b); }
template <int D> KSEM_FN ku64 ksem_fdiv(ku64 a, ku64 b) { return ksem_farith<D>(3, a, b); }
template <int D> KSEM_FN ku64 ksem_frem(ku64 a, ku64 b) { return ksem_farith<D>(4, a, b); }
// float32 bits rounded to tf32 (10 mantissa bits, nearest even; NaN and
// infinity kept), as float.rs round_tf32: a matrix product's tf32 operands.
KSEM_FN ku64 ksem_tf32(ku64 a) {
  ku32 b = (ku32)a;
  if ((b & 0x7f800000u) == 0x7f800000u) return b;
  const ku32 low = b & 0x1fffu;
  ku32 r = b & ~0x1fffu;
  if (low > 0x1000u || (low == 0x1000u && (r & 0x2000u) != 0)) r += 0x2000u;
  return r;
}

template <int D> KSEM_FN bool ksem_fcmp(int op, ku64 a, ku64 b) {
  double x = ksem_dec<D>(a), y = ksem_dec<D>(b);
  switch (op) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    default: return x >= y;
  }
}

// Float min/max (ops.rs fminmax): NaN per propagate; -0 orders below +0.
template <int D> KSEM_FN ku64 ksem_fminmax(ku64 a, ku64 b, bool max, bool propagate) {
  double x = ksem_dec<D>(a), y = ksem_dec<D>(b);
  bool xn = x != x, yn = y != y;
  if (xn && yn) return knanbits(D);
  if ((xn || yn) && propagate) return knanbits(D);
  if (xn) return b;
  if (yn) return a;
  bool a_first;
  if (x == y) {
    bool a_neg = (ksem_f64bits(x) >> 63) != 0;
    a_first = max ? !a_neg : a_neg;
  } else {
    a_first = max ? (x > y) : (x < y);
  }
  return a_first ? a : b;
}

// Round-to-odd sum (ops.rs add_round_odd).
KSEM_FN double ksem_add_round_odd(double a, double b) {
  double s = __dadd_rn(a, b);
  ku64 sb = ksem_f64bits(s);
  if ((sb & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) return s;
  double bb = __dsub_rn(s, a);
  double err = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
  if (err == 0.0 || (sb & 1ull)) return s;
  bool toward_pos = err > 0.0;
  if (s == 0.0) return ksem_f64(toward_pos ? 1ull : 0x8000000000000001ull);
  bool up = toward_pos == (s > 0.0);
  return ksem_f64(up ? sb + 1ull : sb - 1ull);
}

// a*b + c rounded once (ops.rs fma).
template <int D> KSEM_FN ku64 ksem_fma(ku64 a, ku64 b, ku64 c) {
  if constexpr (D == KF64) {
    return ksem_f64_result(fma(ksem_f64(a), ksem_f64(b), ksem_f64(c)), a, b, c, 3);
  } else {
    double x = ksem_dec<D>(a), y = ksem_dec<D>(b), z = ksem_dec<D>(c);
    double p = __dmul_rn(x, y);
    return ksem_fround<D>(ksem_add_round_odd(p, z));
  }
}

// ---- IEEE arithmetic with a rounding mode (ir::BinOp::Ieee, UnOp::Ieee) ---
// op: 0 add, 1 sub, 2 mul, 3 div (IeeeBinary's order); mode: 0 rn, 1 rz,
// 2 ru, 3 rd (lower.rs rounding_id). float32 and float64 only.
#define KSEM_IEEE_SWITCH4(T, P, x, y)                                                   \
  switch (op * 4 + mode) {                                                            \
    case 0: return P##add_rn(x, y); case 1: return P##add_rz(x, y);                    \
    case 2: return P##add_ru(x, y); case 3: return P##add_rd(x, y);                    \
    case 4: return P##sub_rn(x, y); case 5: return P##sub_rz(x, y);                    \
    case 6: return P##sub_ru(x, y); case 7: return P##sub_rd(x, y);                    \
    case 8: return P##mul_rn(x, y); case 9: return P##mul_rz(x, y);                    \
    case 10: return P##mul_ru(x, y); case 11: return P##mul_rd(x, y);                  \
    case 12: return P##div_rn(x, y); case 13: return P##div_rz(x, y);                  \
    case 14: return P##div_ru(x, y); default: return P##div_rd(x, y);                  \
  }
KSEM_FN float ksem_ieee2_f32(int op, int mode, float x, float y) { KSEM_IEEE_SWITCH4(float, __f, x, y) }
KSEM_FN double ksem_ieee2_f64(int op, int mode, double x, double y) { KSEM_IEEE_SWITCH4(double, __d, x, y) }
template <int D> KSEM_FN ku64 ksem_ieee2(int op, int mode, ku64 a, ku64 b) {
  if constexpr (D == KF32) {
    return ksem_canon32(ksem_ieee2_f32(op, mode, ksem_f32(a), ksem_f32(b)));
  } else {
    return ksem_f64_result(ksem_ieee2_f64(op, mode, ksem_f64(a), ksem_f64(b)), a, b, 0, 2);
  }
}
// op: 0 sqrt, 1 rcp, 2 rsqrt (float32 and rn only: __frsqrt_rn, as
// TileLang's T.ieee_frsqrt; ieee.rs rsqrt)
template <int D> KSEM_FN ku64 ksem_ieee1(int op, int mode, ku64 a) {
  if constexpr (D == KF32) {
    float x = ksem_f32(a), r;
    switch (op * 4 + mode) {
      case 0: r = __fsqrt_rn(x); break; case 1: r = __fsqrt_rz(x); break;
      case 2: r = __fsqrt_ru(x); break; case 3: r = __fsqrt_rd(x); break;
      case 4: r = __frcp_rn(x); break; case 5: r = __frcp_rz(x); break;
      case 6: r = __frcp_ru(x); break; case 7: r = __frcp_rd(x); break;
      default: r = __frsqrt_rn(x); break;
    }
    return ksem_canon32(r);
  } else {
    double x = ksem_f64(a), r;
    switch (op * 4 + mode) {
      case 0: r = __dsqrt_rn(x); break; case 1: r = __dsqrt_rz(x); break;
      case 2: r = __dsqrt_ru(x); break; case 3: r = __dsqrt_rd(x); break;
      case 4: r = __drcp_rn(x); break; case 5: r = __drcp_rz(x); break;
      case 6: r = __drcp_ru(x); break; default: r = __drcp_rd(x); break;
    }
    return ksem_f64_result(r, a);
  }
}

// a*b + c rounded once in mode 1 rz, 2 ru, 3 rd (ieee.rs fma; mode 0 is
// ksem_fma): CUDA's __fmaf_r? / __fma_r?. float32 and float64 only.
template <int D> KSEM_FN ku64 ksem_ieee_fma(int mode, ku64 a, ku64 b, ku64 c) {
  if constexpr (D == KF32) {
    float x = ksem_f32(a), y = ksem_f32(b), z = ksem_f32(c), r;
    switch (mode) {
      case 1: r = __fmaf_rz(x, y, z); break;
      case 2: r = __fmaf_ru(x, y, z); break;
      case 3: r = __fmaf_rd(x, y, z); break;
      default: r = __fmaf_rn(x, y, z); break;
    }
    return ksem_canon32(r);
  } else {
    double x = ksem_f64(a), y = ksem_f64(b), z = ksem_f64(c), r;
    switch (mode) {
      case 1: r = __fma_rz(x, y, z); break;
      case 2: r = __fma_ru(x, y, z); break;
      case 3: r = __fma_rd(x, y, z); break;
      default: r = __fma_rn(x, y, z); break;
    }
    return ksem_f64_result(r, a, b, c, 3);
  }
}

// Math functions, f one of the KSEM_MATH_* ids (gpu/src/ids.rs).
template <int D> KSEM_FN ku64 ksem_math(int f, ku64 a) {
  if (f == KSEM_MATH_ABS) return a & ~ksignbit(D);
  if (f == KSEM_MATH_SQRT || f == KSEM_MATH_SQRT_RN || f == KSEM_MATH_FLOOR || f == KSEM_MATH_CEIL) {
    // exact: computed in double and rounded once (as the interpreter does)
    double x = ksem_dec<D>(a);
    double r = f == KSEM_MATH_FLOOR ? floor(x) : f == KSEM_MATH_CEIL ? ceil(x) : __dsqrt_rn(x);
    if constexpr (D == KF64) return ksem_f64_result(r, a);
    else return ksem_fround<D>(r);
  }
  // Approximate functions are evaluated in double and rounded once, as the
  // interpreter does (ops.rs math): for float32 and narrower results this is
  // bit-identical to the interpreter except within one double ulp of a
  // rounding boundary; rsqrt is IEEE 1/sqrt in double, exactly as ops.rs.
  double x = ksem_dec<D>(a), r;  // exact widening
  switch (f) {
    case KSEM_MATH_EXP: r = exp(x); break;
    case KSEM_MATH_EXP2: r = exp2(x); break;
    case KSEM_MATH_LOG: r = log(x); break;
    case KSEM_MATH_LOG2: r = log2(x); break;
    case KSEM_MATH_RSQRT: r = __ddiv_rn(1.0, __dsqrt_rn(x)); break;
    case KSEM_MATH_SIN: r = sin(x); break;
    case KSEM_MATH_COS: r = cos(x); break;
    case KSEM_MATH_SIGMOID: r = __ddiv_rn(1.0, __dadd_rn(1.0, exp(-x))); break;
    case KSEM_MATH_ERF: r = erf(x); break;
    case KSEM_MATH_TAN: r = tan(x); break;
    case KSEM_MATH_ASIN: r = asin(x); break;
    case KSEM_MATH_ACOS: r = acos(x); break;
    case KSEM_MATH_ATAN: r = atan(x); break;
    case KSEM_MATH_SINH: r = sinh(x); break;
    case KSEM_MATH_COSH: r = cosh(x); break;
    case KSEM_MATH_TANH: r = tanh(x); break;
    case KSEM_MATH_ASINH: r = asinh(x); break;
    case KSEM_MATH_ACOSH: r = acosh(x); break;
    case KSEM_MATH_ATANH: r = atanh(x); break;
    case KSEM_MATH_EXPM1: r = expm1(x); break;
    case KSEM_MATH_LOG10: r = log10(x); break;
    case KSEM_MATH_CBRT: r = cbrt(x); break;
    case KSEM_MATH_ERFC: r = erfc(x); break;
    case KSEM_MATH_TGAMMA: r = tgamma(x); break;
    case KSEM_MATH_LGAMMA: r = lgamma(x); break;
    case KSEM_MATH_EXP10: r = exp10(x); break;
    default: r = log1p(x); break;
  }
  if constexpr (D == KF64) return ksem_f64_result(r, a);
  else return ksem_fround<D>(r);
}

// Binary float functions: pow, atan2 and hypot (approximate, evaluated in double
// and rounded once as ops.rs does) and copysign (exact, on the bits).
template <int D> KSEM_FN ku64 ksem_pow(ku64 a, ku64 b) {
  double r = pow(ksem_dec<D>(a), ksem_dec<D>(b));
  if constexpr (D == KF64) return ksem_f64_result(r, a, b, 0, 2);
  else return ksem_fround<D>(r);
}
template <int D> KSEM_FN ku64 ksem_atan2(ku64 a, ku64 b) {
  double r = atan2(ksem_dec<D>(a), ksem_dec<D>(b));
  if constexpr (D == KF64) return ksem_f64_result(r, a, b, 0, 2);
  else return ksem_fround<D>(r);
}
template <int D> KSEM_FN ku64 ksem_hypot(ku64 a, ku64 b) {
  double r = hypot(ksem_dec<D>(a), ksem_dec<D>(b));
  if constexpr (D == KF64) return ksem_f64_result(r, a, b, 0, 2);
  else return ksem_fround<D>(r);
}
template <int D> KSEM_FN ku64 ksem_copysign(ku64 a, ku64 b) {
  // a "fnuz" zero or NaN keeps its bits (ops.rs copysign_bits)
  if constexpr (kspecials(D) == KSEM_SPECIALS_NEG_ZERO_IS_NAN)
    if ((a & (ksignbit(D) - 1ull)) == 0) return a & kmask(D);
  return (a & ~ksignbit(D)) | (b & ksignbit(D));
}

// ---- casts (ops.rs cast) -------------------------------------------------------

KSEM_FN ku64 ksem_nan_f32_to_f64(ku64 bits) {
  return (((bits >> 31) & 1ull) << 63) | (0x7ffull << 52) | ((bits & 0x7fffffull) << 29) | (1ull << 51);
}
// The NaN a float-to-float conversion of NaN `a` gives (float.rs convert_nan).
template <int F, int T> KSEM_FN ku64 ksem_convert_nan(ku64 a) {
  if constexpr (F == KBF16 && T == KF32) return (a & 0xffffull) << 16;
  else if constexpr (F == KF32 && T == KF64) return ksem_nan_f32_to_f64(a);
  else if constexpr (F == KF64 && T == KF32)
    return ((a >> 63) << 31) | (0xffull << 23) | ((a >> 29) & 0x7fffffull) | (1ull << 22);
  else if constexpr (F == KBF16 && T == KF64) return ksem_nan_f32_to_f64((a & 0xffffull) << 16);
  else if constexpr ((F == KF16 || kfp8(F)) && T == KF64)
    return ksem_nan_f32_to_f64(knanbits(KF32));
  else return knanbits(T);
}

// Converts bits of dtype F to dtype T; rtz/sat: the CastKind's rounding and overflow.
template <int F, int T> KSEM_FN ku64 ksem_cvt(ku64 a, bool rtz, bool sat) {
  if constexpr (F == T) {
    return a;
  } else if constexpr (T == KB) {
    if constexpr (kfloat(F)) return ksem_dec<F>(a) != 0.0 ? 1ull : 0ull;
    else return (a & kmask(F)) != 0 ? 1ull : 0ull;
  } else if constexpr (!kfloat(F) && !kfloat(T)) {
    ku64 v = ksigned(F) ? (ku64)ksem_sval<F>(a) : (a & kmask(F));
    return v & kmask(T);
  } else if constexpr (!kfloat(F) && kfloat(T)) {
    bool neg = false;
    ku64 m;
    if constexpr (ksigned(F)) {
      ki64 v = ksem_sval<F>(a);
      neg = v < 0;
      m = neg ? (0ull - (ku64)v) : (ku64)v;
    } else {
      m = a & kmask(F);
    }
#ifndef KSEM_HOST
    // the hardware's round-to-nearest-even conversions: exact for float32
    // and float64 results; through double (exact for 32-bit integers) else
    // The sign is or-ed into the bits: ptxas (CUDA 13.0, -O1 and above)
    // compiles `neg ? -f : f` after `m = neg ? -v : v` of `v = -abs(x)` into
    // -0.0 for x = 0 (docs/gpu-findings.md, corpus/cudapy/gpu_neg_abs_zero).
    if (!rtz) {
      if constexpr (T == KF32) return (ku64)__float_as_uint(__ull2float_rn(m)) | (neg ? 0x80000000ull : 0ull);
      if constexpr (T == KF64) return ksem_f64bits(__ull2double_rn(m)) | (neg ? 0x8000000000000000ull : 0ull);
      if constexpr (kbits(F) <= 32)
        return ksem_from_f64<T>(ksem_f64(ksem_f64bits((double)m) | (neg ? 0x8000000000000000ull : 0ull)), false, false);
    }
#endif
    return ksem_round_exact(T, neg, m, 0, rtz, false);
  } else if constexpr (kfloat(F) && !kfloat(T)) {
    double v = ksem_dec<F>(a);
    if (v != v) return 0;
    double t = trunc(v);
    const int width = kbits(T) - (ksigned(T) ? 1 : 0);
    const double lim = width == 64 ? 18446744073709551616.0 : width == 63 ? 9223372036854775808.0 : (double)(1ull << width);
    const double lo = ksigned(T) ? -lim : 0.0;
    if (t < lo || t >= lim) return 0;  // UB in the interpreter
    if constexpr (ksigned(T)) return ((ku64)(ki64)t) & kmask(T);
    else return ((ku64)t) & kmask(T);
  } else {
    if (ksem_isnan<F>(a)) return ksem_convert_nan<F, T>(a);
    return ksem_from_f64<T>(ksem_dec<F>(a), rtz, sat);
  }
}
template <int F, int T> KSEM_FN ku64 ksem_bitcast(ku64 a) {
  if constexpr (F == T) return a;
  else return a & kmask(T);
}

// ---- pointers and memory ----------------------------------------------------------

KSEM_FN ku64 ksem_ptr_buf(ku64 p) { return p >> 48; }
KSEM_FN ki64 ksem_ptr_off(ku64 p) { return ksem_sext(p, 48); }
// An offset of integer dtype OD as a signed count, clamped to +-2^62.
template <int OD> KSEM_FN ki64 ksem_ptr_delta(ku64 off) {
  ki64 delta;
  if constexpr (ksigned(OD)) {
    delta = ksem_sval<OD>(off);
  } else {
    ku64 u = off & kmask(OD);
    delta = u > (1ull << 62) ? (1ll << 62) : (ki64)u;
  }
  if (delta > (1ll << 62)) delta = 1ll << 62;
  if (delta < -(1ll << 62)) delta = -(1ll << 62);
  return delta;
}
// Pointer moved by `delta` elements, the offset clamped to +-2^46 (eval.rs).
KSEM_FN ku64 ksem_ptr_move(ku64 p, ki64 delta) {
  const ki64 lim = 1ll << 46;
  ki64 no = ksem_ptr_off(p) + delta;
  if (no > lim) no = lim;
  if (no < -lim) no = -lim;
  return (ksem_ptr_buf(p) << 48) | (((ku64)no) & ((1ull << 48) - 1ull));
}
// Pointer plus an offset of integer dtype OD, counted in elements.
template <int OD> KSEM_FN ku64 ksem_ptradd(ku64 p, ku64 off) {
  return ksem_ptr_move(p, ksem_ptr_delta<OD>(off));
}
// p - q in elements (PtrDiff; pointers into different buffers are UB,
// not checked here).
KSEM_FN ku64 ksem_ptrdiff(ku64 p, ku64 q) {
  return (ku64)(ksem_ptr_off(p) - ksem_ptr_off(q));
}
// Pointer to SIZE-byte elements plus an offset counted in bytes
// (PtrAddBytes; a part of an element is UB, truncated here).
template <int OD, int SIZE> KSEM_FN ku64 ksem_ptraddbytes(ku64 p, ku64 off) {
  return ksem_ptr_move(p, ksem_ptr_delta<OD>(off) / SIZE);
}

// Reads / writes element `off` of a buffer of dtype D through its typed pointer.
template <int D> KSEM_FN ku64 ksem_rd(const void* base, ki64 off) {
  if constexpr (D == KF32) return (ku64)__float_as_uint(((const float*)base)[off]);
  else if constexpr (D == KF64) return (ku64)__double_as_longlong(((const double*)base)[off]);
  else if constexpr (D == KI8) return (ku64)(ku8)((const signed char*)base)[off];
  else if constexpr (D == KI16) return (ku64)(ku16)((const short*)base)[off];
  else if constexpr (D == KI32) return (ku64)(ku32)((const int*)base)[off];
  else if constexpr (D == KI64) return (ku64)((const long long*)base)[off];
  else if constexpr (kbits(D) <= 8) return (ku64)((const ku8*)base)[off];
  else if constexpr (kbits(D) == 16) return (ku64)((const ku16*)base)[off];
  else if constexpr (kbits(D) == 32) return (ku64)((const ku32*)base)[off];
  else return ((const ku64*)base)[off];
}
template <int D> KSEM_FN void ksem_wr(void* base, ki64 off, ku64 v) {
  if constexpr (D == KF32) ((float*)base)[off] = __uint_as_float((ku32)v);
  else if constexpr (D == KF64) ((double*)base)[off] = __longlong_as_double(ksem_u2i(v));
  else if constexpr (D == KI8) ((signed char*)base)[off] = (signed char)ksem_sext(v, 8);
  else if constexpr (D == KI16) ((short*)base)[off] = (short)ksem_sext(v, 16);
  else if constexpr (D == KI32) ((int*)base)[off] = (int)ksem_sext(v, 32);
  else if constexpr (D == KI64) ((long long*)base)[off] = ksem_u2i(v);
  else if constexpr (kbits(D) <= 8) ((ku8*)base)[off] = (ku8)v;
  else if constexpr (kbits(D) == 16) ((ku16*)base)[off] = (ku16)v;
  else if constexpr (kbits(D) == 32) ((ku32*)base)[off] = (ku32)v;
  else ((ku64*)base)[off] = v;
}

// The buffers of a launch: base pointers, lengths, and (optional) inexact flags.
struct ksem_mem {
  void* const* buf;
  const long long* len;
  ku8* const* inexact;
  int n;
};

// Loads through pointer p; out of bounds (UB in the interpreter) reads 0.
template <int D> KSEM_FN ku64 ksem_ld(const ksem_mem& m, ku64 p) {
  ku64 b = ksem_ptr_buf(p);
  ki64 off = ksem_ptr_off(p);
  if (b >= (ku64)m.n || off < 0 || off >= m.len[b]) return 0;
  ku64 v = ksem_rd<D>(m.buf[b], off);
  if constexpr (D == KB) v = v != 0 ? 1ull : 0ull;
  return v;
}
// Stores v through pointer p; out-of-bounds lanes are skipped.
template <int D> KSEM_FN void ksem_st(const ksem_mem& m, ku64 p, ku64 v, bool inexact) {
  ku64 b = ksem_ptr_buf(p);
  ki64 off = ksem_ptr_off(p);
  if (b >= (ku64)m.n || off < 0 || off >= m.len[b]) return;
  ksem_wr<D>(m.buf[b], off, v);
  if (m.inexact && m.inexact[b]) m.inexact[b][off] = inexact ? 1 : 0;
}

// ---- SIMT arrays and atomics (lower_simt.rs) ------------------------------------

// The value of integer bits of dtype D as a signed 64-bit index.
template <int D> KSEM_FN ki64 ksem_ival(ku64 a) {
  if constexpr (ksigned(D)) return ksem_sval<D>(a);
  else return (ki64)(a & kmask(D));
}
// Row-major offset: acc * dim + i, with a negative i counting from the end
// when `wrap`; -1 once any index is out of range (UB in the interpreter).
KSEM_FN ki64 ksem_index(ki64 acc, ki64 i, ki64 dim, bool wrap) {
  if (acc < 0) return -1;
  if (wrap && i < 0) i += dim;
  if (i < 0 || i >= dim) return -1;
  return acc * dim + i;
}
// Element `off` of a shared or local array of n elements (0 out of range).
template <int D, typename T> KSEM_FN ku64 ksem_ald(const T* a, ki64 off, ki64 n) {
  return (off >= 0 && off < n) ? (ku64)a[off] : 0ull;
}
template <int D, typename T> KSEM_FN void ksem_ast(T* a, ki64 off, ki64 n, ku64 v) {
  if (off >= 0 && off < n) a[off] = (T)(v & kmask(D));
}
// float32 flush-to-zero: a subnormal becomes a zero of its sign (float::flush_subnormal_f32).
template <int D> KSEM_FN ku64 ksem_ftz32(ku64 a) {
  if constexpr (D == KF32) return (a & 0x7f800000ull) == 0 ? (a & 0x80000000ull) : a;
  else return a;
}
// The new value of an atomic read-modify-write (ops::atomic_rmw).
template <int D> KSEM_FN ku64 ksem_rmw(int op, ku64 old, ku64 val, ku64 cmp) {
  old &= kmask(D);
  val &= kmask(D);
  switch (op) {
    case KSEM_ATOMIC_ADD:
      // the hardware's atomic add: float64 NaNs pass unquieted (the
      // operand's first), float32 flushed
      if constexpr (D == KF64) {
        if (ksem_isnan<D>(val)) return val;
        if (ksem_isnan<D>(old)) return old;
      }
      if constexpr (kfloat(D)) return ksem_ftz32<D>(ksem_fadd<D>(ksem_ftz32<D>(val), ksem_ftz32<D>(old)));
      else return ksem_iadd<D>(old, val);
    case KSEM_ATOMIC_BITSMAX:  // Triton's float max: signed max of the bits,
      if ((val >> (kbits(D) - 1)) & 1ull) return val < old ? val : old;  // unsigned min if negative
      return ksem_sval<D>(val) > ksem_sval<D>(old) ? val : old;
    case KSEM_ATOMIC_BITSMIN:  // Triton's float min: signed min, unsigned max if negative
      if ((val >> (kbits(D) - 1)) & 1ull) return val > old ? val : old;
      return ksem_sval<D>(val) < ksem_sval<D>(old) ? val : old;
    case KSEM_ATOMIC_SUB:
      if constexpr (kfloat(D)) return ksem_fsub<D>(old, val); else return ksem_isub<D>(old, val);
    case KSEM_ATOMIC_NANMAX:
    case KSEM_ATOMIC_NANMIN:
      if constexpr (kfloat(D)) {
        if (ksem_isnan<D>(old)) return val;
      }
      return ksem_rmw<D>(op == KSEM_ATOMIC_NANMAX ? KSEM_ATOMIC_MAX : KSEM_ATOMIC_MIN, old, val, cmp);
    case KSEM_ATOMIC_MAX:
    case KSEM_ATOMIC_MIN: {
      // the operand replaces the old value only when strictly greater (less)
      ku64 x = op == KSEM_ATOMIC_MAX ? val : old, y = op == KSEM_ATOMIC_MAX ? old : val;
      bool gt;
      if constexpr (kfloat(D)) gt = ksem_fcmp<D>(KSEM_CMP_GT, x, y); else gt = ksem_icmp<D>(KSEM_CMP_GT, x, y);
      return gt ? val : old;
    }
    case KSEM_ATOMIC_EXCH: return val;
    case KSEM_ATOMIC_CAS: return old == (cmp & kmask(D)) ? val : old;
    case KSEM_ATOMIC_AND: return old & val;
    case KSEM_ATOMIC_OR: return old | val;
    case KSEM_ATOMIC_XOR: return old ^ val;
    case KSEM_ATOMIC_INC: return old >= val ? 0ull : (old + 1ull) & kmask(D);
    default: return (old == 0 || old > val) ? val : old - 1ull;  // KSEM_ATOMIC_DEC
  }
}
// Atomic read-modify-write of the 32- or 64-bit element at `addr`: the old bits.
template <int D> KSEM_FN ku64 ksem_atomic_at(void* addr, int op, ku64 val, ku64 cmp) {
  if constexpr (kbits(D) == 16) {
    unsigned short* p = (unsigned short*)addr;
    unsigned short old = *(volatile unsigned short*)p, seen;
    do {
      seen = old;
      old = atomicCAS(p, seen, (unsigned short)ksem_rmw<D>(op, seen, val, cmp));
    } while (old != seen);
    return old;
  } else if constexpr (kbits(D) == 64) {
    unsigned long long* p = (unsigned long long*)addr;
    unsigned long long old = *(volatile unsigned long long*)p, seen;
    do {
      seen = old;
      old = atomicCAS(p, seen, (unsigned long long)ksem_rmw<D>(op, seen, val, cmp));
    } while (old != seen);
    return old;
  } else {
    unsigned* p = (unsigned*)addr;
    unsigned old = *(volatile unsigned*)p, seen;
    do {
      seen = old;
      old = atomicCAS(p, seen, (unsigned)ksem_rmw<D>(op, seen, val, cmp));
    } while (old != seen);
    return old;
  }
}
// An atomic on a global element (out of bounds: nothing, 0). The element is
// flagged inexact where the interpreter says its final value depends on the
// order of the updates (eval/simt.rs): a float add/sub, an exchange or
// compare-and-swap that changed it, or an operand that is itself inexact.
template <int D> KSEM_FN ku64 ksem_atomic(const ksem_mem& m, ku64 p, int op, ku64 val, ku64 cmp,
                                         bool val_inexact) {
  ku64 b = ksem_ptr_buf(p);
  ki64 off = ksem_ptr_off(p);
  if (b >= (ku64)m.n || off < 0 || off >= m.len[b]) return 0;
  ku64 old = ksem_atomic_at<D>((char*)m.buf[b] + off * (kbits(D) / 8), op, val, cmp);
  if (m.inexact && m.inexact[b]) {
    ku64 nv = ksem_rmw<D>(op, old, val, cmp);
    bool order_dependent = val_inexact || (kfloat(D) && (op == KSEM_ATOMIC_ADD || op == KSEM_ATOMIC_SUB)) ||
                           ((op == KSEM_ATOMIC_EXCH || op == KSEM_ATOMIC_CAS) && nv != (old & kmask(D)));
    if (order_dependent) m.inexact[b][off] = 1;
  }
  return old;
}
// An atomic on a shared or local array element.
template <int D, typename T> KSEM_FN ku64 ksem_aatomic(T* a, ki64 off, ki64 n, int op, ku64 val, ku64 cmp) {
  if (off < 0 || off >= n) return 0;
  return ksem_atomic_at<D>((void*)&a[off], op, val, cmp);
}

// ---- reductions ------------------------------------------------------------------

// Triton's argmax/argmin combine: keep (a, ai) when a is better, or equal with a lower index.
template <int D> KSEM_FN bool ksem_arg_keep_a(bool max, ku64 a, ku32 ai, ku64 b, ku32 bi) {
  bool better, eq;
  if constexpr (kfloat(D)) {
    better = ksem_fcmp<D>(max ? 4 : 2, a, b);
    eq = ksem_fcmp<D>(0, a, b);
  } else {
    better = ksem_icmp<D>(max ? 4 : 2, a, b);
    eq = ksem_icmp<D>(0, a, b);
  }
  return better || (eq && ai < bi);
}

// Trip count of `for i in range(lo, hi, st)` over dtype D (0 for a zero step).
template <int D> KSEM_FN ku64 ksem_trip_count(ku64 lo, ku64 hi, ku64 st) {
  if constexpr (ksigned(D)) {
    ki64 l = ksem_sval<D>(lo), h = ksem_sval<D>(hi), s = ksem_sval<D>(st);
    if (s > 0 && h > l) return ((ku64)h - (ku64)l - 1ull) / (ku64)s + 1ull;
    if (s < 0 && l > h) return ((ku64)l - (ku64)h - 1ull) / (0ull - (ku64)s) + 1ull;
    return 0;
  } else {
    ku64 l = lo & kmask(D), h = hi & kmask(D), s = st & kmask(D);
    if (s > 0 && h > l) return (h - l - 1ull) / s + 1ull;
    return 0;
  }
}
// ---- end of the ksem runtime ------------------------------------------------
