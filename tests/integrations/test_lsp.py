"""`rulesdsl lsp`, driven over stdio by a real LSP client (pygls's LanguageClient) running
`python -m rulesdsl lsp` as another process."""

import asyncio
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from rulesdsl import cli  # noqa: E402
from rulesdsl.lang.fmt import format_source  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

GAME = '''game "Pairs"
players 2
enum Suit { cups, coins }
kind card { suit: Suit  value: int  label "{suit} {value}" }
deck stock { card(Suit, [1, 2, 3]) }
zone stock hidden
zone hand per player private unordered
zone pile public
var turns_left: int = 4

phase turn(p: player) {
  ask p "Which card goes on the pile, {p}?" {
    c in hand[p] { move c to pile }
  }
  set turns_left -= 1
}

phase round {
  turns p from seat(0) until turns_left == 0 { turn(p) }
  win seat(0)
}

setup { shuffle stock  deal 3 from stock to hand }
flow round
'''


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, timeout=120))


class Session:
    """A client connected to a fresh server, collecting published diagnostics."""

    def __init__(self):
        self.client = LanguageClient("rulesdsl-test", "v1")
        self.published = {}
        self.events = []        # ("diagnostics", version) in the order they came
        self.arrived = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams):
            self.published[params.uri] = params.diagnostics
            self.events.append(("diagnostics", params.version))
            self.arrived.set()

    async def __aenter__(self):
        await self.client.start_io(sys.executable, "-m", "rulesdsl", "lsp", cwd=str(ROOT))
        await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri()))
        self.client.initialized(types.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def open(self, uri: str, text: str):
        self.arrived.clear()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="rules", version=1, text=text)))
        await asyncio.wait_for(self.arrived.wait(), 60)
        return self.published[uri]

    async def change(self, uri: str, text: str, version: int):
        self.arrived.clear()
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
        await asyncio.wait_for(self.arrived.wait(), 60)
        return self.published[uri]


def position_of(text: str, needle: str, offset: int = 0) -> types.Position:
    i = text.index(needle) + offset
    line = text.count("\n", 0, i)
    return types.Position(line, i - (text.rfind("\n", 0, i) + 1))


def check_json(path: Path, capsys) -> list:
    cli.main(["check", "--format", "json", str(path)])
    return json.loads(capsys.readouterr().out)


def test_diagnostics_as_you_type_match_check_json(tmp_path, capsys):
    broken = GAME.replace("move c to pile", "move c to piel")
    path = tmp_path / "pairs.rules"
    path.write_text(broken, encoding="utf-8")
    expected = check_json(path, capsys)
    assert [d["code"] for d in expected] == ["W700", "E200"]   # pile unused, piel unknown

    async def go():
        async with Session() as s:
            first = await s.open(path.as_uri(), broken)
            fixed = await s.change(path.as_uri(), GAME, 2)
            return first, fixed

    first, fixed = run(go())
    assert len(first) == len(expected)
    for got, want in zip(first, expected):
        assert got.code == want["code"]
        assert got.severity == {"error": types.DiagnosticSeverity.Error,
                                "warning": types.DiagnosticSeverity.Warning}[want["severity"]]
        assert (got.range.start.line + 1, got.range.start.character + 1) == \
            (want["line"], want["column"])
        assert (got.range.end.line + 1, got.range.end.character + 1) == \
            (want["end_line"], want["end_column"])
        assert got.message.startswith(want["message"])
        assert all(f"hint: {h}" in got.message for h in want["hints"])
    assert "did you mean 'pile'?" in first[1].message
    start = first[1].range.start
    assert broken.split("\n")[start.line][start.character:].startswith("piel")
    assert list(fixed) == []    # the edit that fixes it clears the diagnostics


def test_hover_definition_completion_symbols(tmp_path):
    path = tmp_path / "pairs.rules"
    uri = path.as_uri()
    doc = types.TextDocumentIdentifier(uri=uri)

    async def go():
        async with Session() as s:
            await s.open(uri, GAME)
            c = s.client
            use = position_of(GAME, "hand[p] {", 1)
            hover = await c.text_document_hover_async(types.HoverParams(doc, use))
            keyword = await c.text_document_hover_async(
                types.HoverParams(doc, position_of(GAME, "shuffle stock")))
            call = position_of(GAME, "turn(p) }", 1)
            where = await c.text_document_definition_async(types.DefinitionParams(doc, call))
            items = await c.text_document_completion_async(
                types.CompletionParams(doc, types.Position(12, 0)))
            symbols = await c.text_document_document_symbol_async(
                types.DocumentSymbolParams(doc))
            card = position_of(GAME, "c to pile")
            local = await c.text_document_hover_async(types.HoverParams(doc, card))
            binder = await c.text_document_definition_async(types.DefinitionParams(doc, card))
            return hover, keyword, where, items, symbols, local, binder

    hover, keyword, where, items, symbols, local, binder = run(go())
    assert "c in hand[p]" in local.contents.value
    assert "local (binder) of type card" in local.contents.value
    assert binder.range.start == position_of(GAME, "c in hand[p]")
    assert "zone hand per player private unordered" in hover.contents.value
    assert "private" in hover.contents.value.split("```")[-1]
    assert "Shuffles a zone" in keyword.contents.value
    assert where.uri == uri
    assert where.range.start == position_of(GAME, "turn(p: player)")
    assert where.range.end.character == where.range.start.character + len("turn")
    labels = {i.label for i in items.items}     # the start of a statement in a phase
    assert {"shuffle", "ask", "move", "turn", "round"} <= labels
    names = {(s.name, s.kind) for s in symbols}
    assert {("turn", types.SymbolKind.Module), ("round", types.SymbolKind.Module),
            ("card", types.SymbolKind.Class), ("hand", types.SymbolKind.Array),
            ("Suit", types.SymbolKind.Enum)} <= names


def test_formatting_edits_give_the_formatted_text(tmp_path):
    messy = GAME.replace("zone pile public", "zone   pile    public").replace(
        "  set turns_left -= 1", "      set turns_left -= 1")
    expected = format_source(messy, "pairs.rules")
    assert expected != messy
    uri = (tmp_path / "pairs.rules").as_uri()

    async def go():
        async with Session() as s:
            await s.open(uri, messy)
            return await s.client.text_document_formatting_async(types.DocumentFormattingParams(
                types.TextDocumentIdentifier(uri=uri), types.FormattingOptions(2, True)))

    edits = run(go())
    assert len(edits) == 1
    lines = messy.split("\n")
    r = edits[0].range
    assert (r.start.line, r.start.character) == (0, 0)
    assert (r.end.line, r.end.character) == (len(lines) - 1, len(lines[-1]))
    assert edits[0].new_text == expected


def test_a_syntax_error_is_one_diagnostic_and_symbols_survive(tmp_path):
    uri = (tmp_path / "pairs.rules").as_uri()
    broken = GAME.replace("phase round {", "phase round {{")

    async def go():
        async with Session() as s:
            await s.open(uri, GAME)
            diags = await s.change(uri, broken, 2)
            symbols = await s.client.text_document_document_symbol_async(
                types.DocumentSymbolParams(types.TextDocumentIdentifier(uri=uri)))
            return diags, symbols

    diags, symbols = run(go())
    assert len(diags) == 1 and diags[0].code.startswith("E1")
    assert diags[0].range.start.line == GAME.split("\n").index("phase round {")
    assert "round" in {s.name for s in symbols}     # from the last text that parsed


def test_lsp_without_the_extra_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    monkeypatch.delitem(sys.modules, "rulesdsl.integrations.lsp", raising=False)
    assert cli.main(["lsp"]) == 1
    assert "pip install 'rulesdsl[lsp]'" in capsys.readouterr().err


# ---------------------------------------------------------------- a slow file, issue 31

# thousands of definitions: a check of seconds, as a long file being typed would take
SLOW = GAME + "".join(f"define unused_{i}(p: player) = {i}\n" for i in range(6000))


class Watched(Session):
    """A session that sends a change without waiting for its diagnostics."""

    def send_change(self, uri: str, text: str, version: int):
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def published_version(self, version: int):
        while ("diagnostics", version) not in self.events:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 90)


def test_hover_is_answered_from_the_last_analysis_while_a_slow_text_is_checked(tmp_path):
    uri = (tmp_path / "pairs.rules").as_uri()
    doc = types.TextDocumentIdentifier(uri=uri)

    async def go():
        async with Watched() as s:
            await s.open(uri, GAME)
            s.send_change(uri, SLOW, 2)
            hover = await s.client.text_document_hover_async(
                types.HoverParams(doc, position_of(GAME, "hand[p] {", 1)))
            s.events.append(("hover", None))
            await s.published_version(2)
            return hover, s.events, s.published[uri]

    hover, events, last = run(go())
    assert "zone hand per player private unordered" in hover.contents.value
    assert events.index(("hover", None)) < events.index(("diagnostics", 2)), events
    assert sum(d.code == "W700" for d in last) == 6000   # the slow text was checked after all


def test_only_the_newest_text_is_published(tmp_path):
    uri = (tmp_path / "pairs.rules").as_uri()
    newest = GAME.replace("move c to pile", "move c to piel")

    async def go():
        async with Watched() as s:
            await s.open(uri, GAME)
            s.send_change(uri, SLOW, 2)
            s.send_change(uri, newest, 3)
            await s.published_version(3)
            return s.events, s.published[uri]

    events, last = run(go())
    assert ("diagnostics", 2) not in events, events     # overtaken: dropped, not published
    assert [d.code for d in last] == ["W700", "E200"]


class RawServer:
    """`rulesdsl lsp` driven byte by byte, to send what no client library would."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "rulesdsl", "lsp"], cwd=str(ROOT),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send_raw(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict):
        body = json.dumps(message).encode()
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def answer(self, msg_id: int) -> dict:
        """The response to request `msg_id`; fails if none comes within 60 s."""
        while True:
            message = self.messages.get(timeout=60)
            if message.get("id") == msg_id and "method" not in message:
                return message

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.proc.stderr.close()


def completion(msg_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": "file:///nowhere/x.rules"},
                       "position": {"line": 0, "character": 0}}}


@pytest.mark.parametrize("broken", [
    b"Content-Length: -5\r\n\r\n",
    b"Content-Length: five\r\n\r\n",
    b"Content-Length: 99999999999999999999999\r\n\r\n",
    b"Content-Length: 1" + b"0" * 5000 + b"\r\n\r\n",
    b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",    # no length
    b"\r\n",                                                                 # no header
], ids=["negative", "not a number", "huge", "5000 digits", "missing", "no header"])
def test_a_broken_header_is_skipped_and_the_next_message_answered(broken):
    server = RawServer()
    try:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"processId": None, "rootUri": None, "capabilities": {}}})
        assert "capabilities" in server.answer(1)["result"]
        server.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        server.send_raw(broken + json.dumps(completion(2)).encode())    # lost: its header
        server.send(completion(3))
        # answered (a document never opened gets no items: nothing of it is known)
        assert server.answer(3)["result"] == {"isIncomplete": False, "items": []}
        server.send_raw(b"Content-Length: 5\r\n\r\nhello")             # a body, not JSON
        server.send(completion(4))
        assert server.answer(4)["result"] == {"isIncomplete": False, "items": []}
    finally:
        server.close()


# ---------------------------------------------------------------- completion by context


def completion_labels(text: str, needle: str, offset: int, tmp_path) -> set:
    """The labels offered at `needle` + `offset` of `text`, typed into GAME's buffer (the
    text need not parse: one completes what one is still typing)."""
    uri = (tmp_path / "pairs.rules").as_uri()

    async def go():
        async with Session() as s:
            await s.open(uri, GAME)
            if text != GAME:
                await s.change(uri, text, 2)
            return await s.client.text_document_completion_async(types.CompletionParams(
                types.TextDocumentIdentifier(uri=uri), position_of(text, needle, offset)))

    return {i.label for i in run(go()).items}


def test_after_a_dot_only_the_fields_of_the_cards_kind(tmp_path):
    typing = GAME.replace("c in hand[p] { move c to pile }",
                          "c in hand[p] { move c to pile  set turns_left -= c. }")
    assert completion_labels(typing, "c. }", 2, tmp_path) == {"suit", "value"}


def test_after_an_enums_name_its_values(tmp_path):
    typing = GAME.replace("  set turns_left -= 1", "  log \"{Suit.}\"\n  set turns_left -= 1")
    assert completion_labels(typing, "Suit.}", 5, tmp_path) == {"cups", "coins"}


def test_at_a_statements_start_the_statement_keywords_and_phases(tmp_path):
    typing = GAME.replace("  set turns_left -= 1", "  \n  set turns_left -= 1")
    labels = completion_labels(typing, "  \n  set turns_left", 2, tmp_path)
    assert {"move", "ask", "shuffle", "if", "for", "let", "turn", "round"} <= labels
    assert not labels & {"hand", "size", "cups", "suit", "game", "zone", "then"}


def test_in_an_expression_the_names_in_scope(tmp_path):
    typing = GAME.replace("set turns_left -= 1", "set turns_left -= ")
    labels = completion_labels(typing, "-= ", 3, tmp_path)
    assert {"p", "turns_left", "hand", "pile", "cups", "Suit", "size", "count", "not",
            "true"} <= labels
    # a binder of another declaration, a field without its dot, a statement, a phase: no
    assert not labels & {"c", "suit", "value", "move", "shuffle", "turn", "round", "zone"}
    assert len(labels) < 80


def test_at_a_declarations_start_the_declaration_keywords(tmp_path):
    typing = GAME.replace("var turns_left: int = 4\n", "var turns_left: int = 4\n\n")
    labels = completion_labels(typing, "= 4\n\n", 5, tmp_path)
    assert {"zone", "phase", "define", "kind", "option", "setup"} <= labels
    assert not labels & {"move", "hand", "size", "suit"}


def test_hover_on_a_definition_shows_its_result_type_while_the_file_has_errors(tmp_path):
    uri = (tmp_path / "pairs.rules").as_uri()
    text = GAME.replace("move c to pile", "move c to piel") + \
        "define held(p: player) = size(hand[p])\n"

    async def go():
        async with Session() as s:
            found = await s.open(uri, text)
            doc = types.TextDocumentIdentifier(uri=uri)
            at_declaration = await s.client.text_document_hover_async(
                types.HoverParams(doc, position_of(text, "held(p")))
            return found, at_declaration

    found, hover = run(go())
    assert "E200" in {d.code for d in found}          # the file does not check
    assert "definition (p: player) -> int" in hover.contents.value


def test_the_server_starts_without_the_engine_or_the_checker():
    """Most of a start was importing what the first message does not need: the engine
    (through the package's public names) and the checker and its parse tables, which now
    load on the checker thread while `initialize` is answered."""
    probe = ("import json, sys, rulesdsl.integrations.lsp; "
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('rulesdsl.'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, cwd=str(ROOT))
    loaded = set(json.loads(done.stdout))
    assert "rulesdsl.integrations.lsp" in loaded, done.stderr
    assert not {m for m in loaded if m.startswith(("rulesdsl.engine", "rulesdsl.lang.check",
                                                   "rulesdsl.lang.syntax"))}, loaded
