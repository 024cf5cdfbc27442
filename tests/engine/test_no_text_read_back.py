"""The engine builds generated code as trees and never reads text back.

Every way a module of rulesdsl/engine could turn text into code or search it is found by
walking the package's own source: `ast.parse` and `literal_eval` (under any name they are
imported as), the built-ins `compile`, `eval` and `exec`, and any import of `re` or
`tokenize`. Each use must be one of ALLOWED, which says why it is not generated code read
back; an entry nothing uses any more fails too, so the list stays true."""

from __future__ import annotations

import ast
from pathlib import Path

import rulesdsl

ENGINE = Path(rulesdsl.__file__).parent / "engine"

TEXT_TO_CODE = {"compile", "eval", "exec"}  # built-ins
FROM_AST = {"parse", "literal_eval"}  # functions of the stdlib's ast module
SEARCHING = {"re", "tokenize"}  # modules

# (file under rulesdsl/engine, the function it is in, what it uses) -> why that is fine
ALLOWED = {
    ("compile/generate.py", "compiled_tree", "compile"):
        "the one place generated code is compiled: each piece's `ast` tree as it is (its "
        "text, written by ast.unparse for --show and the native build, is never read)",
    ("compile/source.py", "Source.materialize", "eval"):
        "runs the code object `compiled_tree` made of a generated lambda",
    ("compile/source.py", "Source.materialize", "exec"):
        "runs the code object `compiled_tree` made of generated functions",
    ("ir/python_options.py", "template", "parse"):
        "the statement shapes written in that module's own source, parsed once as it "
        "loads; holes are filled with trees, never with text",
    ("compile/functions.py", "_constant", "literal_eval"):
        "given a tree the compiler built (is it a constant?), never text",
    ("runtime/places.py", "<module>", "re"):
        "matches a rules file's name for a comment, never generated code",
}


def _uses(tree: ast.Module) -> list:
    """(the function a use is in, what it uses) for every use in a module."""
    ast_names = set()  # names the stdlib's ast module goes by here
    from_ast = {}  # local name -> parse / literal_eval
    found = []

    def visit(node: ast.AST, where: str) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "ast":
                    ast_names.add(alias.asname or "ast")
                if alias.name.split(".")[0] in SEARCHING:
                    found.append((where, alias.name.split(".")[0]))
        elif isinstance(node, ast.ImportFrom) and not node.level:
            module = (node.module or "").split(".")[0]
            if module in SEARCHING:
                found.append((where, module))
            if node.module == "ast":
                for alias in node.names:
                    if alias.name in FROM_AST:
                        from_ast[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in TEXT_TO_CODE:
                found.append((where, f.id))
            elif isinstance(f, ast.Name) and f.id in from_ast:
                found.append((where, from_ast[f.id]))
            elif isinstance(f, ast.Attribute) and f.attr in FROM_AST and \
                    isinstance(f.value, ast.Name) and f.value.id in ast_names:
                found.append((where, f.attr))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            where = node.name if where == "<module>" else f"{where}.{node.name}"
        for child in ast.iter_child_nodes(node):
            visit(child, where)

    visit(tree, "<module>")
    return found


def engine_uses() -> set:
    """(file, function, what) for every use in rulesdsl/engine."""
    out = set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        rel = path.relative_to(ENGINE).as_posix()
        out |= {(rel, where, what) for where, what in _uses(tree)}
    return out


def test_nothing_reads_generated_text_back():
    unexplained = sorted(engine_uses() - set(ALLOWED))
    assert not unexplained, (
        "text turned into code or searched outside the allowed places (build the tree "
        f"instead, or add a reason to ALLOWED): {unexplained}")


def test_every_allowed_use_is_still_there():
    assert not set(ALLOWED) - engine_uses(), "ALLOWED names a use that is gone: drop it"


def test_the_walk_finds_each_kind_of_use():
    """The walk itself: each form a use can take is found, in the function it is in."""
    source = '''
import ast as py
import re
from ast import literal_eval as constant
from rulesdsl.lang import ast


class Source:
    def back(self, text):
        return py.parse(text, mode="eval").body, constant(text), ast.parse(text)

    def run(self, text):
        exec(compile(text, "x", "exec"))
'''
    assert sorted(_uses(ast.parse(source))) == [
        ("<module>", "re"), ("Source.back", "literal_eval"), ("Source.back", "parse"),
        ("Source.run", "compile"), ("Source.run", "exec")]
