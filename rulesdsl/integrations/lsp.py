"""`rulesdsl lsp`: a language server on standard input and output (`rulesdsl[lsp]`).

Any editor that speaks the Language Server Protocol gets, for `.rules` files:
- diagnostics as you type: the checker's errors and warnings with their codes, places and
  hints, the same as `rulesdsl check --format json` (errors in a file this one extends
  are shown at its first line, naming the place);
- hover: a keyword's documentation (its construct's one line and example), a built-in's
  signature, a declared name's declaration and type;
- go to definition of a declared name (also into a file this one extends);
- completion by context: after `c.` the fields of c's kind (an enum's values after its
  name), at a statement's start the statement keywords and phases, at a declaration's
  the declaration keywords, in an expression the locals in scope, the declared names and
  the built-ins;
- document symbols: options, enums, boards, kinds, zones, variables, definitions, phases;
- formatting through `rulesdsl fmt`'s formatter.

A text is checked on a worker thread, never on the message loop: while a long file is
checked, hovers and completions are answered from the last analysis. Only the analysis of a
document's newest text is published; one overtaken by an edit is dropped. Messages come
through `Frames`, which skips a message whose header is broken (a negative, missing or
huge Content-Length) and goes on with the next good one.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from rulesdsl._version import __version__
from rulesdsl.lang.errors import RulesError

SEVERITY = {"error": types.DiagnosticSeverity.Error,
            "warning": types.DiagnosticSeverity.Warning}
SYMBOL_KINDS = {"enum": types.SymbolKind.Enum, "board": types.SymbolKind.Enum,
                "kind": types.SymbolKind.Class, "zone": types.SymbolKind.Array,
                "var": types.SymbolKind.Variable, "define": types.SymbolKind.Function,
                "phase": types.SymbolKind.Module, "option": types.SymbolKind.Constant,
                "modifier": types.SymbolKind.Operator, "value": types.SymbolKind.EnumMember,
                "field": types.SymbolKind.Field}
COMPLETION_KINDS = {"keyword": types.CompletionItemKind.Keyword,
                    "builtin": types.CompletionItemKind.Function,
                    "enum": types.CompletionItemKind.Enum, "board": types.CompletionItemKind.Enum,
                    "kind": types.CompletionItemKind.Class,
                    "zone": types.CompletionItemKind.Variable,
                    "var": types.CompletionItemKind.Variable,
                    "define": types.CompletionItemKind.Function,
                    "phase": types.CompletionItemKind.Module,
                    "option": types.CompletionItemKind.Constant,
                    "modifier": types.CompletionItemKind.Operator,
                    "value": types.CompletionItemKind.EnumMember,
                    "field": types.CompletionItemKind.Field,
                    "local": types.CompletionItemKind.Variable}


logger = logging.getLogger(__name__)


def index():
    """rules_index: the answers from the language (its parser and checker), imported on
    first use. Importing them and reading the parser's tables is most of the server's
    start: `initialize` is answered without them while the checker thread loads them
    (`RulesServer.warm_up`)."""
    from rulesdsl.integrations import rules_index
    return rules_index


def _warm_up() -> None:
    """Load what the first check needs: the language's modules and the parse tables."""
    from rulesdsl.lang.syntax import parser
    index()
    parser()


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("rulesdsl", __version__)
        self.symbols: dict = {}      # uri -> symbols of the last text that parsed
        self.trees: dict = {}        # uri -> (merged tree, model or None, sources) of it
        self.edits: dict = {}        # uri -> the number of its newest text
        self.texts_seen = itertools.count(1)   # numbers texts across documents: a text of a
        # document closed and opened again never takes the number of one before
        # one thread: a check is pure Python, so more would only share the same core
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulesdsl-check")

    def warm_up(self) -> None:
        """Start loading the checker on its thread: the first check queues behind it."""
        self.checker.submit(_warm_up)

    def open_document(self, uri: str):
        """The document the client opened under `uri`, or None. Never pygls's fallback for
        any other uri, which reads the file from disk: a request naming file:///dev/stdin
        or a FIFO would block the server for good, /dev/zero would fill its memory."""
        return self.workspace.text_documents.get(unquote(uri))

    async def analyse(self, uri: str) -> None:
        """Check the document's text as it is now on the worker thread, then publish what
        it found, unless a newer text of the document came in meanwhile."""
        doc = self.open_document(uri)
        if doc is None:         # saved without being opened: nothing of it is known
            return
        text, version, path = doc.source, doc.version, uri_to_path(uri)
        edit = self.edits[uri] = next(self.texts_seen)

        def newest() -> bool:
            return self.edits.get(uri) == edit

        def work():
            return index().analyse(text, path) if newest() else None   # overtaken: skip it

        result = await asyncio.get_running_loop().run_in_executor(self.checker, work)
        if result is None or not newest():
            return
        if result.symbols is not None:
            self.symbols[uri] = result.symbols
            self.trees[uri] = (result.tree, result.model, result.sources)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version,
            diagnostics=[to_diagnostic(d, path) for d in result.diagnostics]))

    def shutdown(self):
        self.checker.shutdown(wait=False, cancel_futures=True)
        super().shutdown()

    def forget(self, uri: str) -> None:
        """A closed document: drop what is known of it and any analysis in flight."""
        self.edits.pop(uri, None)
        self.symbols.pop(uri, None)
        self.trees.pop(uri, None)


def uri_to_path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def path_to_uri(path: str) -> str:
    from pathlib import Path
    try:
        return Path(path).resolve().as_uri()
    except ValueError:
        return path


def to_diagnostic(d: dict, path: str) -> types.Diagnostic:
    """A `check --format json` diagnostic as LSP has it: 0-based, hints in the message."""
    message = d["message"] + "".join(f"\nhint: {h}" for h in d["hints"])
    if d["line"] is None:
        start = end = types.Position(0, 0)
    elif d["path"] != path:   # in a file this one extends: say where, at the first line
        message = f"{d['path']}:{d['line']}:{d['column']}: {message}"
        start = end = types.Position(0, 0)
    else:
        start = types.Position(d["line"] - 1, d["column"] - 1)
        end = types.Position(d["end_line"] - 1, max(d["end_column"] - 1, d["column"] - 1))
    return types.Diagnostic(range=types.Range(start, end), message=message,
                            severity=SEVERITY[d["severity"]], code=d["code"],
                            source="rulesdsl", data={"hints": d["hints"]})


def symbol_range(s) -> types.Range:
    return types.Range(types.Position(s.line, s.column), types.Position(s.end_line, s.end_column))


def make_server() -> RulesServer:
    server = RulesServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams):
        await ls.analyse(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams):
        await ls.analyse(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams):
        await ls.analyse(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams):
        ls.forget(params.text_document.uri)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    def word(ls, params):
        doc = ls.open_document(params.text_document.uri)
        if doc is None:
            return None
        return index().word_at(doc.source, params.position.line, params.position.character)

    def local(ls, params, name):
        """The local a name at the cursor refers to (in the last text that parsed)."""
        uri = params.text_document.uri
        if not name or uri not in ls.trees:
            return None
        tree, model, sources = ls.trees[uri]
        pos = params.position
        return index().local_at(tree, model, sources, uri_to_path(uri), pos.line,
                                pos.character, name)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: types.HoverParams):
        name = word(ls, params)
        text = index().hover_text(ls.symbols.get(params.text_document.uri, []), name,
                                  local(ls, params, name)) if name else None
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(types.MarkupKind.Markdown, text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: types.DefinitionParams):
        name = word(ls, params)
        sym = local(ls, params, name) or \
            index().find(ls.symbols.get(params.text_document.uri, []), name)
        if sym is None:
            return None
        here = params.text_document.uri
        uri = here if sym.path == uri_to_path(here) else path_to_uri(sym.path)
        return types.Location(uri=uri, range=symbol_range(sym))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: types.CompletionParams):
        uri, pos = params.text_document.uri, params.position
        doc = ls.open_document(uri)
        if doc is None:     # never opened: nothing is known of it, nothing is read
            return types.CompletionList(is_incomplete=False, items=[])
        # the place is read from the text as typed; names and types from the last text
        # that parsed (what is being typed seldom parses)
        place = index().place_of(doc.source, pos.line, pos.character)
        tree, model, _ = ls.trees.get(uri, (None, None, None))
        scope = index().scope_at(tree, model, uri_to_path(uri), pos.line, pos.character) \
            if tree is not None else []
        found = index().completions(ls.symbols.get(uri, []), place, scope, model)
        items = [types.CompletionItem(label=label, kind=COMPLETION_KINDS.get(sort))
                 for label, sort in found]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: RulesServer, params: types.DocumentSymbolParams):
        path = uri_to_path(params.text_document.uri)
        out = []
        for s in ls.symbols.get(params.text_document.uri, []):
            if s.path != path:      # declared in a file this one extends
                continue
            out.append(_document_symbol(s))
        return out

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: types.DocumentFormattingParams):
        doc = ls.open_document(params.text_document.uri)
        if doc is None:
            return None
        from rulesdsl.lang.fmt import format_source
        try:
            formatted = format_source(doc.source, uri_to_path(params.text_document.uri))
        except RulesError:
            return None             # a file that does not parse: its diagnostics say why
        if formatted == doc.source:
            return []
        lines = doc.source.split("\n")
        end = types.Position(len(lines) - 1, len(lines[-1]))
        return [types.TextEdit(range=types.Range(types.Position(0, 0), end),
                               new_text=formatted)]

    return server


def _document_symbol(s) -> types.DocumentSymbol:
    whole = types.Range(types.Position(s.decl_line, 0),
                        types.Position(s.decl_end_line, s.decl_end_column))
    sel = symbol_range(s)
    if not (whole.start.line <= sel.start.line and sel.end.line <= whole.end.line):
        whole = sel
    return types.DocumentSymbol(name=s.name, kind=SYMBOL_KINDS.get(s.sort, types.SymbolKind.Key),
                                range=whole, selection_range=sel, detail=s.detail,
                                children=[_document_symbol(c) for c in s.children])


# A message larger than this is refused unread: a didOpen carries a whole file, JSON-escaped,
# and a rules file is at most `file_bytes` (10 MB) long; a client that says more is wrong.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
MAX_HEADER_LINE = 64 * 1024
_LENGTH = re.compile(rb"content-length:[ \t]*(\S*)[ \t]*\r?\n?$", re.IGNORECASE)


class Frames:
    """Standard input as pygls reads it (`readline` for headers, `read` for a body), holding
    only well-formed messages. A header block without a Content-Length, or with one that is
    not a number or is past MAX_MESSAGE_BYTES, is skipped with a warning on standard error
    and reading goes on at the next header: a broken body that ends without a newline is
    read with the header after it, so a header is found at the end of a line as well."""

    def __init__(self, raw):
        self.raw = raw
        self.ready = b""   # the clean message being handed out: its header, then its body

    def readline(self) -> bytes:
        if not self.ready:
            self.ready = self.next_message()
        end = self.ready.find(b"\n") + 1 or len(self.ready)
        line, self.ready = self.ready[:end], self.ready[end:]
        return line

    def read(self, n: int) -> bytes:
        body, self.ready = self.ready[:n], self.ready[n:]
        return body

    def next_message(self) -> bytes:
        """The next good message as `Content-Length: N` + blank line + body; b"" at the end."""
        while True:
            header = self.header_block()
            if header is None:
                return b""
            length = self.content_length(header)
            if length is None:
                continue
            body = self.raw.read(length)
            if len(body) < length:
                return b""           # the input ended inside the body
            return b"Content-Length: %d\r\n\r\n" % length + body

    def header_block(self) -> list | None:
        """The lines up to a blank one (without it); None at the end of the input."""
        lines = []
        while True:
            line = self.raw.readline(MAX_HEADER_LINE)
            if not line:
                return None
            if not line.strip():
                if lines:
                    return lines
                continue             # blank lines between messages
            lines.append(line)

    @staticmethod
    def content_length(header: list) -> int | None:
        """The block's Content-Length, or None (with a warning) when it has no usable one."""
        for line in header:
            at = line.lower().rfind(b"content-length:")
            found = _LENGTH.match(line, at) if at >= 0 else None
            if found is None:
                continue
            value = found.group(1)
            if value.isdigit() and len(value) <= 12 and 0 < int(value) <= MAX_MESSAGE_BYTES:
                return int(value)
            logger.warning("rulesdsl lsp: a message with Content-Length %r was skipped "
                           "(a length is a number from 1 to %d)", value[:40], MAX_MESSAGE_BYTES)
            return None
        logger.warning("rulesdsl lsp: a message without a Content-Length header was skipped")
        return None


def serve() -> int:
    """Run the server on standard input and output until the client says exit."""
    server = make_server()
    server.warm_up()
    server.start_io(stdin=Frames(sys.stdin.buffer))
    return 0
