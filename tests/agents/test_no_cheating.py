"""No agent peeks: on the real state and on any state sampled from the mover's knowledge,
a fresh agent with the same seed picks the same action. Small iteration budgets (never
time) keep it quick and reproducible."""

import random
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.agents import make_agent

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(str(p) for p in (ROOT / "games").glob("*.rules")) + \
    sorted(str(p) for p in (ROOT / "examples").glob("*.rules"))
AGENTS = {
    "random": {},
    "greedy": {},
    "ismcts": {"iterations": 24, "seconds": None, "playout_cap": 20},
}


def states(path, count=3, seed=0):
    game = rulesdsl.load(path)
    rnd = random.Random(f"{Path(path).stem}:{seed}")
    found = 0
    for _ in range(count * 10):
        if found == count:
            return
        players = rnd.randint(game.min_players, min(game.max_players, 4))
        st = game.new_game(players=players, seed=rnd.randrange(1 << 30))
        for _ in range(rnd.randrange(0, 100)):
            if st.is_over:
                break
            st.apply(rnd.choice(st.legal_actions()))
        if not st.is_over and len(st.legal_actions()) > 1:
            found += 1
            yield st


def choice(name, seed, state):
    return make_agent(name, seed, **AGENTS[name]).choose(state).label


@pytest.mark.parametrize("name", sorted(AGENTS))
@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_agents_choose_from_what_the_mover_knows(path, name):
    seen = 0
    for i, s in enumerate(states(path)):
        p = s.to_move
        for k in (1, 2):
            d = s.determinize(p, k)
            assert choice(name, 10 + i, s) == choice(name, 10 + i, d)
        seen += 1
    assert seen


class Peeker:
    """Picks by the real hidden cards: the property above must catch it."""

    def choose(self, state):
        acts = state.legal_actions()
        hidden = [c for zi, z in enumerate(state.zones)
                  if not state.can_see(zi, state.to_move) for c in z]
        return acts[hash(tuple(hidden)) % len(acts)]


def test_the_property_catches_an_agent_that_peeks():
    differ = 0
    for path in GAMES:
        for s in states(path, count=2, seed=1):
            d = s.determinize(s.to_move, 1)
            differ += Peeker().choose(s).label != Peeker().choose(d).label
    assert differ
