"""A Lark LALR parser's tables kept as data: JSON, read with `json` alone, never a pickle.

Lark's own `cache=` file is a pickle that Lark unpickles before it compares the grammar's
hash, so whoever can write that file runs code in every later parse. Here the tables are
Lark's own serialisation (`memo_serialize`, what its standalone generator writes) in JSON,
with a digest of the grammar, the options and the Lark and Python versions inside; a file
that does not match, does not decode or is not this user's own (rulesdsl/cache.py) is
built afresh and written again."""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Optional

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from rulesdsl.cache import read_trusted, write_atomic

FORMAT = "rulesdsl parse tables, version 1"


def tables_key(grammar: str, options: dict) -> str:
    """What the tables depend on: the grammar, the options that shape them, Lark's and
    Python's versions (Lark's serialisation may change with either)."""
    said = json.dumps([FORMAT, grammar, sorted(options.items()), lark.__version__,
                       list(sys.version_info[:2])], sort_keys=True)
    return hashlib.sha256(said.encode("utf-8")).hexdigest()


def cached_parser(path: Optional[str], grammar: str, options: dict,
                  at_load: Optional[dict] = None) -> Lark:
    """The parser for `grammar` with `options` (which shape its tables) and `at_load`
    (callbacks, which do not): from the tables at `path` where they match, else built now
    and written there. `path` None: built, nothing kept."""
    at_load = at_load or {}
    key = tables_key(grammar, options)
    if path is not None:
        loaded = read_tables(path, key, at_load)
        if loaded is not None:
            return loaded
    built = Lark(grammar, **options, **at_load)
    if path is not None:
        write_atomic(path, tables_json(built, key).encode("utf-8"))
    return built


# options that are code, not tables (Lark's save leaves them out the same way): given
# again when the tables are read
CODE_OPTIONS = ("lexer_callbacks", "postlex", "transformer", "tree_class", "edit_terminals",
                "_plugins")


def tables_json(parser: Lark, key: str) -> str:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in CODE_OPTIONS}
    return json.dumps(_plain({"format": FORMAT, "key": key, "data": data, "memo": memo}),
                      separators=(",", ":"))


def read_tables(path: str, key: str, at_load: dict) -> Optional[Lark]:
    """The parser from the tables at `path`, or None where there are none that match."""
    raw = read_trusted(path)
    if raw is None:
        return None
    try:
        saved = json.loads(raw.decode("utf-8"), object_hook=_typed)
        if not isinstance(saved, dict) or saved.get("format") != FORMAT or \
                saved.get("key") != key:
            return None
        return Lark._load_from_dict(saved["data"], saved["memo"], **at_load)
    except Exception:  # damaged in any way: the tables are built again, as if missing
        return None


# Lark's serialisation holds dicts with int keys and tuples besides JSON's own types; each
# is written as a one-key object, so the tables read back exactly as they were made.
def _plain(value):
    if isinstance(value, dict):
        return {"d": [[_plain(k), _plain(v)] for k, v in value.items()]}
    if isinstance(value, tuple):
        return {"t": [_plain(v) for v in value]}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"parse tables hold a {type(value).__name__}")


def _typed(obj: dict):
    if "t" in obj:
        return tuple(obj["t"])
    return {k: v for k, v in obj["d"]}
