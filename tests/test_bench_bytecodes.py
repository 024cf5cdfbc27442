"""benchmarks/bytecodes.py: the bytecodes and calls it counts are exact (a straight-line
function executes each of its instructions once) and the same in every run, so the ratio
of two trees is free of the machine's noise."""

import dis
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bytecodes import Counter  # noqa: E402

SCRIPT = ROOT / "benchmarks" / "bytecodes.py"


def straight_line(x):
    y = x + 1
    return y * 2


def test_it_counts_each_instruction_of_the_frames_it_runs_and_not_the_callers():
    counter = Counter()
    assert counter.run(straight_line, 3) == 8
    # RESUME starts the frame: the tracer sees it as the call, not as an instruction
    body = [i for i in dis.get_instructions(straight_line) if i.opname != "RESUME"]
    assert counter.bytecodes == len(body)
    assert counter.calls == 1


def test_it_puts_back_the_tracer_that_was_set():
    def tracer(frame, event, arg):
        return None
    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        Counter().run(straight_line, 1)
        assert sys.gettrace() is tracer
    finally:
        sys.settrace(before)


def counted(*extra):
    out = subprocess.run([sys.executable, str(SCRIPT), "--game", "connect_four", "--games", "2",
                          "--json", *extra], capture_output=True, text=True, check=True).stdout
    [row] = json.loads(out)["rows"]
    return row


def test_two_runs_count_the_same_and_a_tree_against_itself_is_one():
    first = counted()
    second = counted("--engine-root", str(ROOT))
    assert first["actions"] > 0 and first["bytecodes"] > 0 and first["calls"] > 0
    figures = {k: first[k] for k in ("actions", "bytecodes", "calls")}
    assert {k: second[k] for k in figures} == figures
    assert second["old"] == figures
