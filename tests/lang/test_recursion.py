"""Definitions that call themselves, bounded by depth (R004) and by the step limit (R003).
(A definition without parameters that uses itself is still E602: it could never end;
tests/lang/check/errors_structure.txt.) The countdown below was E602 before recursion."""

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError

PROGRAM = """game "T"
players 2
define countdown(n: int) = if n == 0 then 0 else countdown(n - 1)
define steps(n: int) = if n <= 1 then 0 else 1 + steps(if n % 2 == 0 then n / 2 else 3 * n + 1)
define fib(n: int) = if n < 2 then n else fib(n - 1) + fib(n - 2)
define forever(n: int) = forever(n + 1)
define even(n: int) = if n == 0 then true else odd(n - 1)
define odd(n: int) = if n == 0 then false else even(n - 1)
flow main
phase main {{
  {body}
  win seat(0)
}}
"""


def run(tmp_path, body: str, **load):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(body=body))
    return rulesdsl.load(path, **load).new_game(2)


def test_a_definition_may_call_itself(tmp_path):
    s = run(tmp_path, 'log "{countdown(3)} {steps(6)} {fib(15)} {even(10)} {odd(7)}"')
    assert s.log[0] == "0 8 610 true true"


def test_too_deep_is_an_error_not_a_crash(tmp_path):
    with pytest.raises(RulesError) as e:
        run(tmp_path, 'log "{countdown(500)}"')
    assert e.value.code == "R004" and "more than 100 deep" in e.value.message
    with pytest.raises(RulesError) as e:
        run(tmp_path, 'log "{forever(0)}"')
    assert e.value.code == "R004"


def test_too_many_calls_stop_at_the_step_limit(tmp_path):
    with pytest.raises(RulesError) as e:
        run(tmp_path, 'log "{fib(25)}"', step_limit=10_000)
    assert e.value.code == "R003" and "10,000" in e.value.message
    assert run(tmp_path, 'log "{fib(25)}"', step_limit=1_000_000).log[0] == "75025"


def test_the_type_comes_from_the_branch_that_does_not_recurse(tmp_path):
    path = tmp_path / "t.rules"
    path.write_text(PROGRAM.format(body='let k: bool = steps(6)'))
    with pytest.raises(RulesError) as e:
        rulesdsl.load(path)
    assert "should be true/false, but this is a number" in str(e.value)


def test_the_documented_example_runs(tmp_path):
    path = tmp_path / "t.rules"
    path.write_text('game "T"\nplayers 2\nboard Cell grid 5 x 1\n'
                    'var disc: player per Cell = none\n'
                    'define chain(c: Cell, d: Direction) = let n = neighbour(c, d) in\n'
                    '    if n == none or disc[n] == none then 0 else 1 + chain(n, d)\n'
                    'flow main\nphase main {\n  set disc[b1] = seat(0)\n  set disc[c1] = seat(1)\n'
                    '  log "{chain(a1, east)} {chain(d1, west)} {chain(e1, east)}"\n'
                    '  win seat(0)\n}\n')
    assert rulesdsl.check_file(path) == []
    assert rulesdsl.load(path).new_game(2).log[0] == "2 2 0"
