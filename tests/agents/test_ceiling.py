"""The skill-ceiling probe (benchmarks/ceiling.py): its `oracle` seat searches the true
position, and only while it chooses, so the other seats at the table stay honest."""

import sys
from pathlib import Path

import rulesdsl
import rulesdsl.agents.ismcts as ismcts

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import ceiling  # noqa: E402


def test_the_oracle_samples_the_true_position_and_only_while_it_chooses():
    st = rulesdsl.load(str(ROOT / "examples/crazy_eights.rules")).new_game(players=2, seed=3)
    seen = []
    honest = ismcts.Knowledge

    class Spy(ceiling.Oracle):
        def _iterate(self, roots, sample, *rest):
            seen.append([list(z) for z in sample.zones])  # before play
            return super()._iterate(roots, sample, *rest)

    spy = Spy(1, iterations=8, secrets=False)
    spy.choose(st)
    assert seen and all(z == st.zones for z in seen)  # every hand as dealt
    assert ismcts.Knowledge is honest


def test_oracle_specs_take_the_search_settings_and_other_seats_stay_the_gauntlets():
    game = rulesdsl.load(str(ROOT / "examples/crazy_eights.rules"))
    oracle = ceiling.make_seat("oracle:iterations=30", game, 2)
    assert isinstance(oracle, ceiling.Oracle)
    assert oracle.iterations == 30 and not oracle.secrets
    assert type(ceiling.make_seat("greedy", game, 2)).__name__ == "GreedyAgent"


def test_open_hands_see_every_hand_but_not_the_stocks_order():
    st = rulesdsl.load(str(ROOT / "examples/crazy_eights.rules")).new_game(players=2, seed=3)
    seen = []

    class Spy(ceiling.OpenHands):
        def _iterate(self, roots, sample, *rest):
            seen.append([list(z) for z in sample.zones])
            return super()._iterate(roots, sample, *rest)

    Spy(1, iterations=8, secrets=False).choose(st)
    stock = next(zi for zi, z in enumerate(st.zones) if len(z) > 10)
    hands = [zi for zi in range(len(st.zones)) if zi != stock]
    assert all(all(z[zi] == st.zones[zi] for zi in hands) for z in seen)
    assert all(sorted(z[stock]) == sorted(st.zones[stock]) for z in seen)
    assert any(z[stock] != st.zones[stock] for z in seen)
