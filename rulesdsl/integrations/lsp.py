"""`rulesdsl lsp`: a language server on standard input and output (`rulesdsl[lsp]`).

Any editor that speaks the Language Server Protocol gets, for `.rules` files:
- diagnostics as you type: the checker's errors and warnings with their codes, places and
  hints, the same as `rulesdsl check --format json` (errors in a file this one extends
  are shown at its first line, naming the place);
- hover: a keyword's documentation (its construct's one line and example), a built-in's
  signature, a declared name's declaration and type;
- go to definition of a declared name (also into a file this one extends);
- completion of keywords, built-ins and declared names;
- document symbols: options, enums, boards, kinds, zones, variables, definitions, phases;
- formatting through `rulesdsl fmt`'s formatter.
"""

from __future__ import annotations

from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from rulesdsl._version import __version__
from rulesdsl.integrations import rules_index as index
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.limits import read_text
from rulesdsl.lang.fmt import format_source

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
                    "field": types.CompletionItemKind.Field}


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("rulesdsl", __version__)
        self.symbols: dict = {}      # uri -> symbols of the last text that parsed
        self.trees: dict = {}        # uri -> (merged tree, model or None, sources) of it

    def open_document(self, uri: str):
        """The document the client opened under `uri`, or None. Never pygls's fallback for
        any other uri, which reads the file from disk: a request naming file:///dev/stdin
        or a FIFO would block the server for good, /dev/zero would fill its memory."""
        return self.workspace.text_documents.get(unquote(uri))

    def analyse(self, uri: str) -> None:
        doc = self.open_document(uri)
        if doc is None:         # saved without being opened: nothing of it is known
            return
        path = uri_to_path(uri)
        found, tree, model = index.diagnostics_of(doc.source, path)
        if tree is not None:
            sources = {path: doc.source}
            for d in tree.decls:
                p = d.span.path if d.span else path
                if p not in sources:
                    try:
                        sources[p] = read_text(p, "E107", "file to extend")
                    except (OSError, RulesError):
                        sources[p] = ""
            self.symbols[uri] = index.symbols_of(tree, sources, model)
            self.trees[uri] = (tree, model, sources)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=doc.version,
            diagnostics=[to_diagnostic(d, path) for d in found]))


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
    def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams):
        ls.analyse(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams):
        ls.analyse(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams):
        ls.analyse(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams):
        ls.symbols.pop(params.text_document.uri, None)
        ls.trees.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    def word(ls, params):
        doc = ls.open_document(params.text_document.uri)
        if doc is None:
            return None
        return index.word_at(doc.source, params.position.line, params.position.character)

    def local(ls, params, name):
        """The local a name at the cursor refers to (in the last text that parsed)."""
        uri = params.text_document.uri
        if not name or uri not in ls.trees:
            return None
        tree, model, sources = ls.trees[uri]
        pos = params.position
        return index.local_at(tree, model, sources, uri_to_path(uri), pos.line,
                              pos.character, name)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: types.HoverParams):
        name = word(ls, params)
        text = index.hover_text(ls.symbols.get(params.text_document.uri, []), name,
                                local(ls, params, name)) if name else None
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(types.MarkupKind.Markdown, text))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: types.DefinitionParams):
        name = word(ls, params)
        sym = local(ls, params, name) or \
            index.find(ls.symbols.get(params.text_document.uri, []), name)
        if sym is None:
            return None
        here = params.text_document.uri
        uri = here if sym.path == uri_to_path(here) else path_to_uri(sym.path)
        return types.Location(uri=uri, range=symbol_range(sym))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: types.CompletionParams):
        items = [types.CompletionItem(label=label, kind=COMPLETION_KINDS.get(sort))
                 for label, sort in index.completions(ls.symbols.get(params.text_document.uri,
                                                                     []))]
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


def serve() -> int:
    """Run the server on standard input and output until the client says exit."""
    make_server().start_io()
    return 0
