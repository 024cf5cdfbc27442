"""Scenarios from outside: any JSON either applies (every card still once, play goes on) or
gives a clear RulesError (S002, or A00x for a bad zone or variable name); never a crash and
never a half-applied scenario."""

from __future__ import annotations

import json
import random

from hypothesis import given, strategies as st

from _fuzz import fuzz_settings
import rulesdsl
from rulesdsl.lang.errors import RulesError

GAME = rulesdsl.load("triumvirat")
BASE = GAME.new_game(players=2, seed=5)
LABELS = sorted(set(BASE.prog.card_label))
ZONES = sorted(GAME.program(2).zones)
VARS = sorted(GAME.program(2).vars)

ZONE_NAME = st.one_of(st.sampled_from(ZONES),
                      st.sampled_from(ZONES).map(lambda z: f"{z}[P1]"),
                      st.sampled_from(ZONES).map(lambda z: f"{z}[P9]"),
                      st.text(max_size=8))
VALUE = st.one_of(st.none(), st.booleans(), st.integers(-10, 10), st.integers(),
                  st.text(max_size=6), st.sampled_from(["P1", "P2", "red", "none"]),
                  st.lists(st.integers(0, 3), max_size=3))
LABEL_LIST = st.lists(st.one_of(st.sampled_from(LABELS), st.text(max_size=5), st.integers()),
                      max_size=12)
SCENARIO = st.fixed_dictionaries({}, optional={
    "zones": st.one_of(st.dictionaries(ZONE_NAME, LABEL_LIST, max_size=3), VALUE),
    "vars": st.one_of(st.dictionaries(st.one_of(st.sampled_from(VARS),
                                                st.sampled_from(VARS).map(lambda v: f"{v}[P1]"),
                                                st.text(max_size=6)), VALUE, max_size=3),
                      VALUE),
    "displaced_to": st.one_of(st.sampled_from(ZONES), st.text(max_size=5), VALUE),
    "extra": VALUE,
})


@fuzz_settings(300)
@given(scenario=SCENARIO, as_file=st.booleans(), cut=st.integers(0, 200))
def test_scenarios_apply_or_fail_clearly(tmp_path_factory, scenario, as_file, cut):
    given_ = scenario
    if as_file:
        text = json.dumps(scenario)
        if cut < len(text) and cut % 3 == 0:
            text = text[:cut]  # a file cut short
        path = tmp_path_factory.mktemp("sc") / "scenario.json"
        path.write_text(text)
        given_ = str(path)
    try:
        state = GAME.new_game(players=2, seed=5, scenario=given_)
    except RulesError as e:
        # S/A: the scenario is refused; R: it set up a position the rules cannot run from
        # (a variable set to none), and the error names the rule
        assert e.code[0] in "SA" or (e.code[0] == "R" and e.span is not None), str(e)
        return
    ncards = len(state.prog.card_label)
    assert sorted(c for z in state.zones for c in z) == list(range(ncards))
    pick = random.Random(1)
    for _ in range(10):
        if state.is_over:
            break
        actions = state.legal_actions()
        try:
            state.apply(actions[pick.randrange(len(actions))])
        except RulesError as e:  # a scenario may set up a position the rules reject
            assert e.code.startswith("R"), str(e)
            break
