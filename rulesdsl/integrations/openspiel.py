"""OpenSpiel: any game as a Python game registered with pyspiel (`rulesdsl[openspiel]`).

    import pyspiel
    import rulesdsl.integrations.openspiel          # registers "rulesdsl" and the bundled games
    game = pyspiel.load_game("rulesdsl(game=path/to/mine.rules,players=3)")
    register("path/to/mine.rules")                   # the same, also as "rulesdsl_mine"
    game = pyspiel.load_game("rulesdsl_mine(players=2,options=variant:true)")

Parameters: `game` (a bundled name or a .rules path; "rulesdsl" only), `players` (default
the game's fewest), `options` (the game's own options: "k=v,k=v" in a parameter dict,
"k:v;k:v" inside a game string), `amount_slots`, `chance`, `seeds` and `zero_sum`
(below), `max_game_length`, `recall` (below). A game loaded from a file names it in its game string, with the digest
of its rules text (`digest`): the string loads the same game in another process (one that
has imported this module), or says the file changed since.

Chance. A game whose reachable rules hold no shuffle, roll or `random` is DETERMINISTIC:
no chance node. Any other is EXPLICIT_STOCHASTIC. With `chance=explicit` (the default)
each random event is a chance node where it happens (engine/state/chance.py): a card drawn
from a shuffled pile nobody sees, as it is drawn (state/piles.py), a pile somebody sees
card by card at its shuffle (alike cards one outcome, by their number), a roll over its
faces, a random pick over its places; a card's outcome has its identity's id, a number an
id after them (`ChanceOutcomes`). With `chance=seed` the one chance node is the first: it picks the seed
of the engine's generator (uniformly among `seeds` outcomes, default 1024), and every
later random event follows from it. Either way the history is a complete record: the same
history gives the same state.
A deterministic game in which every zone, variable and score is public and no choice is
secret is PERFECT_INFORMATION (alpha-beta and other perfect-information algorithms take
it); every other game is IMPERFECT_INFORMATION.

Actions and tensors are those of `rulesdsl.integrations.encoding`. The observation tensor
is the seat's view as numbers (bounded). The information state tensor adds, per card
identity, the copies the seat has seen move or be shown, and the seat's record of the
first `recall` steps (default 64), each: who acted, the action id where the seat saw it
(else a "hidden" mark), and the cards the seat saw move during it; within `recall` steps
two information states never share a tensor. The information state string is the view
with the seat's record of every step and its log. Observers honour `IIGObservationType`:
`private_info` NONE shows only what is public, SINGLE_PLAYER the seat's own view (the
default), ALL_PLAYERS everything; `public_info=False` leaves the public part out.

Returns come at the end: `State.payoffs`, the file's `payoff` where it declares one
(GENERAL_SUM, ZERO_SUM where the file declares it `zero-sum` or the game string says
`zero_sum=true`, every return then checked (C022), or IDENTICAL in a cooperative game), else by who won: a sole winner +1,
each loser -1/(n-1), a draw 0 (ZERO_SUM); a cooperative or one-player game +1 each won, -1
each lost (IDENTICAL; GENERAL_SUM for one player).

`resample_from_infostate(player, sampler)` gives a state the player cannot tell from this
one, through the engine's `State.determinize(seat, seed)`: the seed is drawn from the
sampler. The resampled state keeps this state's OpenSpiel history.
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
from rulesdsl.engine.payoffs import checked_zero_sum
from rulesdsl.engine.runtime.numbers import MAX_INT
from rulesdsl.integrations.declared import hides_anything, is_deterministic
from rulesdsl.integrations.encoding import (ActionSpace, ObservationEncoder, cards_seen,
                                            sighted_view)
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.resources import bundled_games

GENERIC = "rulesdsl"
PREFIX = "rulesdsl_"
DEFAULT_SEEDS = 1024
CHANCE_MODES = ("explicit", "seed")
MIN_CHANCE_NUMBERS = 64     # a roll's faces and a random pick's places have ids up to here
DEFAULT_MAX_LENGTH = 100_000
DEFAULT_RECALL = 64
MAX_PLAYERS = 64
_registered: dict = {}      # short name -> source
# characters that would end a value inside a game string "name(k=v,k=v)"
_STRING_SYNTAX = re.compile(r"[,;=()\s]")


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


def travelling_source(source: str) -> str:
    """A bundled game's name as it is; a rules file's absolute path, which a game string
    can carry: refused (C018) where it is not a .rules file or holds what would end a value
    in a game string."""
    if source in bundled_games():
        return source
    path = str(Path(source).resolve())
    if not path.endswith(".rules"):
        raise RulesError("C018", f"a game string names a rules file, and '{source}' is not "
                         "a .rules file", None, ["give the file the .rules suffix"])
    if _STRING_SYNTAX.search(path):
        raise RulesError("C018", f"the path {path} holds a space, comma, semicolon, '=' or "
                         "parenthesis, which a game string cannot carry", None,
                         ["move or rename the file"])
    return path


def _digest(game: "rulesdsl.Game") -> str:
    return "h" + game.source_hash     # a letter first: never read as a number


def load_rules(source: str, options: str = "", digest: str = "") -> "rulesdsl.Game":
    """The game a game string names, checked like any rules file; with a digest, also
    that its rules text is the one the string was made from (C019 if not)."""
    game = _load(travelling_source(source), options)
    if digest and str(digest) != _digest(game):
        raise RulesError("C019", f"{source} changed since this game string was made: its "
                         "rules text is not the one the game was loaded from", None,
                         ["load the game again from the file as it is now"])
    return game


def _spec(game: "rulesdsl.Game", source: Optional[str]) -> dict:
    """The parameters a game takes, with their defaults; `source` for a game named in
    its game string (the generic "rulesdsl")."""
    spec = {"players": game.min_players, "options": "", "amount_slots": 64,
            "chance": CHANCE_MODES[0], "seeds": DEFAULT_SEEDS, "zero_sum": False,
            "max_game_length": DEFAULT_MAX_LENGTH, "recall": DEFAULT_RECALL}
    if source is not None:
        spec = {"game": source, "digest": "", **spec}
    return spec


def _game_type(short_name: str, game: "rulesdsl.Game", players: int,
               spec: dict, zero_sum: bool = False) -> "pyspiel.GameType":
    """The type the game is: chance and information read off its declarations."""
    deterministic = is_deterministic(game.model)
    perfect = deterministic and not hides_anything(game.program(players))
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"rulesdsl {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.DETERMINISTIC if deterministic else
                     pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect else
                     pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=_utility(game, players, zero_sum)[0],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec)


def _utility(game: "rulesdsl.Game", players: int, zero_sum: bool = False) -> tuple:
    """(utility type, fewest, most, sum or None) of what the game pays (engine/payoffs.py):
    win/lose payoffs are zero-sum; a team's are alike for every seat; a declared payoff
    may be anything a number of the game may be, and is zero-sum where the game string
    says so (`zero_sum=true`: every return is then checked, C022)."""
    Utility = pyspiel.GameType.Utility
    if game.model.payoff is not None:
        zero_sum = zero_sum or game.model.payoff.zero_sum   # the file may say so itself
        if game.cooperative and players > 1:
            return Utility.IDENTICAL, -float(MAX_INT), float(MAX_INT), None
        if zero_sum:
            return Utility.ZERO_SUM, -float(MAX_INT), float(MAX_INT), 0.0
        return Utility.GENERAL_SUM, -float(MAX_INT), float(MAX_INT), None
    if game.cooperative and players > 1:
        return Utility.IDENTICAL, -1.0, 1.0, None
    if players < 2:
        return Utility.GENERAL_SUM, -1.0, 1.0, None
    return Utility.ZERO_SUM, -1.0 / (players - 1), 1.0, 0.0


def _generic_type() -> "pyspiel.GameType":
    """The type "rulesdsl" is registered with; each game it loads has its own."""
    return pyspiel.GameType(
        short_name=GENERIC, long_name="rulesdsl: any rules file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"game": "", "digest": "", "players": 0, "options": "",
                                 "amount_slots": 64, "chance": CHANCE_MODES[0],
                                 "seeds": DEFAULT_SEEDS, "zero_sum": False,
                                 "max_game_length": DEFAULT_MAX_LENGTH,
                                 "recall": DEFAULT_RECALL})


def register(source: str, short_name: Optional[str] = None) -> str:
    """Register a bundled game's name or a .rules path; returns the name to load it by.
    A file's games name it in their game strings (as "rulesdsl(game=PATH,...)"), so they
    load in a process that has not registered it."""
    game = rulesdsl.load(source)
    short_name = short_name or PREFIX + game.source_name
    source = source if source in bundled_games() else travelling_source(game.path)
    if short_name in _registered:
        if _registered[short_name] != source:
            raise ValueError(f"{short_name} is already registered for "
                             f"{_registered[short_name]}; pass another short_name")
        return short_name
    _registered[short_name] = source
    spec = _spec(game, None)
    game_type = _game_type(short_name, game, game.min_players, spec)
    # a class, not a closure: pyspiel keeps the factory until after the interpreter has
    # shut down, and freeing a function then aborts the process; a class is never freed
    factory = type(f"RulesGame_{game.source_name}", (RulesGame,),
                   {"SHORT_NAME": short_name, "SOURCE": source})
    pyspiel.register_game(game_type, factory)
    return short_name


class RulesGame(pyspiel.Game):
    """One game at one player count with its options fixed. Registered as "rulesdsl"
    (the file named by the `game` parameter) and, by `register`, as a subclass per game
    with its SHORT_NAME and SOURCE."""

    SHORT_NAME = GENERIC
    SOURCE = None

    def __init__(self, params=None):
        params = dict(params or {})
        source = self.SOURCE if self.SOURCE is not None else str(params.get("game", ""))
        if not source:
            raise RulesError("C018", "the game \"rulesdsl\" needs the rules file: "
                             "rulesdsl(game=path/to/file.rules)")
        bundled = source in bundled_games()
        carried = travelling_source(source)
        self.rules = load_rules(carried, str(params.get("options", "")),
                                str(params.get("digest", "")))
        # a bundled game travels by its own name; a file by the generic one and its path
        named = bundled and self.SOURCE is not None
        short_name = self.SHORT_NAME if named else GENERIC
        spec = _spec(self.rules, None if named else carried)
        values = {k: params.get(k, spec[k]) for k in spec}
        if not int(values["players"]):      # "rulesdsl" has no fewest players of its own
            values["players"] = self.rules.min_players
        if not named:
            values["game"], values["digest"] = carried, _digest(self.rules)
        self.source = carried
        self.options_text = str(values["options"])
        self.players = int(values["players"])
        self.seeds = int(values["seeds"])
        self.recall = int(values["recall"])
        self.zero_sum = bool(values["zero_sum"])
        if values["chance"] not in CHANCE_MODES:
            raise RulesError("C021", f"chance is \"explicit\" or \"seed\", not "
                             f"'{str(values['chance'])[:40]}'", None,
                             ["chance=explicit: a chance node at each random event"])
        self.rules.new_game(self.players, seed=0)       # checks the player count
        prog = self.rules.program(self.players)
        self.actions = ActionSpace(prog, int(values["amount_slots"]), self.rules.model)
        self.encoder = ObservationEncoder(prog, self.actions)
        game_type = _game_type(short_name, self.rules, self.players, spec,
                               bool(values["zero_sum"]))
        self.deterministic = game_type.chance_mode == \
            pyspiel.GameType.ChanceMode.DETERMINISTIC
        # each random event a chance node (engine/state/chance.py), or one over seeds
        self.explicit = values["chance"] == "explicit" and not self.deterministic
        self.outcomes = ChanceOutcomes(prog, self.actions)
        _, lowest, highest, total = _utility(self.rules, self.players, self.zero_sum)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=0 if self.deterministic else
            self.outcomes.size if self.explicit else self.seeds,
            num_players=self.players,
            min_utility=lowest,
            max_utility=highest,
            utility_sum=total,
            max_game_length=int(values["max_game_length"]))
        super().__init__(game_type, info, values)

    def new_initial_state(self):
        return RulesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RulesObserver(self, iig_obs_type)

    def __reduce__(self):
        return (load_game_string, (self.to_string(),))


class ChanceOutcomes:
    """Chance action ids of explicit random events: a card's outcome by its identity (the
    ids of `ActionSpace.identities`), then a number's (a die's face, a random pick's
    place) from the lowest a piece can show up to the most a game needs."""

    def __init__(self, prog, actions: ActionSpace):
        self.cards = actions.identity_of
        self.identities = actions.identities
        ranges = [(low, high) for rolled in (prog.pieces.rolled if prog.pieces else [])
                  for _, low, high in rolled]
        self.lowest = min([0] + [low for low, _ in ranges])
        highest = max([MIN_CHANCE_NUMBERS, len(prog.card_label)] + [h for _, h in ranges])
        self.size = len(self.identities) + highest - self.lowest + 1

    def id(self, label: str) -> int:
        found = self.cards.get(label)
        if found is not None:
            return found
        k = len(self.identities) + int(label) - self.lowest
        if not len(self.identities) <= k < self.size:
            raise pyspiel.SpielError(f"the random outcome {label} lies past the chance ids "
                                     f"this game has ({self.size}); a roll of more sides, or "
                                     "a random pick from a longer list, than the game's "
                                     "cards and pieces needs the seed chance mode "
                                     "(chance=seed)")
        return k

    def label(self, action: int) -> str:
        if 0 <= action < len(self.identities):
            return self.identities[action]
        return str(action - len(self.identities) + self.lowest)


@functools.lru_cache(maxsize=32)
def load_game_string(text: str) -> "pyspiel.Game":
    """pyspiel.load_game, once this module has registered its games (unpickling calls it,
    once per state: a game's action space and encoder are made once)."""
    return pyspiel.load_game(text)


class Step:
    """One action in a game's record, linked to the step before it (clones share them)."""

    __slots__ = ("before", "seat", "action", "card", "label", "events_from", "events_to",
                 "count", "shown")

    def __init__(self, before, seat, action, card, label, events_from, events_to):
        self.before = before
        self.seat, self.action, self.card, self.label = seat, action, card, label
        self.events_from, self.events_to = events_from, events_to
        self.count = 1 if before is None else before.count + 1
        self.shown: dict = {}  # (seat, sight) -> did it see which action this was

    def all(self) -> list:
        out, s = [], self
        while s is not None:
            out.append(s)
            s = s.before
        return out[::-1]


class Held:
    """The engine state inside an OpenSpiel state, with what the observers derive from it.

    OpenSpiel clones a Python state by making a new one and deep-copying its attributes
    (pyspiel's PyState::Clone): about 8-10 µs whatever the game, and as much again as the
    engine's own `State.clone` would add. So a clone shares its Held (`__deepcopy__`
    counts one more sharer) and the first of them to change it copies it then
    (`RulesState.own`): a clone that is only read costs no copy, one applied to costs the
    copy once. What is derived from the state (legal ids, log lines) may be shared while
    the state is."""

    __slots__ = ("game", "_state", "legal", "steps", "logs", "sharers")

    def __init__(self, game: RulesGame, state=None):
        self.game = game
        self._state = state
        self.legal = None          # (state it was made for, {id: option})
        self.steps: Optional[Step] = None
        self.logs: dict = {}       # seat -> its log lines so far (events only grow)
        self.sharers = 0           # other OpenSpiel states holding this one

    def __deepcopy__(self, memo):
        self.sharers += 1
        return self

    def copy(self) -> "Held":
        """A Held of its own: the engine state cloned, the record shared (steps only grow)."""
        out = Held(self.game, None if self._state is None else self._state.clone())
        out.legal = self.legal
        out.steps = self.steps
        # the lines rendered so far are the copy's too (its events begin as these do)
        out.logs = {seat: lines[:] for seat, lines in self.logs.items()}
        return out

    @property
    def state(self):
        """The engine's state; None before the seed's chance node (chance=seed). A game
        without randomness, or with explicit chance, starts at once, when first asked
        (OpenSpiel makes a state and then copies into it to clone one: starting in the
        constructor would play the setup for nothing)."""
        st = self._state
        if st is None and (self.game.deterministic or self.game.explicit):
            st = self._state = self.game.rules.new_game(
                self.game.players, seed=0, chance="explicit" if self.game.explicit else None)
        return st

    @state.setter
    def state(self, st) -> None:
        self._state = st

    def options(self) -> dict:
        """{action id: the engine's option} for the decision pending now."""
        st = self.state
        pending = st.options()
        if self.legal is None or self.legal[0] is not pending:
            self.legal = (pending, self.game.actions.legal_options(st))
        return self.legal[1]

    def log(self, seat: int) -> list:
        """The seat's log as `view(seat)["log"]` has it, rendered once per event, except
        that cards moved together into a zone that keeps no order are told in card order:
        the order they arrived in is nothing the rules can read, so no information state
        of its own (the tensor counts them)."""
        st = self.state
        unordered = st.prog.zone_unordered
        lines = self.logs.setdefault(seat, [])
        for e in st.events[len(lines):]:
            if not isinstance(e, str) and e[0] == "move" and len(e[1]) > 1 and \
                    unordered[e[3]]:
                e = (e[0], tuple(sorted(e[1]))) + tuple(e[2:])
            lines.append(st.render_log(e, seat))
        return lines

    def resolve(self, action: int) -> None:
        """Resolve the random event with the outcome `action`; what the seats saw of it
        joins the step before (the record has the players' steps only)."""
        st = self.state
        label = self.game.outcomes.label(action)
        option = next((o for o in st.options()[1] if o[0] == label), None)
        if option is None:
            raise pyspiel.SpielError(f"chance outcome {action} ({label}) is not possible now")
        st.apply_option(None, option)
        s = self.steps
        if s is not None:
            self.steps = Step(s.before, s.seat, s.action, s.card, s.label, s.events_from,
                              len(st.events))

    def apply(self, seat: int, action: int, option: tuple) -> None:
        st = self.state
        start = len(st.events)
        st.apply_option(seat, option)
        card = option[2] if self.game.actions.by_id[action].kind == "card" else None
        self.steps = Step(self.steps, seat, action, card, option[0], start, len(st.events))

    def __reduce__(self):
        g = self.game
        steps = [] if self.steps is None else [
            (s.seat, s.action, s.card, s.label, s.events_from, s.events_to)
            for s in self.steps.all()]     # flat: a long chain would nest too deep
        return (_unpickle_held, (g.to_string(), None if self.state is None else
                                 self.state.to_json(), steps))


def _unpickle_held(game_string, text, steps):
    out = Held(load_game_string(game_string))
    out.state = None if text is None else rulesdsl.restore(out.game.rules, text)
    for step in steps:
        out.steps = Step(out.steps, *step)
    return out


class RulesState(pyspiel.State):
    """The game's decisions and its chance nodes: one at each random event (chance=explicit),
    or the first only, which picks the seed (chance=seed); none in a game without
    randomness."""

    def __init__(self, game: RulesGame):
        super().__init__(game)
        self.held = Held(game)

    def own(self) -> Held:
        """This state's Held to change: copied first where a clone shares it."""
        held = self.held
        if held.sharers:
            held.sharers -= 1
            held = self.held = held.copy()
        return held

    def hold(self, st) -> None:
        """Hold the engine state `st` instead of this one's (a sample of what a seat cannot
        see, a state restored), the record of steps kept: no copy of the old one made."""
        held = self.held
        if held.sharers:
            held.sharers -= 1
        self.held = Held(held.game, st)
        self.held.steps = held.steps

    # ------------------------------------------------------------ whose turn
    def current_player(self):
        st = self.held.state
        if st is None or st.is_chance:
            return pyspiel.PlayerId.CHANCE
        if st.over:
            return pyspiel.PlayerId.TERMINAL
        return st.options()[0]

    def is_terminal(self):
        st = self.held.state
        return st is not None and st.over

    def chance_outcomes(self):
        st = self.held.state
        if st is not None:
            ids = self.held.game.outcomes.id
            return [(ids(label), p) for label, p in st.chance_outcomes()]
        n = self.held.game.seeds
        return [(s, 1.0 / n) for s in range(n)]

    def _legal_actions(self, player):
        st = self.held.state
        if st is None or st.over or player != st.options()[0]:
            return []
        return list(self.held.options())

    def _apply_action(self, action):
        h = self.own()
        if h.state is None:
            h.state = h.game.rules.new_game(h.game.players, seed=int(action))
            return
        if h.state.is_chance:
            h.resolve(int(action))
            return
        option = h.options().get(int(action))
        if option is None:
            raise pyspiel.SpielError(f"action {action} ({h.game.actions.describe(action)}) "
                                     "is not legal now")
        h.apply(h.state.options()[0], int(action), option)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return self.held.game.outcomes.label(int(action)) if self.held.game.explicit \
                else f"seed {action}"
        st = self.held.state
        if st is not None and not st.over and player == st.options()[0]:
            option = self.held.options().get(int(action))
            if option is not None:
                return option[0]
        return self.held.game.actions.describe(int(action))

    def returns(self):
        st = self.held.state
        if st is None or not st.over:
            return [0.0] * self.held.game.players
        paid = st.payoffs     # a file's own `zero-sum` is checked there
        if self.held.game.zero_sum:
            return checked_zero_sum(paid, st, "zero_sum=true")
        return paid

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one (`State.determinize`)."""
        out = self.clone()
        st = self.held.state
        if st is not None:
            seed = int(_draw(probability_sampler) * (1 << 31))
            out.hold(st.determinize(int(player_id), seed))
        return out

    def __reduce_ex__(self, protocol):
        st = self.held.state
        return (_unpickle_state, (self.get_game().to_string(), self.history(),
                                  None if st is None else st.to_json()))

    def __str__(self):
        st = self.held.state
        if st is None:
            return "(before the deal)"
        if self.held.game.explicit:
            return " | ".join(st.history)
        return f"seed {st.seed}: " + " | ".join(st.history)


def _unpickle_state(game_string, history, text):
    """A state from its game and history, replayed; a resampled state's engine state (not
    what its history makes) is then put back from its saved text."""
    state = load_game_string(game_string).new_initial_state()
    for action in history:
        state.apply_action(int(action))
    if text is not None and state.held.state.to_json() != text:
        state.hold(rulesdsl.restore(state.held.game.rules, text))
    return state


def _draw(sampler) -> float:
    """A number in [0, 1) from an OpenSpiel probability sampler (or a plain callable)."""
    for call in (lambda: sampler(), lambda: sampler.__call__()):
        try:
            return float(call()) % 1.0
        except TypeError:
            continue
    return float(np.random.random())


def _sight(iig_obs_type) -> str:
    """What an observer shows: "seat" (the seat's own view), "public", "private" (the
    seat's own secrets only) or "all"."""
    if iig_obs_type is None:
        return "seat"
    private = iig_obs_type.private_info
    if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        return "all"
    if private == pyspiel.PrivateInfoType.NONE:
        return "public"
    return "seat" if iig_obs_type.public_info else "private"


class RulesObserver:
    """Strings and tensors from what a seat may see (OpenSpiel's PyObserver interface)."""

    def __init__(self, game: RulesGame, iig_obs_type=None):
        self.game = game
        self.sight = _sight(iig_obs_type)
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        encoder, actions = game.encoder, game.actions
        nid = len(actions.identities)
        self.step_width = game.players + actions.size + 1 + nid
        sizes = {"view": encoder.size}
        if self.perfect_recall:
            sizes["seen"] = nid
            sizes["steps"] = game.recall * self.step_width
        self.tensor = np.zeros(sum(sizes.values()), np.float32)
        self.dict, at = {}, 0
        for name, size in sizes.items():
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: RulesState, player: int):
        self.tensor.fill(0)
        st = state.held.state
        if st is None:
            return
        self.dict["view"][:] = self.game.encoder.encode(st, player, sight=self.sight)
        if self.perfect_recall:
            self._recall(state.held, player)

    def _recall(self, held: Held, player: int) -> None:
        """The seat's record: cards seen in all, and step by step what it saw."""
        st, actions, n = held.state, self.game.actions, self.game.players
        seen, steps = self.dict["seen"], self.dict["steps"]
        for c in cards_seen(st, player, st.events, self.sight):
            seen[actions.identity(st, c)] += 1
        record = held.steps.all() if held.steps is not None else []
        width, hidden = self.step_width, n + actions.size
        for k, step in enumerate(record[:self.game.recall]):
            at = k * width
            steps[at + step.seat] = 1
            shown = self._shown(st, step, player)
            steps[at + (n + step.action if shown else hidden)] = 1
            for c in cards_seen(st, player, st.events[step.events_from:step.events_to],
                                self.sight):
                steps[at + hidden + 1 + actions.identity(st, c)] += 1

    def _shown(self, st, step: Step, player: int) -> bool:
        """Did the seat see which action this was? (a step's events never change, so its
        answer is kept with it, shared by every state that has the step)"""
        key = (player, self.sight)
        shown = step.shown.get(key)
        if shown is None:
            shown = step.shown[key] = self._seen_action(st, step, player)
        return shown

    def _seen_action(self, st, step: Step, player: int) -> bool:
        if self.sight == "all" or (step.seat == player and self.sight != "public"):
            return True
        if self.sight == "private":     # the seat's own secrets: nobody else's moves
            return False
        events = st.events[step.events_from:step.events_to]
        if any(e[0] == "choice" and e[1] == step.seat and e[2] == step.label
               for e in events if not isinstance(e, str)):
            return True
        return step.card is not None and step.card in set(
            cards_seen(st, player, events, self.sight))

    def string_from(self, state: RulesState, player: int) -> str:
        held = state.held
        st = held.state
        if st is None:
            return f"P{player + 1}: before the deal"
        view = sighted_view(st, player, self.sight)
        if self.perfect_recall:
            record = held.steps.all() if held.steps is not None else []
            view["steps"] = [f"P{s.seat + 1}: " + (s.label if self._shown(st, s, player)
                                                    else "(unseen)") for s in record]
            if self.sight == "seat":
                view["log"] = held.log(player)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))


class PlayoutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots (`open_spiel.python.algorithms
    .mcts.Evaluator`'s interface) that plays on in the engine itself: `State.playout`,
    uniform random choices without making OpenSpiel states or action ids, to the end or
    `max_length` choices (a playout cut short counts 0 for everyone). A state before the
    chance node is dealt with a seed from `random_state`.

        bot = mcts.MCTSBot(game, 2.0, 200, PlayoutEvaluator(4, np.random.RandomState(7)))
    """

    def __init__(self, n_rollouts: int = 1, random_state=None, max_length=None):
        import random
        self.n_rollouts = n_rollouts
        self.max_length = max_length
        seed = (random_state or np.random.RandomState()).randint(1 << 31)
        self.rng = random.Random(int(seed))

    def evaluate(self, state: RulesState):
        held = state.held
        game = held.game
        total = np.zeros(game.players)
        for _ in range(self.n_rollouts):
            st = held.state
            st = game.rules.new_game(game.players, seed=self.rng.randrange(1 << 31)) \
                if st is None else st.clone()
            st.playout(self.rng, self.max_length)
            total += st.payoffs  # 0s for a playout cut short
        return total / self.n_rollouts

    def prior(self, state: RulesState):
        """Every legal action alike (the chance node's outcomes as they come)."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def register_all() -> list:
    """Register "rulesdsl" and every bundled game as rulesdsl_<name>; returns the names."""
    if GENERIC not in pyspiel.registered_names():
        pyspiel.register_game(_generic_type(), RulesGame)
    names = []
    for name in bundled_games():
        names.append(register(name))
    return names


register_all()
