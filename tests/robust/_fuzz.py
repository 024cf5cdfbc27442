"""Shared helpers for the robustness tests: how many examples, and what a good outcome is.

Every outcome of reading outside input is either success or a RulesError whose span lies
inside the file it names; never another exception, never a hang.
Set RULESDSL_FUZZ_EXAMPLES=N for long runs (default: a quick run of about a minute).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings

from rulesdsl.lang.errors import CheckFailed, RulesError

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))


def examples(default: int) -> int:
    """The number of examples per strategy: the default, or RULESDSL_FUZZ_EXAMPLES."""
    value = os.environ.get("RULESDSL_FUZZ_EXAMPLES")
    return int(value) if value else default


def fuzz_settings(default: int, shrink: bool = True):
    """Settings of a fuzzer; shrink=False where an example is a seed (shrinking a seed only
    gives another input, and a slow one takes minutes)."""
    phases = list(Phase) if shrink else [Phase.explicit, Phase.generate]
    return settings(max_examples=examples(default), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), phases=phases)


def span_inside(error: RulesError, sources: dict) -> None:
    """The error's span (if any) names a line and column inside the text it points into."""
    span = error.span
    if span is None:
        return
    text = sources.get(span.path)
    if text is None:
        try:
            text = Path(span.path).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            raise AssertionError(f"{error.code}: span names an unreadable file {span.path}")
    lines = text.split("\n")
    assert 1 <= span.line <= len(lines), (str(error), span, len(lines))
    assert 1 <= span.column <= len(lines[span.line - 1]) + 1, \
        (str(error), span, len(lines[span.line - 1]))


def check_outcome(path: Path, limit: float = 1.0):
    """check_path on a file: success (the model) or a RulesError with good spans; in time."""
    text = path.read_bytes().decode("utf-8", errors="replace")
    result, elapsed, cpu = _timed_check(path, text)
    tries = 1
    while elapsed >= limit and tries < 3:  # a hang repeats itself; a busy machine's hiccup not
        result, again, cpu_again = _timed_check(path, text)
        elapsed, cpu = min(elapsed, again), min(cpu, cpu_again)
        tries += 1
    # on a machine shared with other work the wall clock can lag far behind: a hang also
    # burns processor time, so the processor time decides when the wall clock is over
    assert elapsed < limit or cpu < limit, \
        f"parse and check took {elapsed:.2f}s ({cpu:.2f}s of processor time)"
    return result


def _timed_check(path: Path, text: str):
    from rulesdsl.engine.game import check_path
    t0 = time.perf_counter()
    c0 = time.process_time()
    try:
        result = check_path(path)
    except CheckFailed as e:
        elapsed = time.perf_counter() - t0
        assert e.errors, "CheckFailed without errors"
        keys = [x.sort_key() for x in e.errors]
        assert keys == sorted(keys), "errors are not sorted"
        for x in e.errors:
            assert isinstance(x, RulesError)
            span_inside(x, {str(path): text})
        result = e
    except RulesError as e:
        elapsed = time.perf_counter() - t0
        span_inside(e, {str(path): text})
        result = e
    else:
        elapsed = time.perf_counter() - t0
    return result, elapsed, time.process_time() - c0
