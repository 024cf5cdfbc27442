"""Errors cross process boundaries whole (a worker process choosing for the browser table,
a simulation's workers): pickled and back, a RulesError keeps its class and every field."""

import pickle

import pytest

import rulesdsl
from rulesdsl.lang.errors import CheckFailed, IllegalAction, RulesError, RuntimeRulesError


def _round_trip(error):
    return pickle.loads(pickle.dumps(error))


def test_a_rules_error_keeps_its_fields_and_class():
    error = RuntimeRulesError("R013", "none has no field 'value'", None,
                              ["give it a value first"], ["main", "turn"])
    back = _round_trip(error)
    assert type(back) is RuntimeRulesError
    assert (back.code, back.message, back.hints, back.trace) == \
        ("R013", "none has no field 'value'", ("give it a value first",), ("main", "turn"))
    assert str(back) == str(error)


def test_an_illegal_action_keeps_its_hints():
    back = _round_trip(IllegalAction("'a9' is not one of the options", ["try 'a1'"]))
    assert type(back) is IllegalAction and back.code == "A001" and back.hints == ("try 'a1'",)


def test_a_failed_check_keeps_every_error_with_its_place_but_not_the_model(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text('game "Bad"\nplayers 2\nflow main\nphase main { set nothing = 1 }\n')
    with pytest.raises(CheckFailed) as caught:
        rulesdsl.load(str(path))
    back = _round_trip(caught.value)
    assert type(back) is CheckFailed and back.model is None
    assert [str(e) for e in back.errors] == [str(e) for e in caught.value.errors]
    assert back.span == caught.value.span and str(back) == str(caught.value)


def test_an_error_raised_in_another_process_arrives_whole():
    from concurrent.futures import ProcessPoolExecutor
    import multiprocessing
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        with pytest.raises(RulesError) as caught:
            pool.submit(_raise, "C019").result()
    assert caught.value.code == "C019" and caught.value.hints == ("load it again",)


def _raise(code):
    raise RulesError(code, "the file changed", None, ["load it again"])
