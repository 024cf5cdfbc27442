"""Snapshots to undo a failed action, and the save format."""

from __future__ import annotations

import json

from rulesdsl.engine.state.piles import copy_zones
from rulesdsl.engine.state.data import FORMAT, FORMAT_VERSION, REPLAY_SPAN, copy_frames, _version


class Saving:
    """Snapshots, rewinding and saving."""

    __slots__ = ()

    # ------------------------------------------------------------------ saving
    def _zones_copy(self, chance) -> list:
        """The zones copied; with explicit chance, a hidden pile's undecided places are
        kept, to be decided by `chance` (state/piles.py)."""
        if self.chance is None:  # each a list (HiddenPile's copy is one): copied in C
            return list(map(list.copy, self.zones))
        return copy_zones(self.zones, chance)

    def _snapshot(self):
        return (
            self._zones_copy(None), self.loc[:], self.vars[:], self.rng,
            copy_frames(self.frames), self.over,
            self.winners[:], self._history.copy(), self._events.copy(), self.cancelled,
            self.effect_depth)

    def _restore_snapshot(self, b) -> None:
        """Become the snapshot `b` again (its lists are copied: a snapshot is shared)."""
        (zones, loc, vars_, self.rng, frames, self.over, winners, history, events,
         self.cancelled, self.effect_depth) = b
        self.zones = [z[:] for z in zones] if self.chance is None else \
            copy_zones(zones, self.chance)
        self.loc = loc[:]
        self.vars = vars_[:]
        self.frames = copy_frames(frames)
        self.winners = winners[:]
        self._history = history.copy()
        self._events = events.copy()
        self.pending = None
        self._actions = (None, None)  # type: tuple
        self.memo = None

    def _rewind(self, before: int) -> None:
        """Undo an apply that did not finish: instead of copying the whole state before
        every action, go back to the last snapshot and replay the actions since then (the
        rules are deterministic). A second Ctrl-C while this runs is held until it is done."""
        interrupted = False
        while True:
            try:
                origin = self._origin
                replay = self._history.tolist()[len(origin[7]):before]
                self._restore_snapshot(origin)
                for label in replay:
                    self.apply(label)
                self._origin = self._snapshot()
                self._origin_due = len(self._history) + REPLAY_SPAN
                break
            except KeyboardInterrupt:
                interrupted = True
        if interrupted:
            raise KeyboardInterrupt

    def to_json(self) -> str:
        game = self.game
        data = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "rulesdsl_version": _version(),
            "game": game.name,
            "game_hash": game.source_hash,
            "source": game.source_name,
            "options": game.options,
            "players": self.prog.nplayers,
            "seed": self.seed,
            "zones": self.zones,
            "vars": self.vars,
            "rng": self.rng,
            "frames": self.frames,
            "over": self.over,
            "winners": self.winners,
            "cancelled": self.cancelled,
            "effect_depth": self.effect_depth,
            "history": self._history.tolist(),
            "log": [list(e) for e in self._events],
        }
        if self.scenario is not None:
            data["scenario"] = self.scenario
        if self.chance is not None:  # restored by replaying the history (savefile.py)
            data["chance"] = "explicit"
        return json.dumps(data, separators=(",", ":"))
