"""OpenSpiel: any game as a Python game registered with pyspiel (`rulesdsl[openspiel]`).

    import pyspiel
    import rulesdsl.integrations.openspiel          # registers every bundled game
    register("path/to/mine.rules")                   # any file: "rulesdsl_mine"
    game = pyspiel.load_game("rulesdsl_mine", {"players": 3})
    game = pyspiel.load_game("rulesdsl_mine(players=2,options=rounds:1)")

Parameters: `players` (default the game's fewest), `options` (the game's own options:
"k=v,k=v" in a parameter dict, "k:v;k:v" inside a game string), `amount_slots` and `seeds` (below), `max_game_length`.

Chance. The engine shuffles and draws with a seeded random generator inside the state;
its shuffles are not decisions. So the game is EXPLICIT_STOCHASTIC with one chance node,
the first: it picks the seed (uniformly among `seeds` outcomes, default 1024), and every
later shuffle follows from it. Nobody observes the outcome (no information state holds
it), which is what a shuffled deck is. This keeps OpenSpiel's history a complete record
(seed, then the players' actions: the same history gives the same state), so clone,
serialise and replay work unchanged; per-shuffle chance nodes would need the engine to
stop at each shuffle.

Actions and tensors are those of `rulesdsl.integrations.encoding`: the fixed action
space derived from the declarations, and the seat's view as numbers (observation tensor).
The information state tensor adds, per card identity, how many copies the seat has seen
move or be shown (no bounded tensor recalls everything in a game of unbounded length; the
information state string does: the seat's view with its whole log). Returns come at the
end: a sole winner +1, each loser -1/(n-1) (zero-sum).

`resample_from_infostate(player, sampler)` gives a state the player cannot tell from this
one, through the engine's `State.determinize(seat, seed)`: the seed is drawn from the
sampler. The resampled state keeps this state's OpenSpiel history (its actions are the
same; only hidden cards and the random generator differ).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Optional

import numpy as np
import pyspiel

import rulesdsl
from rulesdsl.integrations.encoding import ActionSpace, ObservationEncoder, win_returns
from rulesdsl.lang.resources import bundled_games

PREFIX = "rulesdsl_"
DEFAULT_SEEDS = 1024
DEFAULT_MAX_LENGTH = 100_000
_registered: dict = {}      # short name -> source


@functools.lru_cache(maxsize=64)
def _load(source: str, options: str) -> "rulesdsl.Game":
    return rulesdsl.load(source, parse_options(options))


def parse_options(text: str) -> dict:
    """'a=1,b=true' or, inside a game string, 'a:1;b:true' -> {'a': '1', 'b': 'true'}
    (the game checks the values)."""
    out = {}
    for part in filter(None, (p.strip() for p in re.split("[,;]", text or ""))):
        key, sep, value = part.replace(":", "=", 1).partition("=")
        if not sep:
            raise ValueError(f"an option is key=value or key:value, not '{part}'")
        out[key.strip()] = value.strip()
    return out


def _game_type(short_name: str, game: "rulesdsl.Game") -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"rulesdsl {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": game.min_players, "options": "",
                                 "amount_slots": 64, "seeds": DEFAULT_SEEDS,
                                 "max_game_length": DEFAULT_MAX_LENGTH})


def register(source: str, short_name: Optional[str] = None) -> str:
    """Register a bundled game's name or a .rules path; returns the name to load it by."""
    game = rulesdsl.load(source)
    short_name = short_name or PREFIX + game.source_name
    source = source if source in bundled_games() else str(Path(game.path).resolve())
    if short_name in _registered:
        if _registered[short_name] != source:
            raise ValueError(f"{short_name} is already registered for "
                             f"{_registered[short_name]}; pass another short_name")
        return short_name
    _registered[short_name] = source
    game_type = _game_type(short_name, game)
    # a class, not a closure: pyspiel keeps the factory until after the interpreter has
    # shut down, and freeing a function then aborts the process; a class is never freed
    factory = type(f"RulesGame_{game.source_name}", (RulesGame,),
                   {"GAME_TYPE": game_type, "SOURCE": source})
    pyspiel.register_game(game_type, factory)
    return short_name


class RulesGame(pyspiel.Game):
    """One game at one player count with its options fixed. `register` makes a subclass
    per game, with its GAME_TYPE and SOURCE, for pyspiel to call with the parameters."""

    GAME_TYPE = None
    SOURCE = ""

    def __init__(self, params=None, game_type=None, source: Optional[str] = None):
        game_type = game_type or self.GAME_TYPE
        source = source or self.SOURCE
        params = params or {}
        spec = game_type.parameter_specification
        values = {k: params.get(k, spec[k]) for k in spec}
        self.source = source
        self.options_text = str(values["options"])
        self.rules = _load(source, self.options_text)
        self.players = int(values["players"])
        self.seeds = int(values["seeds"])
        self.rules.new_game(self.players, seed=0)       # checks the player count
        prog = self.rules.program(self.players)
        self.actions = ActionSpace(prog, int(values["amount_slots"]))
        self.encoder = ObservationEncoder(prog, self.actions)
        n = self.players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=self.seeds,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=int(values["max_game_length"]))
        super().__init__(game_type, info, values)

    def new_initial_state(self):
        return RulesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return RulesObserver(self, perfect_recall)


class Held:
    """The engine state inside an OpenSpiel state: OpenSpiel deep-copies a Python state's
    attributes to clone it and pickles them to serialise it; this copies with
    `State.clone` and pickles as `to_json`, never the loaded game."""

    def __init__(self, game: RulesGame, state=None):
        self.game = game
        self.state = state
        self.legal = None          # (history length, {id: label}), computed once a step
        self.scores = None         # (history length, scores)
        self.logs: dict = {}       # seat -> its log lines so far (events only grow)
        self.seen: dict = {}       # seat -> (events counted, counts per card identity)

    def __deepcopy__(self, memo):
        out = Held(self.game, None if self.state is None else self.state.clone())
        out.logs = {seat: lines[:] for seat, lines in self.logs.items()}
        out.seen = {seat: (n, counts[:]) for seat, (n, counts) in self.seen.items()}
        return out

    def cards_seen(self, seat: int) -> list:
        """Per card identity, the copies the seat has seen move or be shown so far."""
        st = self.state
        actions = self.game.actions
        n, counts = self.seen.get(seat) or (0, [0] * len(actions.identities))
        for c in _cards_seen(st, seat, st.events[n:]):
            counts[actions.identity(st, c)] += 1  # a piece as it is now
        self.seen[seat] = (len(st.events), counts)
        return counts

    def current_scores(self) -> list:
        st = self.state
        if self.scores is None or self.scores[0] != len(st.history):
            self.scores = (len(st.history), st.scores)
        return self.scores[1]

    def log(self, seat: int) -> list:
        """The seat's log as `view(seat)["log"]` has it, rendered once per event."""
        st = self.state
        lines = self.logs.setdefault(seat, [])
        for e in st.events[len(lines):]:
            lines.append(st.render_log(e, seat))
        return lines

    def __reduce__(self):
        g = self.game
        text = None if self.state is None else self.state.to_json()
        return (_unpickle, (g.source, g.options_text, g.players,
                            g.actions.amount_slots, g.seeds, text))


def _unpickle(source, options, players, amount_slots, seeds, text):
    game_type = _game_type(PREFIX + _load(source, options).source_name, _load(source, options))
    game = RulesGame({"players": players, "options": options, "amount_slots": amount_slots,
                      "seeds": seeds}, game_type, source)
    state = None if text is None else rulesdsl.restore(game.rules, text)
    return Held(game, state)


class RulesState(pyspiel.State):
    """The chance node that picks the seed, then the game's decisions."""

    def __init__(self, game: RulesGame):
        super().__init__(game)
        self.held = Held(game)

    # ------------------------------------------------------------ whose turn
    def current_player(self):
        st = self.held.state
        if st is None:
            return pyspiel.PlayerId.CHANCE
        if st.is_over:
            return pyspiel.PlayerId.TERMINAL
        return st.to_move

    def is_terminal(self):
        st = self.held.state
        return st is not None and st.is_over

    def chance_outcomes(self):
        n = self.held.game.seeds
        return [(s, 1.0 / n) for s in range(n)]

    def _legal(self) -> dict:
        h = self.held
        if h.legal is None or h.legal[0] != len(h.state.history):
            h.legal = (len(h.state.history), h.game.actions.legal(h.state))
        return h.legal[1]

    def _legal_actions(self, player):
        st = self.held.state
        if st is None or st.is_over or player != st.to_move:
            return []
        return list(self._legal())

    def _apply_action(self, action):
        h = self.held
        if h.state is None:
            h.state = h.game.rules.new_game(h.game.players, seed=int(action))
            return
        label = self._legal().get(int(action))
        if label is None:
            raise pyspiel.SpielError(f"action {action} ({h.game.actions.describe(action)}) "
                                     "is not legal now")
        h.state.apply(label)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        st = self.held.state
        if st is not None and not st.is_over and player == st.to_move:
            label = self._legal().get(int(action))
            if label is not None:
                return label
        return self.held.game.actions.describe(int(action))

    def returns(self):
        st = self.held.state
        if st is None or not st.is_over:
            return [0.0] * self.held.game.players
        return win_returns(st.winners, self.held.game.players)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (`State.determinize`)."""
        out = self.clone()
        st = self.held.state
        if st is not None:
            seed = int(_draw(probability_sampler) * (1 << 31))
            out.held.state = st.determinize(int(player_id), seed)
            out.held.legal = None
            out.held.scores = None
            out.held.logs = {}
            out.held.seen = {}
        return out

    def __str__(self):
        st = self.held.state
        if st is None:
            return "(before the deal)"
        return f"seed {st.seed}: " + " | ".join(st.history)


def _draw(sampler) -> float:
    """A number in [0, 1) from an OpenSpiel probability sampler (or a plain callable)."""
    for call in (lambda: sampler(), lambda: sampler.__call__()):
        try:
            return float(call()) % 1.0
        except TypeError:
            continue
    return float(np.random.random())


class RulesObserver:
    """Strings and tensors from a seat's view (OpenSpiel's PyObserver interface)."""

    def __init__(self, game: RulesGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        size = game.encoder.size
        nid = len(game.actions.identities)
        self.tensor = np.zeros(size + (nid if perfect_recall else 0), np.float32)
        self.dict = {"view": self.tensor[:size]}
        if perfect_recall:
            self.dict["seen"] = self.tensor[size:]

    def set_from(self, state: RulesState, player: int):
        self.tensor.fill(0)
        st = state.held.state
        if st is None:
            return
        self.dict["view"][:] = self.game.encoder.encode(st, player,
                                                        state.held.current_scores())
        if self.perfect_recall:
            self.dict["seen"][:] = state.held.cards_seen(player)

    def string_from(self, state: RulesState, player: int) -> str:
        st = state.held.state
        if st is None:
            return f"P{player + 1}: before the deal"
        view = _view_without_log(st, player)
        if self.perfect_recall:
            view["log"] = state.held.log(player)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _view_without_log(st, seat: int) -> dict:
    """`st.view(seat)` less its log: the engine's own rules of what a seat sees, without
    rendering the whole log again at every step (the observer renders it incrementally)."""
    events = st.events
    st.events = []
    try:
        view = st.view(seat)
    finally:
        st.events = events
    del view["log"]
    return view


def _cards_seen(st, seat: int, events):
    """Every card the seat has seen move or be shown in these events, once per event."""
    for e in events:
        if isinstance(e, str):
            continue
        if e[0] == "move" and (st.can_see(e[2], seat) or st.can_see(e[3], seat)):
            yield from e[1]
        elif e[0] == "reveal" and (len(e) < 4 or seat in e[3] or
                                   (e[2] >= 0 and st.can_see(e[2], seat))):
            yield from e[1]


def register_all() -> list:
    """Register every bundled game as rulesdsl_<name>; returns the names."""
    names = []
    for name in bundled_games():
        names.append(register(name))
    return names


register_all()
