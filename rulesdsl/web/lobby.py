"""The lobby's side of the server: the games offered, what a seat may be, and a request
for a new game checked before anything is made of it (it comes from a browser)."""

from __future__ import annotations

import random
from typing import Optional

from rulesdsl.agents import agent_names
from rulesdsl.agents.ismcts import LEVELS
from rulesdsl.lang.errors import RulesError
from rulesdsl.play.runner.text import HUMAN

MAX_SEED = 2 ** 31


class BadRequest(Exception):
    """A lobby or table request that cannot be served, with a message for the person."""


def seat_kinds() -> list:
    """What a seat may be: a person, or a computer player by name (at a level)."""
    kinds = [HUMAN]
    for name in agent_names():
        kinds.append(name)
        if name == "ismcts":
            kinds += [f"ismcts:{level}" for level in LEVELS]
    return kinds


class Catalogue:
    """The games the server offers, by the name the lobby shows, each loaded once per set
    of options."""

    def __init__(self, offered: dict):
        self.offered = dict(offered)       # lobby name -> bundled name or path
        self.loaded: dict = {}

    def names(self) -> list:
        return list(self.offered)

    def load(self, name: str, options: Optional[dict] = None):
        import rulesdsl
        if name not in self.offered:
            raise BadRequest(f"no game called {str(name)[:60]!r} here")
        key = (name, tuple(sorted((options or {}).items())))
        if key not in self.loaded:
            source = self.offered[name]
            self.loaded[key] = rulesdsl.load(source, options=options) if options \
                else rulesdsl.load(source)
        return self.loaded[key]

    def reload(self, name: str) -> list:
        """The game's file read again (it changed): [] when it loads, else its errors as
        `check` prints them. What was loaded before is forgotten either way."""
        from rulesdsl.lang.errors import SourceExcerpts
        for key in [k for k in self.loaded if k[0] == name]:
            del self.loaded[key]
        try:
            self.load(name)
        except RulesError as e:
            excerpts = SourceExcerpts()
            return [excerpts.render(err) for err in getattr(e, "errors", None) or [e]]
        return []

    def files(self) -> dict:
        """{lobby name: path} of the games offered as files (those `--watch` watches)."""
        import os
        return {name: src for name, src in self.offered.items() if os.path.isfile(src)}

    def summary(self) -> list:
        """For the lobby: each game's name, title, `about` paragraphs, player counts and
        options."""
        out = []
        for name in self.offered:
            try:
                g = self.load(name)
            except RulesError as e:
                out.append({"name": name, "error": e.message})
                continue
            out.append({"name": name, "title": g.name, "about": list(g.about),
                        "min_players": g.min_players,
                        "max_players": g.max_players, "options": dict(g.options)})
        return out


def checked_request(catalogue: Catalogue, request) -> dict:
    """A lobby request made safe: the game offered, options of the game's declared types,
    a player count it allows, a known kind for each seat, a seed in range."""
    if not isinstance(request, dict):
        raise BadRequest("the request is not a JSON object")
    name = request.get("game")
    if not isinstance(name, str) or name not in catalogue.offered:
        raise BadRequest(f"no game called {str(name)[:60]!r} here")
    base = catalogue.load(name)
    options = request.get("options") or {}
    if not isinstance(options, dict):
        raise BadRequest("options must be an object")
    for key, value in options.items():
        if key not in base.options:
            raise BadRequest(f"{base.name} has no option {str(key)[:40]!r}")
        default = base.options[key]
        if type(value) is not type(default) or (isinstance(value, str) and len(value) > 100):
            raise BadRequest(f"option {key} takes a value like {default!r}")
    options = {k: v for k, v in options.items() if v != base.options[k]}
    players = request.get("players", base.min_players)
    if type(players) is not int or not base.min_players <= players <= base.max_players:
        raise BadRequest(f"{base.name} is for {base.min_players} to {base.max_players} "
                         "players")
    seats = request.get("seats") or [HUMAN] + ["ismcts"] * (players - 1)
    if not isinstance(seats, list) or len(seats) != players:
        raise BadRequest(f"give a kind for each of the {players} seats")
    kinds = seat_kinds()
    for kind in seats:
        if kind not in kinds:
            raise BadRequest(f"a seat is one of: {', '.join(kinds)}")
    seed = request.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 100_000)
    if type(seed) is not int or not 0 <= seed < MAX_SEED:
        raise BadRequest("the seed is a whole number from 0")
    return {"game": name, "options": options, "players": players, "seats": list(seats),
            "seed": seed}
