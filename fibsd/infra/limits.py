"""Abuse limits, pure: token buckets, login-failure throttling, per-address counters.

Owns the arithmetic of every rate limit the server enforces; the clock is passed in
(seconds), so the limits are exact in tests. It knows nothing of sockets or wording: the
shell and the sessions decide what to say and whether to disconnect.
"""

from __future__ import annotations

import collections
import ipaddress
from collections.abc import Iterable

import attrs


@attrs.define
class TokenBucket:
    """`rate` tokens per second, at most `burst` saved up; one token per action."""

    rate: float
    burst: float
    tokens: float = attrs.field(default=-1.0)
    updated: float = 0.0

    def __attrs_post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def take(self, now: float) -> bool:
        """Spend a token if one is there (the action may proceed)."""
        elapsed = max(0.0, now - self.updated)
        self.updated = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@attrs.frozen
class Throttle:
    """The answer to a login attempt: wait `delay_seconds` first, or refuse outright."""

    delay_seconds: float = 0.0
    blocked_seconds: float = 0.0

    @property
    def blocked(self) -> bool:
        return self.blocked_seconds > 0


class LoginGuard:
    """Failed logins per key (an address or an account name): a growing delay after a few
    failures, then a temporary block. Failures older than `window_seconds` are forgotten."""

    def __init__(
        self, *, free_failures: int, block_after: int, block_seconds: float,
        window_seconds: float = 3600.0, max_delay_seconds: float = 8.0,
    ) -> None:
        self.free_failures = free_failures
        self.block_after = block_after
        self.block_seconds = block_seconds
        self.window_seconds = window_seconds
        self.max_delay_seconds = max_delay_seconds
        self._failures: dict[str, collections.deque[float]] = {}
        self._blocked_until: dict[str, float] = {}

    def _recent(self, key: str, now: float) -> collections.deque[float]:
        failures = self._failures.get(key)
        if failures is None:
            return collections.deque()
        while failures and failures[0] < now - self.window_seconds:
            failures.popleft()
        if not failures:
            del self._failures[key]
        return failures

    def check(self, keys: Iterable[str], now: float) -> Throttle:
        """How to treat the next attempt involving all of `keys`."""
        delay = blocked = 0.0
        for key in keys:
            until = self._blocked_until.get(key, 0.0)
            if until > now:
                blocked = max(blocked, until - now)
                continue
            self._blocked_until.pop(key, None)
            excess = len(self._recent(key, now)) - self.free_failures
            if excess >= 0:
                delay = max(delay, min(self.max_delay_seconds, 0.5 * 2**excess))
        return Throttle(delay_seconds=delay, blocked_seconds=blocked)

    def failed(self, keys: Iterable[str], now: float) -> None:
        for key in keys:
            failures = self._failures.setdefault(key, collections.deque())
            failures.append(now)
            if len(self._recent(key, now)) >= self.block_after:
                self._blocked_until[key] = now + self.block_seconds
                self._failures.pop(key, None)

    def succeeded(self, keys: Iterable[str]) -> None:
        for key in keys:
            self._failures.pop(key, None)


class WindowCounter:
    """Events per key within a sliding window (e.g. new accounts per address per hour)."""

    def __init__(self, *, limit: int, window_seconds: float) -> None:
        self.limit = limit
        self.window_seconds = window_seconds
        self._events: dict[str, collections.deque[float]] = {}

    def allowed(self, key: str, now: float) -> bool:
        events = self._events.get(key)
        if events is None:
            return self.limit > 0
        while events and events[0] <= now - self.window_seconds:
            events.popleft()
        if not events:
            del self._events[key]
            return self.limit > 0
        return len(events) < self.limit

    def record(self, key: str, now: float) -> None:
        self._events.setdefault(key, collections.deque()).append(now)


class ConnectionCounter:
    """Open connections per address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: collections.Counter[str] = collections.Counter()

    def try_open(self, address: str) -> bool:
        if self._open[address] >= self.limit:
            return False
        self._open[address] += 1
        return True

    def open_count(self, address: str) -> int:
        return self._open[address]

    def close(self, address: str) -> None:
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]


class NetworkAllowList:
    """Addresses allowed to connect; an empty list allows everyone."""

    def __init__(self, networks: Iterable[str]) -> None:
        self.networks = [ipaddress.ip_network(network, strict=False) for network in networks]

    def allows(self, address: str) -> bool:
        if not self.networks:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)
