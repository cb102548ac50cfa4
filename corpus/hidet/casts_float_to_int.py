import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(f: f32[4], d: f64[4], o8: i8[4], ou8: u8[4], o32: i32[4], ou16: u16[4], o64: i64[4], ou32: u32[4], ou64: u64[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            o8[i] = i8(f[i])
            ou8[i] = u8(f[i] + 100.0)
            o32[i] = i32(d[i])
            ou16[i] = u16(f[i] * 100.0 + 20000.0)
            o64[i] = i64(d[i] * 1e10)
            ou32[i] = u32(d[i] * 1e8 + 2e9)
            ou64[i] = u64(d[i] * d[i] * 72057594037927936.0)

module = script_module.build()
