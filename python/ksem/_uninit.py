"""Host memory nobody has written: which elements of which arrays hold no
defined value, so that a kernel's first read of one is reported
(``docs/semantics.md``, "Undefined values"; issue 26).

An array enters the registry where ksem can know its memory is
uninitialised: ``cuda.device_array``/``device_array_like`` (numba's
simulator under the pytest plugin, and ``ksem.cuda``), and ``torch.empty``,
``empty_like`` and ``empty_strided`` while the plugin is on. It leaves the
registry (every element defined) when the host writes it: numba's
``copy_to_device``/``__setitem__``, or any torch operation that writes the
tensor (its version counter moves). A launch passes the undefined elements
to ksem (``"undefined"`` in the launch JSON) and keeps undefined only those
the kernel did not write.

Each entry covers one allocation (a numpy array, or a torch tensor's
storage) with one flag per element of its dtype; arguments that are views
of it (a slice, the storage span Triton is passed) map onto those flags by
their byte offset. A view that does not map onto whole elements of the
allocation (another dtype's width, a stride that is not a whole number of
elements) is treated as defined: ksem never reports what it cannot know.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np


@dataclass
class _Allocation:
    """One uninitialised allocation: its first byte's address, element size
    and per-element flags (True: never written), and for torch the version
    the flags were last true at."""

    address: int
    itemsize: int
    undefined: np.ndarray
    version: int | None = None


# id(owner) → allocation; an entry goes when its owner is collected
_registry: dict[int, _Allocation] = {}
# storage address → id(owner) (torch tensors: views share the storage)
_by_address: dict[int, int] = {}


def _address(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


def _forget(key: int) -> None:
    entry = _registry.pop(key, None)
    if entry is not None and _by_address.get(entry.address) == key:
        del _by_address[entry.address]


def _register(owner, address: int, itemsize: int, n: int, version: int | None = None) -> None:
    key = id(owner)
    _forget(key)
    if n == 0:
        return
    _registry[key] = _Allocation(address, itemsize, np.ones(n, dtype=bool), version)
    _by_address[address] = key
    weakref.finalize(owner, _forget, key)


def mark_numpy(a: np.ndarray) -> np.ndarray:
    """Registers numpy array `a` (fresh, contiguous) as never written."""
    if isinstance(a, np.ndarray) and a.flags.c_contiguous and a.size:
        _register(a, _address(a), a.itemsize, a.size)
    return a


def mark_torch(t):
    """Registers torch tensor `t` (fresh from ``torch.empty``) as never
    written, at its current version."""
    try:
        storage = t.untyped_storage()
        address = int(storage.data_ptr())
        n = int(storage.nbytes()) // t.element_size()
    except (AttributeError, RuntimeError):
        return t
    if t.device.type == "cpu" and n:
        _register(t, address, t.element_size(), n, int(t._version))
    return t


def written(owner) -> None:
    """The host wrote (part of) `owner`: all of its allocation is defined."""
    key = _owner_key(owner)
    if key is not None:
        _forget(key)


def _owner_key(v) -> int | None:
    if isinstance(v, np.ndarray):
        base = v
        while isinstance(base.base, np.ndarray):
            base = base.base
        key = id(base)
        return key if key in _registry else _by_address.get(_address(base))
    try:
        return _by_address.get(int(v.untyped_storage().data_ptr()))
    except (AttributeError, RuntimeError):
        return None


def _entry(value) -> tuple[int, _Allocation] | None:
    key = _owner_key(value)
    entry = _registry.get(key) if key is not None else None
    if entry is None:
        return None
    version = getattr(value, "_version", None)
    if entry.version is not None and version is not None and int(version) != entry.version:
        # a torch operation wrote the tensor since: every element is defined
        _forget(key)
        return None
    return key, entry


def _elements(entry: _Allocation, array: np.ndarray) -> np.ndarray | None:
    """The allocation's element index of each element of `array` (a view
    of it, in `array`'s C order), or None where they do not map."""
    if array.itemsize != entry.itemsize or array.size == 0:
        return None
    offset = _address(array) - entry.address
    if offset % entry.itemsize or any(s % entry.itemsize for s in array.strides):
        return None
    index = np.full(array.shape, offset // entry.itemsize, dtype=np.int64)
    for axis, (n, s) in enumerate(zip(array.shape, array.strides)):
        step = np.arange(n, dtype=np.int64) * (s // entry.itemsize)
        index += step.reshape([n if i == axis else 1 for i in range(array.ndim)])
    flat = index.ravel()
    if flat.min() < 0 or flat.max() >= entry.undefined.size:
        return None
    return flat


def undefined_of(value, array: np.ndarray) -> np.ndarray | None:
    """For a kernel argument `value` passed as host array `array` (a view
    of `value`'s memory): one flag per element of `array` (C order), True
    where nobody wrote it; None where every element is defined or ksem
    cannot tell."""
    found = _entry(value)
    if found is None:
        return None
    index = _elements(found[1], array)
    if index is None:
        return None
    flags = found[1].undefined[index]
    return flags if flags.any() else None


def after_launch(value, array: np.ndarray, still_undefined: np.ndarray) -> None:
    """A launch passed `array` (a view of `value`'s memory) and left
    `still_undefined` (flags in `array`'s C order) undefined: the rest are
    written now."""
    found = _entry(value)
    if found is None:
        return
    key, entry = found
    index = _elements(entry, array)
    if index is None:
        return
    entry.undefined[index] = still_undefined
    if entry.version is not None:
        entry.version = int(getattr(value, "_version", entry.version))
    if not entry.undefined.any():
        _forget(key)


def clear() -> None:
    """Forgets every allocation (the plugin's end of session)."""
    _registry.clear()
    _by_address.clear()


__all__ = ["mark_numpy", "mark_torch", "written", "undefined_of", "after_launch", "clear"]
