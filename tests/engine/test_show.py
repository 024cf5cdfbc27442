"""`rulesdsl compile --show` names what the running code reads by number: a frame's locals
(`L[lead]`), the zones (`st.zones[TRICK]`, `st.zones[HAND + 1]`) and the variables
(`st.vars[TRICKS + k]`), the numbers bound in the listing's header (compile/show.py)."""

from __future__ import annotations

import ast as py
import copy
import subprocess
import sys

import pytest

import rulesdsl
from rulesdsl.engine.compile import Compiler
from rulesdsl.engine.compile.generate import annotate
from rulesdsl.engine.compile.show import ShowNames
from test_generated import RULES_FILES


def shown_compiler(path, players=None):
    game = rulesdsl.load(str(path))
    compiler = Compiler(game.model, players or game.min_players, game.options, generate=True)
    compiler.source.listing.show = True
    return game, compiler, compiler.build()


def legend_of(listing: str) -> dict:
    """NAME -> number, from the header's `NAME = number` lines."""
    out = {}
    for stmt in py.parse(listing).body:
        if isinstance(stmt, py.FunctionDef):
            break
        if isinstance(stmt, py.Assign) and isinstance(stmt.value, py.Constant) and \
                isinstance(stmt.targets[0], py.Name) and stmt.targets[0].id.isupper():
            out[stmt.targets[0].id] = stmt.value.value
    return out


class _Unnamed(py.NodeTransformer):
    """A renamed tree back in numbers: each family by the legend's number, each local's
    name as one placeholder (the locals are checked against the rules' own names apart)."""

    def __init__(self, legend: dict):
        self.legend = legend

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.value, py.Name) and node.value.id == "L":
            node.slice = py.Constant("slot")
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.left, py.Constant) and isinstance(node.right, py.Constant) and \
                isinstance(node.op, py.Add) and all(type(x.value) is int
                                                    for x in (node.left, node.right)):
            return py.Constant(node.left.value + node.right.value)
        return node

    def visit_Name(self, node):
        return py.Constant(self.legend[node.id]) if node.id in self.legend else node


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_listing_names_only_what_stands_for_the_same_number(path):
    """Every piece listed is its compiled tree with numbers named: read back through the
    legend, the same tree; and an expression's function that reads a local into the
    rules' name for it (`p = L[0]`) shows that very name (`p = L[p]`): the frame's names
    are the ones its code was compiled under."""
    game, compiler, prog = shown_compiler(path)
    if not prog.generated:
        pytest.skip("nothing generated")
    compile(prog.generated, "<listing>", "exec")
    legend = legend_of(prog.generated)
    source = compiler.source
    names = ShowNames(prog, set(source.ns))
    names.proc_frames = source.listing.proc_frames
    shown_trees = []
    for tree, frame in zip(source.piece_trees, source.listing.piece_frames):
        shown = names.renamed(tree, frame)
        back = _Unnamed(legend).visit(copy.deepcopy(shown))
        plain = _Unnamed({}).visit(copy.deepcopy(tree))
        assert py.dump(back) == py.dump(plain), py.unparse(shown)[:2000]
        shown_trees.append(shown)
    locals_named = 0
    for title, _, piece, _, _ in source.listing.entries:
        fn = shown_trees[piece].body[0] if isinstance(shown_trees[piece], py.Module) else None
        if not (title.startswith("E") and isinstance(fn, py.FunctionDef) and fn.name == title):
            continue
        for stmt in fn.body:  # python.named_function: each local read into its name first
            if not (isinstance(stmt, py.Assign) and isinstance(stmt.value, py.Subscript) and
                    isinstance(stmt.value.value, py.Name) and stmt.value.value.id == "L"):
                break
            assert isinstance(stmt.value.slice, py.Name), py.unparse(fn)
            assert stmt.value.slice.id == stmt.targets[0].id, py.unparse(fn)
            locals_named += 1
    if path.stem in ("triumvirat", "ivanhoe", "hearts"):
        assert locals_named > 0 and legend


def test_compile_show_reads_like_the_rules():
    out = subprocess.run([sys.executable, "-m", "rulesdsl", "compile", "triumvirat", "--show"],
                         capture_output=True, text=True, check=True).stdout
    compile(out, "<listing>", "exec")
    # triumvirat.rules: `let lead = leader`, `move c to trick`, `set tricks[...] += 1`,
    # `move played to stock`
    assert "L[lead] = st.vars[LEADER]" in out
    assert "_k = TRICKS + " in out and "_d = STOCK" in out
    assert "st.zones[HAND + _lead" in out and "HAND = 2  # the zone hand, 2 of them" in out
    assert "L[0]" not in out.split("def proc_4")[1].split("def proc_5")[0]


def test_the_listing_is_the_running_code_in_other_words():
    """The program that runs is compiled as before (numbers); only the listing differs,
    line for line beside the plain one."""
    game, _, shown = shown_compiler("triumvirat")
    plain = game.program(2)
    assert "L[lead]" in shown.generated and "L[lead]" not in plain.generated
    assert [p.run is not None for p in shown.procs] == [p.run is not None for p in plain.procs]
    shown_lines = annotate(shown, game.sources).split("\n")
    assert len(shown_lines) - len(plain.generated.split("\n")) == \
        shown.generated.split("\n").index("") - plain.generated.split("\n").index("")
