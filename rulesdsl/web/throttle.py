"""Rate limits of the server: games a client address makes, messages a page sends.

Both are token buckets: a burst at once, then one more every so often. A game costs a
room in memory, a row in the store and, with computer seats, searches; a message costs
a look at the game and often a broadcast: a page (or a script posing as one) that sends
without end must not take the server from everyone else."""

from __future__ import annotations

import math
import time
from typing import Callable, Optional

import attrs

KEEP_ADDRESSES = 10_000   # buckets of client addresses kept; full (idle) ones go first


@attrs.frozen
class Limits:
    """How much a client may ask; a rate of 0 lifts that limit (a load test on loopback,
    the tests' scripted players)."""

    games_per_minute: float = 6.0
    games_burst: int = 10
    messages_per_second: float = 10.0
    messages_burst: int = 30


class Bucket:
    """`burst` tokens at once, refilled at `rate` a second; a request takes one."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.when = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now

    def take(self) -> float:
        """0 when the request may go on (a token taken), else the seconds until it may."""
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class PerAddress:
    """A bucket for each client address, the number of addresses kept bounded."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.buckets: dict = {}

    def take(self, address: str) -> float:
        if self.rate <= 0:
            return 0.0
        bucket = self.buckets.get(address)
        if bucket is None:
            self._forget_idle()
            bucket = self.buckets[address] = Bucket(self.rate, self.burst, self.clock)
        return bucket.take()

    def _forget_idle(self) -> None:
        if len(self.buckets) < KEEP_ADDRESSES:
            return
        for address in [a for a, b in self.buckets.items() if b.full]:
            del self.buckets[address]
        while len(self.buckets) >= KEEP_ADDRESSES:          # all busy: the oldest goes
            del self.buckets[next(iter(self.buckets))]


class Pace:
    """A page's messages at the pace of `limits`: past it, one message says to wait and
    the rest are dropped unread until the page slows down."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.bucket = Bucket(limits.messages_per_second, limits.messages_burst)
        self.told = False       # the page was told; nothing more until it slows down

    def refusal(self) -> Optional[str]:
        """None when the message may be read; else what to tell the page: a sentence
        the first time one is dropped, "" for the ones after it."""
        wait = self.bucket.take() if self.limits.messages_per_second > 0 else 0.0
        if not wait:
            self.told = False
            return None
        if self.told:
            return ""
        self.told = True
        return (f"Too many messages from this page (at most "
                f"{self.limits.messages_per_second:g} a second): that one was not read. "
                f"Wait {wait_text(wait)} and try again.")


def wait_text(seconds: float) -> str:
    """'1 s', '25 s', '2 min' for a person to wait."""
    if seconds < 90:
        return f"{max(1, math.ceil(seconds))} s"
    return f"{math.ceil(seconds / 60)} min"
