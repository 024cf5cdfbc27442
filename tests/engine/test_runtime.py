"""engine/runtime: the rules' runtime, written once, is what both engines run."""

from __future__ import annotations

import pytest

from rulesdsl.engine.compile import source
from rulesdsl.engine.runtime import cards, errors
from rulesdsl.engine.state import machine
from rulesdsl.lang.errors import RulesError
from test_generated import load


def failure(tmp_path, monkeypatch, engine: str, body: str) -> RulesError:
    st = load(tmp_path, body, engine, monkeypatch).new_game(seed=1)
    with pytest.raises(RulesError) as info:
        st.apply("go")
    return info.value


@pytest.mark.parametrize("body", [
    # a variable, and a local, grown past 2^53 by `+=`
    "phase main {\n  ask seat(0) \"go\" { \"go\" { } }\n  set n += 9007199254740992\n"
    "  set n += 9007199254740992\n  win seat(0)\n}\n",
    "phase main {\n  ask seat(0) \"go\" { \"go\" { } }\n  let k = 9007199254740992\n"
    "  set k += 9007199254740992\n  win seat(0)\n}\n",
])
def test_an_overflow_reads_the_same_in_both_engines(tmp_path, monkeypatch, body):
    got = {engine: failure(tmp_path, monkeypatch, engine, body)
           for engine in ("generated", "closures")}
    assert {(e.code, e.message, e.hints, e.span.line) for e in got.values()} == {
        ("R030", "a number grew past 9007199254740992", ("numbers stay within -2^53..2^53",),
         got["generated"].span.line)}


def test_both_engines_call_the_one_runtime():
    # one card's move and the error helpers the generated code calls are the runtime's
    assert source.HELPERS["_move_card"] is cards.move_card is machine.move_card
    assert source.HELPERS["_none_field"] is errors.none_field
    assert source.HELPERS["_too_big"] is errors.too_big
