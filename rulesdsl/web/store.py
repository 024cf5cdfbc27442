"""Games kept in SQLite: a game is its rules (a name the server offers), options, seats,
seed and the labels of the actions taken, from which the state is replayed on load. Each
seat's private token and the spectators' token are kept with it.

One connection, used from the server's event loop only (a lock guards it all the same);
each change is committed at once, so a server stopped at any moment loses nothing (a
power cut may lose the last moves: the log is flushed to disk at its checkpoints)."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

SCHEMA = """
create table if not exists games (
    id text primary key,
    game text not null,          -- the name the lobby offers it under
    options text not null,       -- JSON object
    players integer not null,
    seed integer not null,
    seats text not null,         -- JSON list: "human" or an agent spec per seat
    actions text not null,       -- JSON list of action labels
    created real not null,
    updated real not null
);
create table if not exists tokens (
    token text primary key,
    game_id text not null references games(id),
    seat integer                 -- null: a spectator's link
);
"""


def default_db_path() -> Path:
    """$XDG_DATA_HOME/rulesdsl/games.sqlite, else ~/.local/share/rulesdsl/games.sqlite."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return Path(base) / "rulesdsl" / "games.sqlite"


class Store:
    def __init__(self, path):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        # a write-ahead log, synced at its checkpoints: a commit costs no disk flush (22 ms
        # on a busy disk, on the event loop) and a killed server still loses nothing
        self.db.execute("pragma journal_mode=wal")
        self.db.execute("pragma synchronous=normal")
        self.db.executescript(SCHEMA)
        self.db.commit()

    def close(self) -> None:
        with self.lock:
            self.db.close()

    def add(self, game_id: str, game: str, options: dict, players: int, seed: int,
            seats: list, tokens: dict) -> None:
        """A new game and its links: tokens is {token: seat or None}."""
        now = time.time()
        with self.lock, self.db:
            self.db.execute("insert into games values (?,?,?,?,?,?,?,?,?)",
                            (game_id, game, json.dumps(options), players, seed,
                             json.dumps(seats), "[]", now, now))
            self.db.executemany("insert into tokens values (?,?,?)",
                                [(t, game_id, s) for t, s in tokens.items()])

    def set_actions(self, game_id: str, actions: list) -> None:
        with self.lock, self.db:
            self.db.execute("update games set actions = ?, updated = ? where id = ?",
                            (json.dumps(actions), time.time(), game_id))

    def token(self, token: str) -> Optional[tuple]:
        """(game id, seat or None) for a link's token; None for an unknown one."""
        with self.lock:
            row = self.db.execute("select game_id, seat from tokens where token = ?",
                                  (token,)).fetchone()
        return tuple(row) if row else None

    def game(self, game_id: str) -> Optional[dict]:
        with self.lock:
            row = self.db.execute("select game, options, players, seed, seats, actions "
                                  "from games where id = ?", (game_id,)).fetchone()
            tokens = self.db.execute("select token, seat from tokens where game_id = ?",
                                     (game_id,)).fetchall()
        if row is None:
            return None
        return {"id": game_id, "game": row[0], "options": json.loads(row[1]),
                "players": row[2], "seed": row[3], "seats": json.loads(row[4]),
                "actions": json.loads(row[5]), "tokens": dict(tokens)}
