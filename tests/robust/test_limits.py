"""Every limit of rulesdsl/lang/limits.py has its row in docs/language.md ("Limits"), and
lowered through RULESDSL_LIMITS it ends in the documented error code (issue 20)."""

from __future__ import annotations

import re

import pytest

import rulesdsl
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.limits import LIMITS
from _fuzz import ROOT
from test_hostile import HEAD

DOC = (ROOT / "docs" / "language.md").read_text()


def doc_rows() -> dict:
    section = DOC[DOC.index("## Limits"):DOC.index("## Scenarios")]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[1].startswith("`"):
            rows[cells[1].strip("`")] = (cells[2], cells[3])
    return rows


def test_every_limit_has_its_documented_row():
    rows = doc_rows()
    assert sorted(rows) == sorted(LIMITS)
    for name, lim in LIMITS.items():
        assert rows[name] == (f"{lim.default:,}", lim.code or "none"), name


# a file that passes each limit once it is lowered to the value given
TRIGGERS = {
    "file_bytes": ("10", "phase main { }\n", "check"),
    "source_chars": ("100", "phase main { }\n", "check"),
    "nesting": ("20", "phase main {\n  set n = " + " + ".join(["1"] * 30) + "\n}\n", "check"),
    "steps": ("1000", "phase main {\n  for k in 1..3000 {\n    set n = k\n  }\n}\n", "run"),
    "work": ("1000", "phase main {\n  set n = sum(1..5000)\n}\n", "run"),
    "moves": ("10", "deck stock { 20 x card(1) }\nphase main {\n  move stock to "
              "table\n}\n", "run"),
    "list_length": ("10", "var xs: list of int = [1]\nphase main {\n"
                    "  set xs = [1, 2, 3, 4, 5, 6] + [1, 2, 3, 4, 5, 6]\n}\n", "run"),
    "text_length": ("10", 'phase main {\n  log "{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}{n}"\n}\n', "run"),
    "cards": ("10", "deck stock { 20 x card(1) }\nphase main { }\n", "run"),
    "instances": ("10", "zone heap per player per player per player\nphase main { }\n",
                  "check"),
    "card_labels": ("100", "deck stock { 200 x card(1) }\nphase main { }\n", "check"),
    "long_texts": ("2000", 'phase main {\n  ask seat(0) "which?" {\n    "' + "x" * 1200 +
                   '{k}" for k in players { }\n  }\n}\n', "run"),
}
# limits past which the engine takes a slower way rather than stopping
FALLBACKS = {"generated_code"}


@pytest.mark.parametrize("name", sorted(set(LIMITS) - FALLBACKS))
def test_each_limit_ends_in_its_documented_code(name, tmp_path, monkeypatch):
    value, body, stage = TRIGGERS[name]
    path = tmp_path / "limit.rules"
    path.write_text(HEAD + body)
    rulesdsl.load(path).new_game(players=2, seed=1)  # fine at the default
    monkeypatch.setenv("RULESDSL_LIMITS", f"{name}={value}")
    with pytest.raises(RulesError) as info:
        rulesdsl.load(path).new_game(players=2, seed=1)
    assert info.value.code == doc_rows()[name][1], str(info.value)
    assert re.search(r"RULESDSL_LIMITS|limit|split|fewer", str(info.value))


def test_a_bad_limits_variable_is_a_clear_error(monkeypatch):
    for bad in ("nothing=3", "work=-1", "work=lots", "work=" + "9" * 5000):
        monkeypatch.setenv("RULESDSL_LIMITS", bad)
        with pytest.raises(RulesError) as info:
            rulesdsl.load("triumvirat").new_game(seed=1)
        assert info.value.code == "C014"


DEEP = {
    "chained +": "phase main {\n  set n = " + " + ".join(["1"] * 600) + "\n}\n",
    "chained and": "phase main {\n  if " + " and ".join(["true"] * 600) + " {\n  }\n}\n",
    "unary -": "phase main {\n  set n = " + "-" * 600 + "1\n}\n",
    "unary not": "phase main {\n  if " + "not " * 600 + "true {\n  }\n}\n",
    "nested if": "phase main {\n" + "if true {\n" * 300 + "}\n" * 300 + "}\n",
    "nested lists": "var xs: list of int = []\nphase main {\n  set xs = " + "[" * 300 +
                    "]" * 300 + "\n}\n",
    "in a string": 'phase main {\n  log "{' + "-" * 600 + '1}"\n}\n',
}


@pytest.mark.parametrize("what", sorted(DEEP))
def test_deep_nesting_is_a_clear_error_not_a_recursion_error(what, tmp_path):
    path = tmp_path / "deep.rules"
    path.write_text(HEAD + DEEP[what])
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(path)
    assert info.value.code == "E106", str(info.value)
    assert info.value.span.line >= 9


def test_a_scenario_nested_100000_deep_is_a_clear_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RulesError) as info:
        rulesdsl.load("triumvirat").new_game(seed=1, scenario=str(path))
    assert info.value.code == "S002"


def test_past_the_generated_code_limit_the_closures_run_the_game(monkeypatch):
    generated = rulesdsl.load("ivanhoe").new_game(players=3, seed=4)
    assert generated.prog.generated  # ivanhoe generates about 200,000 characters
    monkeypatch.setenv("RULESDSL_LIMITS", "generated_code=1000")
    with pytest.warns(RuntimeWarning, match="generated_code"):
        closures = rulesdsl.load("ivanhoe").new_game(players=3, seed=4)
    assert not closures.prog.generated
    for _ in range(60):  # the same game either way
        if generated.is_over:
            break
        assert [a.label for a in closures.legal_actions()] == \
            [a.label for a in generated.legal_actions()]
        label = generated.legal_actions()[-1].label
        generated.apply(label)
        closures.apply(label)
    assert closures.log == generated.log
