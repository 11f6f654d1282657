"""Numbers for experiments: reproducible seeds and 95% intervals.

The simulator, its evaluations and the language-model arena's report all seed games and state
proportions and means with their intervals. They share these few functions from here, a module
below each of them, so that none of them imports another for its arithmetic (``llm`` reads no
``sim`` module for it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from hashlib import blake2b

#: The 97.5% quantile of the standard normal: a two-sided 95% interval is +/- Z95 standard errors.
Z95 = 1.959963984540054


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts, identical on every platform and Python run."""
    text = ":".join(map(str, parts)).encode()
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big") >> 1


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float] | None:
    """The mean of ``values`` and its normal interval (mean +/- z sample standard errors; no
    width with one value); None without values."""
    n = len(values)
    if not n:
        return None
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


__all__ = ["Z95", "derive_seed", "mean_interval", "wilson"]
