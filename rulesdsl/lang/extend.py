"""Files that build on other files: `extends "base"` and `override`.

The extending file's declarations replace the base's declarations of the same kind and
name when marked `override`, and are added otherwise. The result is one ast.File that the
checker sees whole, so every reference in the base resolves to the overriding version.
"""

from __future__ import annotations

from pathlib import Path

from rulesdsl.lang import ast
from rulesdsl.lang.limits import is_rules_file, read_bytes, refuse_control_in_name
from rulesdsl.lang.errors import RulesError, did_you_mean
from rulesdsl.lang.resources import bundled_path
from rulesdsl.lang.syntax import parse

SINGLETONS = (ast.Game, ast.Players, ast.Flow, ast.Setup, ast.Score, ast.Evaluate, ast.Payoff)
RESTATED = (ast.Game, ast.Players)  # a new title or player count simply replaces the base's
MAX_DEPTH = 8


def decl_key(d) -> tuple:
    """What an override replaces: the declaration's sort and its name."""
    if isinstance(d, SINGLETONS):
        return (type(d).__name__,)
    if isinstance(d, ast.Deck):
        return ("Deck", d.zone)
    if isinstance(d, ast.Invariant):
        return ("Invariant", d.zone)
    if isinstance(d, ast.Extends):
        return ("Extends",)
    return (type(d).__name__, getattr(d, "name", ""))


def describe(key: tuple) -> str:
    return " ".join(k.lower() if i == 0 else k for i, k in enumerate(key))


def resolve_base(spec: str, from_path: str, ext) -> Path | None:
    """The file an `extends` names, or None; a name the system cannot even look up (too
    long, a NUL) is E210 at the `extends` line, not an error of the file that holds it."""
    here = Path(from_path).resolve().parent if from_path and not from_path.startswith("<") \
        else Path.cwd()
    try:
        for candidate in (here / spec, here / f"{spec}.rules"):
            if is_rules_file(candidate):
                return candidate
        return bundled_path(spec)
    except (OSError, ValueError) as e:   # ENAMETOOLONG; ValueError for an embedded NUL
        why = getattr(e, "strerror", None) or "the name cannot be a file's name"
        raise RulesError("E210", f"cannot look up the file {shown_name(spec)} to extend: "
                         f"{why}", ext.span, ["name a .rules file next to this one, or a "
                                              "bundled game"]) from None


SHOWN_NAME_CHARS = 60


def shown_name(spec: str) -> str:
    """A file name from an `extends` as a message quotes it: cut past 60 characters, so a
    name of thousands still gives a message that fits on a line."""
    if len(spec) <= SHOWN_NAME_CHARS:
        return f"'{spec}'"
    return f"'{spec[:SHOWN_NAME_CHARS]}...' ({len(spec):,} characters)"


def read_base(path: Path, ext) -> str:
    """A base's text: only a .rules file of UTF-8 text, size-limited; never echoed when it
    is not one (a base named '/proc/self/environ' must not print the environment)."""
    try:
        data = read_bytes(path, "E212", "file to extend")
    except OSError as e:
        raise RulesError("E210", f"cannot read the file {shown_name(ext.body.path)} to extend: "
                         f"{e.strerror or e}", ext.span) from None
    except RulesError as e:
        raise RulesError(e.code, e.message, ext.span, e.hints) from None
    try:
        return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError("E212", f"the file {shown_name(ext.body.path)} to extend is not UTF-8 "
                         "text", ext.span, ["only rules files can be extended: UTF-8 text "
                                            "whose name ends in .rules"]) from None


def load_tree(text: str, path: str, sources: dict, depth: int = 0) -> ast.File:
    """Parse `text` and everything it extends into one merged File; fill `sources`."""
    sources[path] = text
    tree = parse(text, path)
    extends = [d for d in tree.decls if isinstance(d.body, ast.Extends)]
    if not extends:
        for d in tree.decls:
            if d.override:
                raise RulesError("E503", "'override' needs a file to override: this file "
                                 "extends none", d.span, ['add: extends "base-game"'])
        return tree
    if len(extends) > 1:
        raise RulesError("E500", "a file can extend only one other file", extends[1].span)
    ext = extends[0]
    if depth >= MAX_DEPTH:
        raise RulesError("E211", f"files extend each other more than {MAX_DEPTH} deep",
                         ext.span, ["check for a file that extends itself"])
    refuse_control_in_name(ext.body.path, "E213", "file to extend", ext.span)
    base_path = resolve_base(ext.body.path, path, ext)
    if base_path is None:
        raise RulesError("E210", f"cannot find the file {shown_name(ext.body.path)} to extend",
                         ext.span, ["name a .rules file next to this one, or a bundled game",
                                    "only rules files can be extended: UTF-8 text whose name "
                                    "ends in .rules"])
    base_text = read_base(base_path, ext)
    base = load_tree(base_text, str(base_path), sources, depth + 1)
    return merge(base, tree)


def merge(base: ast.File, child: ast.File) -> ast.File:
    decls = [d for d in base.decls if not isinstance(d.body, ast.Extends)]
    index: dict = {}
    for i, d in enumerate(decls):
        index.setdefault(decl_key(d.body), i)
    errors = []
    for d in child.decls:
        if isinstance(d.body, ast.Extends):
            continue
        key = decl_key(d.body)
        if d.override:
            if key not in index:
                names = [k[-1] for k in index if k[0] == key[0]]
                errors.append(RulesError("E503", f"'override' of {describe(key)}, which the "
                                         "base file does not declare", d.span,
                                         did_you_mean(key[-1], names) or
                                         ["remove 'override' to add a new declaration"]))
                continue
            decls[index[key]] = d
        elif isinstance(d.body, RESTATED) and key in index:
            decls[index[key]] = d
        elif isinstance(d.body, SINGLETONS) and key in index:
            # the base's flow, setup or score is replaced only when the file says so: a
            # second `score` written by mistake must not silently change the game
            what = describe(key)
            errors.append(RulesError("E500", f"the base file already has a {what}, and a "
                                     f"game has one {what}", d.span,
                                     [f"write 'override' before it to replace the base's "
                                      f"{what}"]))
        else:
            decls.append(d)
    if errors:
        from rulesdsl.lang.errors import CheckFailed
        raise CheckFailed(errors)
    return ast.File(child.span, child.path, tuple(decls))
