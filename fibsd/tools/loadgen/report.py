"""Figures of a load run: latency percentiles and the plain `name: value` report.

Owns the `Report` (an ordered list of named figures) and the percentile rule. Knows
nothing of sockets or the server.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values (0.0 for none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


@attrs.define
class Report:
    """Named figures in the order they were added; printed one `name: value` per line."""

    figures: list[tuple[str, str]] = attrs.field(factory=list)

    def add(self, name: str, value: object) -> None:
        if isinstance(value, float):
            text = f"{value:.3f}"
        else:
            text = str(value)
        self.figures.append((name, text))

    def add_latencies(self, prefix: str, seconds: Sequence[float]) -> None:
        """count, p50, p99 and max of latencies given in seconds, reported in ms."""
        ordered = sorted(seconds)
        self.add(f"{prefix}_count", len(ordered))
        self.add(f"{prefix}_p50_ms", percentile(ordered, 0.50) * 1000)
        self.add(f"{prefix}_p99_ms", percentile(ordered, 0.99) * 1000)
        self.add(f"{prefix}_max_ms", (ordered[-1] if ordered else 0.0) * 1000)

    def add_cpu(self, prefix: str, cpu_seconds: float, wall_seconds: float) -> None:
        """CPU use over a wall-clock window, in % of one core."""
        self.add(f"{prefix}_cpu_percent", 100.0 * cpu_seconds / wall_seconds if wall_seconds > 0 else 0.0)

    def get(self, name: str) -> str:
        for key, value in self.figures:
            if key == name:
                return value
        raise KeyError(name)

    def lines(self) -> list[str]:
        return [f"{name}: {value}" for name, value in self.figures]
