"""Games on the server: each a Room that owns its state, its seats and the browsers
connected to it; Rooms, the ones in memory, made from the lobby or loaded by a link.

A browser is one seat (or a spectator) by the token in its link; whatever it sends is
only ever a request for that seat: an action label that must be one of the legal ones
when it is that seat's turn, `hint` or `undo`. Computer seats choose in worker processes
(rulesdsl.web.computers), so the event loop keeps answering while they think."""

from __future__ import annotations

import asyncio
import secrets
from typing import Optional

from rulesdsl.agents import make_agent
from rulesdsl.agents.seats import agent_seed
from rulesdsl.analysis.run import GameSpec
from rulesdsl.lang.errors import RulesError
from rulesdsl.play.runner.text import HUMAN, seat_names
from rulesdsl.play.thinking import describe_agent
from rulesdsl.web.computers import Thinkers
from rulesdsl.web.lobby import BadRequest, Catalogue, checked_request
from rulesdsl.web.seatview import GameFacts, Stories, display, seat_message

MAX_LABEL = 500          # characters of an action label a browser may send
MAX_ROOMS_IN_MEMORY = 200  # rooms kept loaded; the others wait in the store
SHOW_THINKING = 0.25     # seconds a computer chooses before the table says it is thinking


class Room:
    """One game on the server: its state, its seats, the browsers watching it."""

    def __init__(self, game_id: str, name: str, game, options: dict, players: int,
                 seed: int, seats: list, tokens: dict, store, thinkers: Thinkers):
        self.id = game_id
        self.name = name
        self.game = game
        self.options = options
        self.seed = seed
        self.seats = list(seats)
        self.tokens = dict(tokens)           # token -> seat or None
        self.store = store
        self.thinkers = thinkers
        self.players = players
        self.clients: dict = {}              # client -> seat or None
        self.thinking: Optional[int] = None  # the computer seat choosing now
        self.running = False                 # computer seats are being played
        self.changed: Optional[dict] = None  # the rules file changed (--watch): what now
        self.hinting = False                 # a hint is being worked out (one at a time)
        self.deal(game)

    def deal(self, game) -> None:
        """The game dealt again from its seed, no action taken yet."""
        self.game = game
        self.spec = GameSpec.of(game)        # the game as the worker processes get it
        self.agents = {s: make_agent(kind, agent_seed(self.seed, s))
                       for s, kind in enumerate(self.seats) if kind != HUMAN}
        self.start = game.new_game(players=self.players, seed=self.seed)
        self.state = self.start.clone()
        self.names = seat_names(self.state)
        self.display = display(game, self.state)
        self.facts = GameFacts(self.state)
        self.problem: Optional[str] = None   # why the game cannot go on, if it cannot
        self.movers: list = []               # the seat that chose each action so far
        self._positions: list = []           # a finished game's states, for its replay
        self.stories = Stories()             # each seat's log so far

    def replay(self, actions: list) -> None:
        """The saved actions applied again from the deal; where one no longer fits the
        rules the game stops there, and says so."""
        for label in actions:
            try:
                self.apply(label)
            except RulesError as e:
                self.problem = f"the saved game stops after {len(self.state.history)} " \
                               f"actions: {e.message}"
                return

    # ---------------------------------------------------------------- messages
    def seat_list(self) -> list:
        return [{"name": self.names[s], "kind": kind,
                 "who": "person" if kind == HUMAN else
                 f"computer ({describe_agent(kind, self.agents[s])})"}
                for s, kind in enumerate(self.seats)]

    def message(self, seat: Optional[int]) -> dict:
        msg = seat_message(self.state, seat, self.names, self.stories, self.facts)
        msg["seats"] = self.seat_list()
        msg["thinking"] = self.thinking
        msg["problem"] = self.problem
        msg["can_undo"] = seat is not None and self.can_undo(seat)
        return msg

    async def send(self, client, message: dict) -> None:
        try:
            await client.send_json(message)
        except Exception:        # a closed tab: forget it, the game goes on
            self.clients.pop(client, None)

    async def broadcast(self) -> None:
        for client, seat in list(self.clients.items()):
            await self.send(client, self.message(seat))

    async def join(self, client, seat: Optional[int]) -> None:
        self.clients[client] = seat
        await self.send(client, {"type": "display", "display": self.display,
                                 "game": self.name, "options": self.options})
        await self.send(client, self.message(seat))
        if self.changed:
            await self.send(client, self.changed_message())
        self.kick()

    def leave(self, client) -> None:
        self.clients.pop(client, None)

    # ---------------------------------------------------------------- moves
    async def request(self, client, seat: Optional[int], data) -> None:
        """A message from a browser: {"play": label}, {"hint": true} or {"undo": true}."""
        if not isinstance(data, dict):
            return
        try:
            if "play" in data:
                await self.play(seat, data["play"])
            elif data.get("hint"):
                await self.send(client, {"type": "hint", "text": await self.hint(seat)})
            elif data.get("undo"):
                await self.undo(seat)
            elif "replay" in data:
                await self.send(client, self.replay_message(seat, data["replay"]))
            elif data.get("reload") in ("restart", "replay"):
                await self.reload(seat, data["reload"])
        except BadRequest as e:
            await self.send(client, {"type": "error", "message": str(e)})
        except RulesError as e:   # the rules failed on this move: nothing changed
            await self.send(client, {"type": "error", "message": e.message})

    async def play(self, seat: Optional[int], label) -> None:
        if seat is None:
            raise BadRequest("spectators watch; they do not play")
        if self.problem or self.state.is_over:
            raise BadRequest("the game is over" if self.state.is_over else self.problem)
        if self.state.to_move != seat or self.seats[seat] != HUMAN:
            raise BadRequest("it is not your turn")
        if not isinstance(label, str) or len(label) > MAX_LABEL:
            raise BadRequest("that is not one of the options")
        if label not in {a.label for a in self.state.legal_actions()}:
            raise BadRequest(f"{label[:80]!r} is not one of the options")
        self.apply(label)
        self.saved()
        await self.broadcast()
        self.kick()

    def apply(self, label: str) -> None:
        mover = self.state.to_move
        self.state.apply(label)
        self.movers.append(mover)

    def saved(self) -> None:
        self.store.set_actions(self.id, list(self.state.history))

    def kick(self) -> None:
        """Let the computer seats move, if it is theirs to, in the background."""
        if not self.running and self.computer_to_move():
            self.running = True
            asyncio.get_running_loop().create_task(self.run_computers())

    def computer_to_move(self) -> bool:
        return not self.problem and not self.state.is_over and \
            self.seats[self.state.to_move] != HUMAN

    async def run_computers(self) -> None:
        try:
            while self.computer_to_move():
                seat = self.state.to_move
                state = self.state
                choice = asyncio.ensure_future(
                    self.thinkers.choose(self.spec, state, self.agents[seat]))
                label, agent = await self.thought(seat, choice)
                if self.state is not state:   # an undo came in meanwhile: choose again
                    continue
                self.agents[seat] = agent     # its generator goes on from this choice
                self.apply(label)
                self.saved()
                await self.broadcast()
        except RulesError as e:
            self.problem = f"the computer could not move: {e.message}"
            await self.broadcast()
        finally:
            self.running = False

    async def thought(self, seat: int, choice):
        """The computer's choice; the table is told it is thinking only when it takes a
        moment (a random player's instant choice is not worth two messages a browser)."""
        try:
            return await asyncio.wait_for(asyncio.shield(choice), SHOW_THINKING)
        except asyncio.TimeoutError:
            pass
        self.thinking = seat
        await self.broadcast()
        try:
            return await choice
        finally:
            self.thinking = None

    # ---------------------------------------------------------------- --watch
    async def rules_changed(self, game, errors: list) -> None:
        """The rules file changed: its errors, or how many of the actions taken still fit
        the new rules, told to every browser; a person then restarts or replays."""
        if errors:
            self.changed = {"type": "rules", "errors": errors}
        else:
            fits = self.fitting(game, list(self.state.history))
            self.changed = {"type": "rules", "errors": [], "fits": len(fits),
                            "of": len(self.state.history), "game": game}
        for client in list(self.clients):
            await self.send(client, self.changed_message())

    def changed_message(self) -> dict:
        return {k: v for k, v in self.changed.items() if k != "game"}

    def fitting(self, game, actions: list) -> list:
        """The actions, from the first, that the rules of `game` still allow."""
        state = game.new_game(players=self.players, seed=self.seed)
        fits = []
        for label in actions:
            try:
                state.apply(label)
            except RulesError:
                break
            fits.append(label)
        return fits

    async def reload(self, seat: Optional[int], mode: str) -> None:
        if seat is None or self.seats[seat] != HUMAN:
            raise BadRequest("a player restarts the game, not a spectator")
        if not self.changed or self.changed["errors"]:
            raise BadRequest("the rules have not changed, or do not load")
        game = self.changed["game"]
        actions = self.fitting(game, list(self.state.history)) if mode == "replay" else []
        self.changed = None
        self.deal(game)
        self.replay(actions)
        self.saved()
        for client, s in list(self.clients.items()):
            await self.send(client, {"type": "display", "display": self.display,
                                     "game": self.name, "options": self.options})
            await self.send(client, self.message(s))
        self.kick()

    # ---------------------------------------------------------------- replay
    def replay_message(self, seat: Optional[int], step) -> dict:
        """A finished game step by step: the table after `step` actions as this seat saw
        it then (what was hidden from it stays hidden), without its options."""
        if not self.state.is_over:
            raise BadRequest("a game is replayed once it is over")
        total = len(self.state.history)
        if type(step) is not int or not 0 <= step <= total:
            raise BadRequest(f"a step is a number from 0 to {total}")
        msg = seat_message(self.position(step), seat, self.names, facts=self.facts)
        msg.update(type="replay", step=step, steps=total, actions=[], question=None,
                   seats=self.seat_list(), thinking=None, problem=None, can_undo=False)
        return msg

    def position(self, step: int):
        """The state after the first `step` actions, kept once made (a finished game
        does not change)."""
        if not self._positions:
            self._positions.append(self.start.clone())
        positions = self._positions
        while len(positions) <= step:
            nxt = positions[-1].clone()
            nxt.apply(self.state.history[len(positions) - 1])
            positions.append(nxt)
        return positions[step]

    # ---------------------------------------------------------------- hint, undo
    async def hint(self, seat: Optional[int]) -> str:
        """What the computer would play for this seat, and its chances (as `hint`)."""
        from rulesdsl.play.hint import hint_seed, hint_spec, hint_text
        if seat is None or self.state.is_over or self.state.to_move != seat:
            raise BadRequest("a hint is for the player to move")
        if self.hinting:     # a search costs a second of a worker: one at a time a game
            raise BadRequest("a hint is being worked out; it comes in a moment")
        spec = hint_spec(self.seats)
        agent = make_agent(spec, hint_seed(self.seed, self.state, seat))
        self.hinting = True
        try:
            choice, analysis = await self.thinkers.advise(self.spec, self.state, agent)
        finally:
            self.hinting = False
        return hint_text(choice, analysis, describe_agent(spec, agent))

    def can_undo(self, seat: int) -> bool:
        """`undo` as at the terminal: only where every other seat is a computer, once the
        seat has chosen and until the game is over."""
        others = [k for s, k in enumerate(self.seats) if s != seat]
        return self.seats[seat] == HUMAN and all(k != HUMAN for k in others) and \
            not self.problem and not self.state.is_over and seat in self.movers

    async def undo(self, seat: Optional[int]) -> None:
        from rulesdsl.play.takeback import previous_decision
        if seat is None or not self.can_undo(seat):
            raise BadRequest("undo is for a person playing against computer players")
        found = previous_decision(self.start, list(self.state.history), seat)
        if found is None:
            raise BadRequest("you have not moved yet")
        k, self.state = found
        del self.movers[k:]
        self._positions = []
        self.saved()
        await self.broadcast()
        self.kick()


def new_tokens(players_human: list) -> dict:
    """An unguessable token for each person's seat and one for spectators."""
    tokens = {secrets.token_urlsafe(18): seat for seat in players_human}
    tokens[secrets.token_urlsafe(18)] = None
    return tokens


class Rooms:
    """The rooms in memory, made from the lobby or loaded from the store by a link."""

    def __init__(self, catalogue: Catalogue, store, workers: int = 2):
        self.catalogue = catalogue
        self.store = store
        self.thinkers = Thinkers(workers)
        self.rooms: dict = {}

    def create(self, request) -> tuple:
        """(room, {token: seat or None}) for a lobby request."""
        req = checked_request(self.catalogue, request)
        try:
            game = self.catalogue.load(req["game"], req["options"])
        except RulesError as e:
            raise BadRequest(e.message) from None
        humans = [s for s, k in enumerate(req["seats"]) if k == HUMAN]
        tokens = new_tokens(humans)
        game_id = secrets.token_hex(8)
        self.store.add(game_id, req["game"], req["options"], req["players"], req["seed"],
                       req["seats"], tokens)
        room = Room(game_id, req["game"], game, req["options"], req["players"], req["seed"],
                    req["seats"], tokens, self.store, self.thinkers)
        self.keep(room)
        return room, tokens

    def by_token(self, token) -> Optional[tuple]:
        """(room, seat or None) for a link's token, loading the game if need be."""
        if not isinstance(token, str) or len(token) > 64:
            return None
        found = self.store.token(token)
        if found is None:
            return None
        game_id, seat = found
        room = self.rooms.get(game_id) or self.load(game_id)
        return (room, seat) if room is not None else None

    def load(self, game_id: str) -> Optional[Room]:
        saved = self.store.game(game_id)
        if saved is None:
            return None
        try:
            game = self.catalogue.load(saved["game"], saved["options"])
        except (RulesError, BadRequest):
            return None
        room = Room(game_id, saved["game"], game, saved["options"], saved["players"],
                    saved["seed"], saved["seats"], saved["tokens"], self.store,
                    self.thinkers)
        room.replay(saved["actions"])
        self.keep(room)
        return room

    async def rules_changed(self, name: str) -> None:
        """A watched rules file changed: read it again and tell its games' browsers."""
        errors = self.catalogue.reload(name)
        for room in list(self.rooms.values()):
            if room.name == name:
                game = None if errors else self.catalogue.load(name, room.options)
                await room.rules_changed(game, errors)

    def keep(self, room: Room) -> None:
        self.rooms[room.id] = room
        if len(self.rooms) > MAX_ROOMS_IN_MEMORY:
            for gid, r in list(self.rooms.items()):
                if not r.clients and not r.running and len(self.rooms) > MAX_ROOMS_IN_MEMORY:
                    del self.rooms[gid]

    def close(self) -> None:
        self.thinkers.close()
