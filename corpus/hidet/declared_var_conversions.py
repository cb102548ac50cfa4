import hidet
from hidet.lang import attrs, printf, cast, bitwise_not, boolean, grid
from hidet.lang.types import tensor, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from hidet.lang.layout import row_major, column_major, strided_layout, local_layout

with hidet.script_module() as script_module:
    @hidet.script
    def kernel(f: f32[4], d: f64[4], iv: i32[4], uv: u32[4], o32: i32[4], o8: i8[4], ou8: u8[4], of: f32[4], o64: i64[4]):
        attrs.func_kind = 'cpu_kernel'
        for i in range(4):
            x: i32 = f[i]
            y: u8 = iv[i]
            z: i8
            z = iv[i]
            w: f32 = d[i]
            q: i64 = uv[i]
            o32[i] = x
            ou8[i] = y
            o8[i] = z
            of[i] = w
            o64[i] = q

module = script_module.build()
