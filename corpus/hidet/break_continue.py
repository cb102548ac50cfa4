import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(a: i32[10], out: i32[4]):
        attrs.func_kind = 'cpu_kernel'
        s: i32 = 0
        first: i32 = -1
        for i in range(10):
            if a[i] % 2 != 0:
                continue
            if a[i] > 50:
                first = i
                break
            s = s + a[i]
        out[0] = s
        out[1] = first
        pairs: i32 = 0
        for i in range(10):
            for j in range(10):
                if j >= i:
                    break
                if (a[i] + a[j]) % 3 == 0:
                    continue
                pairs = pairs + 1
        out[2] = pairs
        k: i32 = 0
        while k >= 0:
            k = k + 1
            if k * k > a[9]:
                break
        out[3] = k

module = script_module.build()
