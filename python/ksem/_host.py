"""Host values → launch arguments: numpy arrays (and torch CPU tensors)
become buffers, Python scalars runtime scalars typed as the dialect's host
types them, and the wrappers :class:`Scalar`, :class:`Constexpr` and
:class:`Bits` say exactly what is meant where the default is not it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _uninit
from ._ksem import KsemError

# numpy dtype name → ksem dtype name (launch JSON's names). ml_dtypes'
# bfloat16 and float8 types are numpy dtypes with these names too.
_NUMPY_DTYPES = {
    "bool": "bool",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "bfloat16": "bfloat16",
    "float8_e4m3fn": "float8e4nv",
    "float8_e5m2": "float8e5",
}

# numpy complex dtype name → launch dtype name: pairs of float32 / float64
# parts, real then imaginary (numpy's layout; docs/formats.md).
_COMPLEX_DTYPES = {"complex64": "complex64", "complex128": "complex128"}

# ksem dtype name → the unsigned integer type of its stored width (for Bits).
_STORAGE = {
    "bool": np.uint8,
    "int8": np.uint8,
    "uint8": np.uint8,
    "float8e4nv": np.uint8,
    "float8e5": np.uint8,
    "float8e4b15": np.uint8,
    "float8e4b8": np.uint8,
    "float8e5b16": np.uint8,
    "int16": np.uint16,
    "uint16": np.uint16,
    "float16": np.uint16,
    "bfloat16": np.uint16,
    "int32": np.uint32,
    "uint32": np.uint32,
    "float32": np.uint32,
    "int64": np.uint64,
    "uint64": np.uint64,
    "float64": np.uint64,
}


@dataclass(frozen=True)
class Scalar:
    """A runtime scalar argument of an explicit dtype: ``Scalar(3, "int64")``."""

    value: Any
    dtype: str


@dataclass(frozen=True)
class Constexpr:
    """A compile-time argument (Triton's ``tl.constexpr``): ``Constexpr(1024)``."""

    value: Any


@dataclass(frozen=True)
class Bits:
    """A buffer whose elements are given as raw bits: an unsigned integer
    array of the dtype's stored width (``Bits(np.array([0x3c00], np.uint16),
    "float16")``), for dtypes numpy has no type for (bfloat16, float8). The
    array is written back in place as bits."""

    array: np.ndarray
    dtype: str


@dataclass
class HostBuffer:
    """A buffer argument: the array that receives the results (written in
    place), its ksem dtype, its stored bytes, and the elements nobody has
    written (flags in the array's C order; None: all defined) of the host
    object `source` it views (``_uninit``)."""

    target: np.ndarray
    dtype: str
    data: bytes
    undefined: np.ndarray | None = None
    source: object = None
    # a record buffer's layout (`record_layout`); `record_scalar`: the
    # numpy record (np.void) the 0-d target copies, written back field by field
    record: dict | None = None
    record_scalar: object = None
    # a text buffer's `"text"` (`S12`, `U12`): written back like a record's bytes
    text: str | None = None

    def spec(self) -> dict:
        b: dict = {"dtype": self.dtype, "len": int(self.target.size)}
        if self.text is not None:
            del b["dtype"]
            b["text"] = self.text
            if self.target.ndim != 1:
                b["shape"] = [int(d) for d in self.target.shape]
        elif self.record is not None:
            del b["dtype"]
            b["record"] = self.record
            if self.target.ndim != 1:
                b["shape"] = [int(d) for d in self.target.shape]
        elif self.target.ndim > 1:
            b["shape"] = [int(d) for d in self.target.shape]
        if self.undefined is not None:
            if self.undefined.all():
                b["init"] = "none"
            else:
                b["undefined"] = [int(i) for i in np.flatnonzero(self.undefined)]
        return {"buffer": b}


def _torch_array(t, dialect: str = "") -> tuple[np.ndarray, str | None]:
    """A CPU tensor's memory as a numpy array (shared, so writes land in
    the tensor); bfloat16 and float8 are seen through integers of their
    width and named explicitly. For Triton, whose kernels take a pointer
    and compute addresses from strides themselves, the array is the
    tensor's storage from its first element to its last (a 0-d tensor is a
    pointer to one element), never a copy in logical order."""
    import torch

    if t.device.type != "cpu":
        raise KsemError(f"tensor on {t.device}: ksem runs on the CPU; pass a CPU tensor")
    t = t.detach()
    if dialect == "triton":
        t = t.as_strided((_span(tuple(t.shape), tuple(t.stride())),), (1,))
    named = {
        torch.bfloat16: (torch.int16, "bfloat16"),
        getattr(torch, "float8_e4m3fn", None): (torch.uint8, "float8e4nv"),
        getattr(torch, "float8_e5m2", None): (torch.uint8, "float8e5"),
    }.get(t.dtype)
    if named is not None:
        return t.view(named[0]).numpy(), named[1]
    return t.numpy(), None


def _span(shape: tuple, strides: tuple) -> int:
    """Elements from an array's first element to its last, inclusive, in
    storage order (strides in elements, all ≥ 0); 0 for an empty array."""
    if any(d == 0 for d in shape):
        return 0
    return 1 + sum((d - 1) * s for d, s in zip(shape, strides))


def _numpy_storage(a: np.ndarray, name: str, where: str) -> np.ndarray:
    """A numpy array as a Triton pointer sees it: its storage from its first
    element to its last (a view, so writes land in the array)."""
    if a.ndim == 1 and a.strides[0] == a.itemsize or a.size == 0:
        return a.reshape(-1) if a.ndim != 1 else a
    if a.ndim == 0:
        return a.reshape(1)
    if any(s < 0 or s % a.itemsize for s in a.strides):
        raise KsemError(
            f"{where}: error: argument `{name}`: an array with negative or unaligned strides "
            f"{a.strides} cannot be passed as a pointer"
        )
    n = _span(a.shape, tuple(s // a.itemsize for s in a.strides))
    return np.lib.stride_tricks.as_strided(a, shape=(n,), strides=(a.itemsize,))


def _is_torch_tensor(v) -> bool:
    return type(v).__module__.startswith("torch") and hasattr(v, "numpy") and hasattr(v, "device")


def _json_number(v):
    """A Python number as launch JSON writes it (non-finite floats as
    strings, a complex number as [real, imaginary])."""
    if isinstance(v, (complex, np.complexfloating)):
        return [_json_number(float(v.real)), _json_number(float(v.imag))]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f


def default_scalar_dtype(dialect: str, value) -> str:
    """The dtype a host passes a bare Python scalar as.

    Triton specializes an ``int`` to int32 where it fits, else uint64 for
    2**63 ≤ v < 2**64, else int64; a ``float`` to fp32; a ``bool`` to int1.
    numba (CUDA Python) types an ``int`` as int64, a ``float`` as float64.
    TileLang and Hidet take their scalars' types from the kernel's
    annotations; ksem passes int32 / float32 (give :class:`Scalar` for others).
    """
    if isinstance(value, bool):
        return "bool"
    if dialect == "triton":
        if isinstance(value, int):
            if -(2**31) <= value < 2**31:
                return "int32"
            if 2**63 <= value < 2**64:
                return "uint64"
            return "int64"
        return "float32"
    if dialect == "cudapy":
        return "int64" if isinstance(value, int) else "float64"
    return "int32" if isinstance(value, int) else "float32"


def convert_arg(name: str, value, dialect: str, where: str):
    """One host argument → (launch JSON argument, HostBuffer or None).
    `where` prefixes errors (``file:line:col`` of the kernel where known)."""
    if isinstance(value, Constexpr):
        return {"constexpr": _const(name, value.value, where)}, None
    if isinstance(value, Scalar):
        return {"scalar": {"dtype": value.dtype, "value": _json_number(value.value)}}, None
    if isinstance(value, Bits):
        return _bits_buffer(name, value, where)
    array, dtype = None, None
    if isinstance(value, np.void) and value.dtype.fields is not None:
        return _record_buffer(name, np.array(value, dtype=value.dtype), where, scalar=value)
    if isinstance(value, np.ndarray) and value.dtype.fields is not None and dialect == "cudapy":
        return _record_buffer(name, value, where)
    if isinstance(value, np.ndarray) and value.dtype.kind in "SU" and value.ndim > 0 and dialect == "cudapy":
        return _text_buffer(name, value, where)
    if isinstance(value, (np.ndarray, np.datetime64, np.timedelta64)) and value.dtype.kind in "mM" and dialect == "cudapy":
        return _time_arg(name, value, where)
    if isinstance(value, np.ndarray):
        array = _numpy_storage(value, name, where) if dialect == "triton" else value
    elif _is_torch_tensor(value):
        array, dtype = _torch_array(value, dialect)
    if array is not None:
        if array.ndim == 0:
            return _numpy_scalar(name, array[()], where), None
        dtype = dtype or _NUMPY_DTYPES.get(array.dtype.name) or _COMPLEX_DTYPES.get(array.dtype.name)
        if dtype is None:
            raise KsemError(
                f"{where}: error: argument `{name}`: arrays of dtype {array.dtype} are not "
                f"supported (ksem runs {', '.join(sorted(set(_NUMPY_DTYPES)))}; "
                "use ksem.Bits for raw bit patterns)"
            )
        undefined = _uninit.undefined_of(value, array)
        buf = HostBuffer(array, dtype, stored_bytes(array, dtype), undefined, value)
        return buf.spec(), buf
    if isinstance(value, np.generic):
        return _numpy_scalar(name, value, where), None
    if isinstance(value, complex):
        return {"scalar": {"dtype": "complex128", "value": _json_number(value)}}, None
    if isinstance(value, (bool, int, float)):
        dtype = default_scalar_dtype(dialect, value)
        return {"scalar": {"dtype": dtype, "value": _json_number(value)}}, None
    if value is None or isinstance(value, str):
        return {"constexpr": value}, None
    raise KsemError(
        f"{where}: error: argument `{name}`: a {type(value).__name__} is not a kernel argument "
        "(pass a numpy array, a torch CPU tensor, a Python or numpy scalar, "
        "ksem.Scalar, ksem.Constexpr or ksem.Bits)"
    )


def record_layout(dt: np.dtype, name: str, where: str) -> dict:
    """A structured dtype as the launch's ``"record"`` describes it:
    numpy's itemsize and each field's offset, element dtype (a number,
    complex, text ``S<n>``/``U<n>``, or a nested record) and subarray shape."""
    fields = []
    for fname in dt.names:
        fdt, offset = dt.fields[fname][:2]
        shape = []
        if fdt.subdtype is not None:
            fdt, sub = fdt.subdtype
            shape = [int(d) for d in sub]
        f: dict = {"name": fname, "offset": int(offset)}
        if shape:
            f["shape"] = shape
        if fdt.names is not None:
            f["record"] = record_layout(fdt, name, where)
        elif fdt.byteorder == ">" or (fdt.byteorder == "=" and not np.little_endian):
            raise KsemError(f"{where}: error: argument `{name}`: field `{fname}` is big-endian; ksem reads numpy's little-endian layout")
        elif fdt.kind in "SU":
            f["dtype"] = f"{fdt.kind}{fdt.itemsize // (4 if fdt.kind == 'U' else 1)}"
        else:
            d = _NUMPY_DTYPES.get(fdt.name) or _COMPLEX_DTYPES.get(fdt.name)
            if d is None:
                raise KsemError(f"{where}: error: argument `{name}`: field `{fname}` of dtype {fdt} is not supported")
            f["dtype"] = d
        fields.append(f)
    return {"itemsize": int(dt.itemsize), "fields": fields}


def _record_buffer(name: str, array: np.ndarray, where: str, scalar=None):
    """A structured array (or, `scalar`, one numpy record) as a record
    buffer: its bytes in numpy's layout, written back in place."""
    layout = record_layout(array.dtype, name, where)
    undefined = _uninit.undefined_of(array, array) if scalar is None else None
    buf = HostBuffer(array, "uint8", np.ascontiguousarray(array).tobytes(), undefined, array,
                     record=layout, record_scalar=scalar)
    return buf.spec(), buf


def _time_name(name: str, dt: np.dtype, where: str) -> str:
    """The launch's name of a datetime64/timedelta64 dtype of one unit."""
    unit, count = np.datetime_data(dt)
    if unit == "generic" or count != 1:
        raise KsemError(f"{where}: error: argument `{name}`: {dt} is not supported (ksem takes datetime64/timedelta64 of one unit, such as datetime64[D])")
    return f"{'datetime64' if dt.kind == 'M' else 'timedelta64'}[{unit}]"


def _time_arg(name: str, value, where: str):
    """A datetime64/timedelta64 array or scalar: its int64 counts (NaT
    the int64 minimum), typed by its dtype (docs/formats.md)."""
    d = _time_name(name, value.dtype, where)
    if isinstance(value, np.generic) or value.ndim == 0:
        return {"scalar": {"dtype": d, "value": int(np.asarray(value).view(np.int64))}}, None
    undefined = _uninit.undefined_of(value, value)
    buf = HostBuffer(value, d, np.ascontiguousarray(value).view(np.int64).tobytes(), undefined, value)
    return buf.spec(), buf


def _text_buffer(name: str, array: np.ndarray, where: str):
    """An `S<n>`/`U<n>` array as a text buffer: its bytes (UTF-32 code
    units for `U`, little-endian), written back in place."""
    dt = array.dtype
    if dt.itemsize == 0:
        raise KsemError(f"{where}: error: argument `{name}`: an array of empty strings ({dt}) is not supported")
    if dt.kind == "U" and (dt.byteorder == ">" or (dt.byteorder == "=" and not np.little_endian)):
        raise KsemError(f"{where}: error: argument `{name}`: a big-endian {dt} array; ksem reads numpy's little-endian layout")
    text = f"{dt.kind}{dt.itemsize // (4 if dt.kind == 'U' else 1)}"
    undefined = _uninit.undefined_of(array, array)
    buf = HostBuffer(array, "uint8", np.ascontiguousarray(array).tobytes(), undefined, array, text=text)
    return buf.spec(), buf


def stored_bytes(array: np.ndarray, dtype: str) -> bytes:
    """An array's elements as ksem reads them. A bool byte other than 0 or 1
    (memory of ``torch.empty``/``np.empty`` nobody wrote as bool) reads as
    true, as a GPU's ``!= 0`` test of the byte does."""
    a = np.ascontiguousarray(array)
    if dtype == "bool":
        a = (a.view(np.uint8) != 0).view(np.uint8)
    return a.tobytes()


def _numpy_scalar(name: str, v: np.generic, where: str) -> dict:
    dtype = _NUMPY_DTYPES.get(v.dtype.name) or _COMPLEX_DTYPES.get(v.dtype.name)
    if dtype is None or dtype in ("bfloat16", "float8e4nv", "float8e5"):
        raise KsemError(f"{where}: error: argument `{name}`: scalars of dtype {v.dtype} are not supported")
    return {"scalar": {"dtype": dtype, "value": _json_number(v)}}


def _const(name: str, v, where: str):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v if not isinstance(v, float) else _const_float(v)
    if isinstance(v, np.generic):
        return _json_number(v)
    if isinstance(v, (tuple, list)):
        # a tuple constexpr (Triton's `shape=(4, 8)`): a JSON array
        return [_const(name, x, where) for x in v]
    raise KsemError(
        f"{where}: error: argument `{name}`: a constexpr must be a number, bool, str, None or a tuple of these"
    )


def _const_float(f: float):
    if math.isfinite(f):
        return f
    return _json_number(f)


def _bits_buffer(name: str, b: Bits, where: str):
    storage = _STORAGE.get(b.dtype)
    if storage is None:
        raise KsemError(f"{where}: error: argument `{name}`: unknown dtype {b.dtype!r}")
    if b.array.dtype != np.dtype(storage):
        raise KsemError(
            f"{where}: error: argument `{name}`: ksem.Bits for {b.dtype} takes a "
            f"{np.dtype(storage).name} array, not {b.array.dtype}"
        )
    buf = HostBuffer(b.array, b.dtype, np.ascontiguousarray(b.array).tobytes())
    return buf.spec(), buf


def storage_dtype(dtype: str):
    """The unsigned integer numpy type of `dtype`'s stored width."""
    return _STORAGE[dtype]
