"""The web server: Starlette routes on uvicorn.

    GET  /                    the lobby page
    GET  /api/games           the games offered, their player counts and options
    POST /api/games           a new game from the lobby: {game, players, options, seats,
                              seed?} -> {"id", "links": [{"seat", "name", "url"}], "watch"}
    GET  /play/{token}        the table page (the same file for every seat and game)
    WS   /ws/{token}          the table's messages for that link's seat
    GET  /api/rules/{token}   the game's rules text; ?name=NAME explains one card or word
    GET  /static/...          the page's CSS and JavaScript

A token is a seat's private link (or the spectators' public one); the page holds no
game data of its own and learns everything over its websocket. A client address makes
only so many games a minute, and a page sends only so many messages a second
(rulesdsl.web.throttle); past that it is told how long to wait."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from rulesdsl.lang.errors import RulesError
from rulesdsl.web.lobby import BadRequest, Catalogue, seat_kinds
from rulesdsl.web.rooms import Rooms
from rulesdsl.web.throttle import Limits, Pace, PerAddress, wait_text

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16_384                     # bytes of a lobby request
# bytes of a message from a table page (uvicorn closes a socket sent more, code 1009)
MAX_MESSAGE = 4_096


def make_app(catalogue: Catalogue, store, workers: int = 2, watch: bool = False,
             limits: Limits = Limits()) -> Starlette:
    rooms = Rooms(catalogue, store, workers=workers)
    new_games = PerAddress(limits.games_per_minute / 60, limits.games_burst)

    async def lobby(request: Request):
        return FileResponse(STATIC / "lobby.html")

    async def games(request: Request):
        if request.method == "GET":
            return JSONResponse({"games": catalogue.summary(), "seats": seat_kinds()})
        # JSON only: a page of another site cannot send it without the browser asking
        # first, which this server never allows, so it cannot make games here unseen
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "send the request as application/json"},
                                status_code=415)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": "the request is too long"}, status_code=413)
        wait = new_games.take(request.client.host if request.client else "")
        if wait:
            return JSONResponse(
                {"error": f"Too many new games from your address: at most "
                          f"{limits.games_per_minute:g} a minute once {limits.games_burst} "
                          f"are made. Try again in {wait_text(wait)}."},
                status_code=429, headers={"Retry-After": str(max(1, round(wait)))})
        try:
            room, tokens = rooms.create(json.loads(body or b"null"))
        except ValueError:
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        except BadRequest as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        links = [{"seat": seat, "name": room.names[seat], "url": f"/play/{token}"}
                 for token, seat in tokens.items() if seat is not None]
        watch = next(t for t, s in tokens.items() if s is None)
        return JSONResponse({"id": room.id, "links": links, "watch": f"/play/{watch}"})

    async def table(request: Request):
        if rooms.by_token(request.path_params["token"]) is None:
            return JSONResponse({"error": "no game has this link"}, status_code=404)
        return FileResponse(STATIC / "table.html")

    async def rules(request: Request):
        from rulesdsl.play.rulestext import explain, rules_text
        found = rooms.by_token(request.path_params["token"])
        if found is None:
            return JSONResponse({"error": "no game has this link"}, status_code=404)
        room = found[0]
        name: Optional[str] = request.query_params.get("name")
        players = room.state.players
        try:
            lines = explain(room.game, players, name[:80], 90) if name else \
                rules_text(room.game, players, 90)
        except RulesError as e:
            lines = [e.message]
        return JSONResponse({"lines": lines})

    async def socket(ws: WebSocket):
        found = rooms.by_token(ws.path_params["token"])
        await ws.accept()
        if found is None:
            await ws.send_json({"type": "error", "message": "no game has this link"})
            await ws.close()
            return
        room, seat = found
        await room.join(ws, seat)
        pace = Pace(limits)
        try:
            while True:
                text = await _next_text(ws)
                if text is None:
                    break
                refusal = pace.refusal()
                if refusal is not None:
                    if refusal:
                        await room.send(ws, {"type": "error", "message": refusal})
                    continue
                try:
                    data = json.loads(text)
                except ValueError:
                    continue
                await room.request(ws, seat, data)
        finally:
            room.leave(ws)

    app = Starlette(routes=[
        Route("/", lobby),
        Route("/api/games", games, methods=["GET", "POST"]),
        Route("/play/{token}", table),
        Route("/api/rules/{token}", rules),
        WebSocketRoute("/ws/{token}", socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ], lifespan=_lifespan(rooms, watch))
    app.state.rooms = rooms
    return app


WATCH_EVERY = 0.5    # seconds between looks at the watched rules files


async def _next_text(ws: WebSocket) -> Optional[str]:
    """The next text message from a page; "" for a binary one (ignored), None once the
    page has gone (closed, or a message to it failed)."""
    try:
        message = await ws.receive()
    except RuntimeError:               # the socket was closed by a failed send
        return None
    if message["type"] == "websocket.disconnect":
        return None
    return message.get("text") or ""


def _lifespan(rooms, watch: bool):
    """The app's lifespan: with --watch, the rules files looked at while it runs; the
    computer players' worker processes stopped when the server stops."""
    import asyncio
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(watch_files(rooms)) if watch else None
        yield
        if task:
            task.cancel()
        rooms.close()
    return lifespan


async def watch_files(rooms) -> None:
    """`--watch`: each offered rules file that changes (its time or size) is read again
    and its games told, with `check`'s errors when it no longer loads."""
    import asyncio
    import os

    def stamp(path):
        try:
            st = os.stat(path)
            return (st.st_mtime_ns, st.st_size)
        except OSError:
            return None
    files = rooms.catalogue.files()
    seen = {name: stamp(path) for name, path in files.items()}
    while True:
        await asyncio.sleep(WATCH_EVERY)
        for name, path in files.items():
            now = stamp(path)
            if now != seen[name]:
                seen[name] = now
                await rooms.rules_changed(name)


def offered_games(names) -> dict:
    """The lobby's games: those named (bundled names or paths), else every bundled game
    and example."""
    from rulesdsl.lang.resources import bundled_games, bundled_path, example_games
    if names:
        out = {}
        for name in names:
            path = Path(name)
            key = path.stem if path.suffix == ".rules" else name
            out[key] = str(path.resolve()) if path.exists() else name
        return out
    return {name: str(bundled_path(name)) for name in bundled_games() + example_games()}


def serve(names, host: str, port: int, db: Optional[str], watch: bool = False,
          out=None, workers: int = 2, limits: Optional[Limits] = None) -> int:
    """`rulesdsl serve`: every named game checked first (a bad one is an error before
    the server starts), then the server until Ctrl-C; with `watch`, the rules files
    named are read again when they change."""
    import sys
    import uvicorn
    from rulesdsl.web.store import Store, default_db_path
    out = out or sys.stdout
    catalogue = Catalogue(offered_games(names))
    for name in names or ():
        catalogue.load(name if name in catalogue.offered else Path(name).stem)
    store = Store(db or default_db_path())
    app = make_app(catalogue, store, workers=workers, watch=watch, limits=limits or Limits())
    print(f"rulesdsl: the lobby is at http://{host}:{port}/  (games kept in {store.path}; "
          "Ctrl-C stops)", file=out, flush=True)
    if watch:
        print(f"rulesdsl: watching {', '.join(catalogue.files().values()) or 'no file'}",
              file=out, flush=True)
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_MESSAGE,
                    ws_ping_interval=20)
    finally:
        store.close()
    return 0
