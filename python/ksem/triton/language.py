"""Stand-in for ``triton.language`` where Triton is not installed: enough for
a kernel's module to import (``BLOCK: tl.constexpr`` annotations). The
kernel body is never run by Python; ksem reads it as Triton."""


class constexpr:  # noqa: N801 (Triton's name)
    """Marks a parameter as compile-time, as ``triton.language.constexpr``."""

    def __init__(self, value=None):
        self.value = value

    def __repr__(self) -> str:
        return f"constexpr[{self.value!r}]"
