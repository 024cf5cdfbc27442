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


def states(path, count=3, seed=0, tries=10, steps=(0, 100), twin=None):
    """`count` positions of random games, with more than one action to choose from; with
    `twin(state, mover, rnd)`, (state, its twin) where the twin is not None."""
    game = rulesdsl.load(path)
    rnd = random.Random(f"{Path(path).stem}:{seed}")
    found = 0
    for _ in range(count * tries):
        if found == count:
            return
        players = rnd.randint(game.min_players, min(game.max_players, 4))
        st = game.new_game(players=players, seed=rnd.randrange(1 << 30))
        for _ in range(rnd.randrange(*steps)):
            if st.is_over:
                break
            st.apply(rnd.choice(st.legal_actions()))
        if st.is_over or len(st.legal_actions()) < 2:
            continue
        w = None if twin is None else twin(st, st.to_move, rnd)
        if twin is None or w is not None:
            found += 1
            yield st if twin is None else (st, w)


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


# ------------------------------------------------ the log's secrets, not only the hands'
# `determinize` deals the hidden cards again but keeps the log, which holds the real cards
# of every move and private look. A search that reads another seat's view of that log (to
# model what that seat knows) must not learn from it what the mover never saw: here two
# hidden cards change places everywhere, the log included, and nothing may change.

CARDS_AT = {"move": 1, "reveal": 1, "fact": 2, "play": 2, "named": 2, "cancelled": 1}


def _swap_in_event(e, a: int, b: int):
    at = CARDS_AT.get(e[0]) if not isinstance(e, str) else None
    if at is None or at >= len(e):
        return e
    x = e[at]
    swap = {a: b, b: a}
    x = tuple(swap.get(c, c) for c in x) if isinstance(x, tuple) else swap.get(x, x)
    return e[:at] + (x,) + e[at + 1:]


def _hidden_in_log(s, p: int) -> set:
    """Cards the log names in events the mover did not see in full."""
    out = set()
    for e in s.events:
        at = CARDS_AT.get(e[0]) if not isinstance(e, str) else None
        if at is not None and at < len(e) and s.render_log(e, p) != s.render_log(e):
            x = e[at]
            out.update(x if isinstance(x, tuple) else (x,))
    return out


def _swapped_world(s, p: int, rnd):
    """A copy of `s` in which two cards `p` cannot see, at least one of them named in a
    part of the log `p` did not see, have changed places, in the zones and in the log;
    None if the state offers no such pair."""
    from rulesdsl.engine.journal import EventLog
    hidden = [c for zi, z in enumerate(s.zones) if not s.can_see(zi, p) for c in z]
    named = _hidden_in_log(s, p)
    held = {x for f in s.frames for x in f[2] if isinstance(x, int)} | \
        {x for x in s.vars if isinstance(x, int)}
    label = s.prog.card_label
    pairs = [(a, b) for a in hidden if a in named and a not in held for b in hidden
             if b not in held and s.loc[b] != s.loc[a] and label[a] != label[b]]
    if not pairs:
        return None
    a, b = rnd.choice(pairs)
    w = s.clone()
    za, zb = w.loc[a], w.loc[b]
    w.zones[za][w.zones[za].index(a)] = b
    w.zones[zb][w.zones[zb].index(b)] = a
    w.loc[a], w.loc[b] = zb, za
    for zi in (za, zb):
        if w.prog.zone_unordered[zi]:
            w.zones[zi].sort()
    w._events = EventLog([_swap_in_event(e, a, b) for e in s.events])
    w.pending = None
    w.changed_outside_apply()
    return w if w.view(p) == s.view(p) else None


def log_states(path, count=3):
    """Positions of random games at which a private look or a hidden move lies in the log,
    each with its twin of two hidden cards swapped."""
    return states(path, count, "log", tries=12, steps=(5, 120), twin=_swapped_world)


def analysis(seed, state):
    a = make_agent("ismcts", seed, **AGENTS["ismcts"])
    chosen = a.choose(state).label
    return chosen, a.analysis


@pytest.mark.parametrize("path", GAMES, ids=lambda p: Path(p).stem)
def test_the_search_learns_nothing_from_the_log_the_mover_did_not_see(path):
    for i, (s, w) in enumerate(log_states(path)):
        assert analysis(10 + i, s) == analysis(10 + i, w)
        for name in ("random", "greedy"):
            assert choice(name, 10 + i, s) == choice(name, 10 + i, w)


def test_a_hand_looked_at_in_private_stays_private():
    """Love Letter, 3 players: P2 looked at P3's hand (a priest); P1's search, which deals
    the cards again as P2 would see them, must not learn which card P2 saw (it did until
    a seat's view of the log was taken only as far as the searcher saw it too)."""
    path = str(ROOT / "examples" / "love_letter.rules")
    game = rulesdsl.load(path)
    tried = 0
    for seed in range(400):
        st = game.new_game(players=3, seed=seed)
        rnd = random.Random(seed)
        for _ in range(60):
            if st.is_over:
                break
            looks = [e for e in st.events if not isinstance(e, str) and e[0] == "reveal"
                     and len(e) > 3 and 0 not in e[3] and e[2] >= 0
                     and not st.can_see(e[2], 0) and st.loc[e[1][0]] == e[2]]
            if looks and st.to_move == 0 and len(st.legal_actions()) > 1:
                break
            st.apply(rnd.choice(st.legal_actions()))
        else:
            continue
        if st.is_over or not looks:
            continue
        w = _swapped_world(st, 0, rnd)
        if w is None:
            continue
        assert analysis(seed, st) == analysis(seed, w)
        tried += 1
        if tried == 4:
            return
    assert tried == 4
