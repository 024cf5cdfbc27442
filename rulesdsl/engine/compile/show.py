"""The rules' names in the listing `rulesdsl compile --show` prints.

The running code reads a frame's locals, the zones and the variables by number (`L[0]`,
`st.zones[6]`, `st.vars[2 + k]`): a constant costs least. The listing is the same trees
written with those numbers named as the rules name them: `L[lead]` for the frame's local
`lead`, `st.zones[TRICK]`, `st.vars[TRICKS + k]`, `st.zones[HAND + 1]` for the second
seat's hand. Each tree is renamed as a copy, once compiled, and only when a listing is
asked for (`Listing.listed`); the header of the listing binds the zones' and variables'
names to their numbers, so it reads as Python that computes what runs."""

from __future__ import annotations

import ast as py
import builtins
import copy
import math
from contextlib import contextmanager
from typing import Any, Iterator, Optional

from rulesdsl.engine.ir.python import identifier, walk


class Family:
    """Zones or variables by number: each family's name (upper case) over its first
    number and how many it numbers (`hand`, per player: HAND over 2 and 3)."""

    def __init__(self, layouts, count: int, taken: set, what: str):
        self.of: list[Optional[tuple[str, int]]] = [None] * count  # number -> (name, base)
        self.bases: dict[int, str] = {}  # the first number of a family of more than one
        self.sizes: dict[str, tuple[int, int]] = {}  # name -> (base, how many)
        for lay in layouts:
            size = math.prod(lay.sizes)
            shown = identifier(lay.name).upper()
            while shown in taken:  # (a table of the same name: CARDS)
                shown = f"{shown}_{what}"
            taken.add(shown)
            self.sizes[shown] = (lay.base, size)
            for k in range(lay.base, min(lay.base + size, count)):
                self.of[k] = (shown, lay.base)
            if size > 1:
                self.bases[lay.base] = shown

    def shown(self, key: py.expr) -> Optional[py.expr]:
        """`key`, a number or `base + x`, with the family's name for the number."""
        if isinstance(key, py.Constant) and type(key.value) is int and \
                0 <= key.value < len(self.of) and self.of[key.value] is not None:
            family, base = self.of[key.value]  # type: ignore[misc]
            return _plus(py.Name(family, py.Load()), key.value - base)
        if isinstance(key, py.BinOp) and isinstance(key.op, py.Add) and \
                isinstance(key.left, py.Constant) and type(key.left.value) is int and \
                key.left.value in self.bases:
            return py.BinOp(py.Name(self.bases[int(key.left.value)], py.Load()), py.Add(),
                            key.right)
        if isinstance(key, py.IfExp):  # `base + k if 0 <= k < n else <fails>`
            body = self.shown(key.body)
            if body is not None:
                return py.IfExp(key.test, body, key.orelse)
        return None


def _slot(node: py.AST) -> Optional[int]:
    """k where `node` reads `L[k]`, the frame's slot k."""
    if isinstance(node, py.Subscript) and isinstance(node.value, py.Name) and \
            node.value.id == "L" and isinstance(node.slice, py.Constant) and \
            type(node.slice.value) is int:
        return node.slice.value
    return None


def _in_order(node: py.AST):
    """`node` and every node in it, in the order Python runs them (an assignment's value
    before it, and the statements of a body one after the other)."""
    yield node
    if isinstance(node, py.Assign):  # (its value first: then the name is bound)
        yield from _in_order(node.value)
        for target in node.targets:
            yield from _in_order(target)
        return
    for child in py.iter_child_nodes(node):
        yield from _in_order(child)


def _family(node: py.AST) -> Optional[str]:
    """"zones" or "vars" where `node` reads `st.zones[...]` or `st.vars[...]`."""
    if isinstance(node, py.Subscript) and isinstance(node.value, py.Attribute) and \
            isinstance(node.value.value, py.Name) and node.value.value.id == "st" and \
            node.value.attr in ("zones", "vars"):
        return node.value.attr
    return None


def _plus(base: py.expr, k: int) -> py.expr:
    return base if k == 0 else py.BinOp(base, py.Add(), py.Constant(k))


class ShowNames:
    """Renames copies of generated trees for the listing (the program's layout read once,
    when its zones and variables are numbered)."""

    def __init__(self, prog, taken: set):
        """`taken`: the names the generated code binds (a family's name avoids them)."""
        self.zones = Family(prog.zones.values(), len(prog.zone_names), taken, "ZONE")
        self.vars = Family(prog.vars.values(), len(prog.var_names), taken, "VAR")
        self.proc_frames: dict[int, tuple] = {}  # phase number -> its frame's names
        self.used: set[str] = set()  # every family name a listed tree uses

    def renamed(self, tree: py.AST, frame: tuple) -> py.AST:
        """A copy of `tree` with its frame reads (`frame`: each slot's name, by slot; the
        procedures' module: each phase's own), zones and variables named."""
        tree = copy.deepcopy(tree)
        for node in walk(tree):
            if isinstance(node, py.FunctionDef):  # a phase's is `proc_<its number>`
                number = node.name[len("proc_"):]
                own = self.proc_frames.get(int(number)) \
                    if node.name.startswith("proc_") and number.isdigit() else None
                self._rename(node, frame if own is None else own)
        if not any(isinstance(node, py.FunctionDef) for node in walk(tree)):
            self._rename(tree, frame)
        return py.fix_missing_locations(tree)

    def _rename(self, tree: py.AST, frame: tuple) -> None:
        taken = {n.id for n in walk(tree) if isinstance(n, py.Name)} | set(dir(builtins))
        # an expression's function reads its locals into their names first (`p = L[0]`,
        # python.named_function): the slot is shown by that name, `p = L[p]`
        read_as = {_slot(node.value): node.targets[0].id for node in walk(tree)
                   if isinstance(node, py.Assign) and len(node.targets) == 1 and
                   isinstance(node.targets[0], py.Name) and _slot(node.value) is not None}
        local: dict[int, str] = {}
        for slot, said in enumerate(frame):
            if not said:  # (a slot two scopes of one frame name differently)
                continue
            base = identifier(said)
            shown, k = base, 2
            while shown in taken and read_as.get(slot) != shown:
                shown, k = f"{base}_{k}", k + 1
            taken.add(shown)
            local[slot] = shown
        # a key computed first into a name (`_k = 2 + c; st.vars[_k] = ...`): what the
        # name keys next, in the order the code runs
        waiting: dict[str, py.Assign] = {}
        for node in _in_order(tree):
            if isinstance(node, py.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], py.Name):
                waiting[node.targets[0].id] = node
            what = _family(node)
            if what is not None and isinstance(node.slice, py.Name) and \
                    node.slice.id in waiting:
                assigned = waiting.pop(node.slice.id)
                assigned.value = self._family_key(what, assigned.value)
        for node in walk(tree):
            if not isinstance(node, py.Subscript):
                continue
            read, what = _slot(node), _family(node)
            if read is not None and read in local:
                node.slice = py.Name(local[read], py.Load())
            elif what is not None:
                node.slice = self._family_key(what, node.slice)

    def _family_key(self, what: str, key: py.expr) -> py.expr:
        """`key` of zones or vars (`what`) with the family's name for its number."""
        family = getattr(self, what)
        shown = family.shown(key)
        if shown is None:
            return key
        self.used.update(n.id for n in walk(shown) if isinstance(n, py.Name) and
                         n.id in family.sizes)
        return shown

    def legend(self) -> list[str]:
        """The header's lines: each zone and variable family a listed tree names, bound to
        its first number (a comment says how many it numbers)."""
        out = []
        for what, family in (("zone", self.zones), ("variable", self.vars)):
            for shown, (base, size) in family.sizes.items():
                if shown in self.used:
                    many = f", {size} of them" if size > 1 else ""
                    out.append(f"{shown} = {base}  # the {what} {shown.lower()}{many}")
        return out


class Listing:
    """What `--show` lists of a program's generated code: each generated definition, in
    order, and the names of the frame each piece was compiled for (its `L`). Kept by the
    compiler's Source, which makes the pieces (`pieces`, `piece_trees`: shared lists)."""

    def __init__(self, m, pieces: list, piece_trees: list):
        self.m, self.pieces, self.piece_trees = m, pieces, piece_trees
        self.show = False  # name locals, zones and variables (compile --show)
        # (title, span, its piece's number, where the rules' place goes, a note for its
        # first line), in order
        self.entries: list[tuple[str, Any, int, Optional[int], str]] = []
        self.frame_names: tuple = ()  # the names of the frame being compiled, by slot
        self.piece_frames: list[tuple] = []  # and of each piece's
        self.proc_frames: dict[int, tuple] = {}  # and of each phase's, by its number

    @property
    def count(self) -> int:
        return len(self.entries)

    def note(self, title: str, span, placed: Optional[int], first_line: str = "") -> None:
        """The piece made last is a generated definition to list under `title`."""
        self.entries.append((title, span, len(self.pieces) - 1, placed, first_line))

    @contextmanager
    def frame_of(self, *contexts) -> Iterator[None]:
        """While the code of checked `contexts` (a phase; a definition and its modifiers,
        one frame) is generated: its frame's names, by slot ("" for a slot two of them
        name differently)."""
        names: list = []
        for context in contexts:
            for slot, said in enumerate(self.m.slot_names.get(id(context), ())):
                if slot == len(names):
                    names.append(said)
                elif names[slot] != said:
                    names[slot] = ""
        saved, self.frame_names = self.frame_names, tuple(names)
        try:
            yield
        finally:
            self.frame_names = saved

    def listed(self, names: Optional[ShowNames] = None) -> list:
        """(title, span, text, where) of every generated definition, for the listing
        (generate.listing): its text as compiled, or with the rules' names (`names`)."""
        out = []
        for title, span, piece, placed, first_line in self.entries:
            text = self.pieces[piece][1] if names is None else \
                py.unparse(names.renamed(self.piece_trees[piece], self.piece_frames[piece]))
            if first_line:
                head, _, body = text.partition("\n")
                text = f"{head}{first_line}\n{body}"
            out.append((title, span, text, placed))
        return out
