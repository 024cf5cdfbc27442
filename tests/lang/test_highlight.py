"""The Pygments lexer for rules files (rulesdsl.lang.highlight); skipped without Pygments."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.glob("games/*.rules")) + sorted(ROOT.glob("examples/*.rules")) + \
    sorted(ROOT.glob("tests/lang/*.rules"))


def test_importing_rulesdsl_does_not_need_pygments():
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'pygments' or name.startswith('pygments.'):\n"
            "            raise ImportError('no pygments here')\n"
            "sys.meta_path.insert(0, Block())\n"
            "import rulesdsl, rulesdsl.cli, rulesdsl.lang.fmt\n"
            "rulesdsl.load('triumvirat')\n"
            "assert not any(m.startswith('pygments') for m in sys.modules)\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_entry_point_declared_in_pyproject():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = None
    if tomllib is not None:
        data = tomllib.loads(text)
        points = data["project"]["entry-points"]["pygments.lexers"]
        assert points["rulesdsl"] == "rulesdsl.lang.highlight:RulesLexer"
        extras = data["project"]["optional-dependencies"]
        assert any(d.lower().startswith("pygments") for d in extras["highlight"])
        assert any(d.lower().startswith("pygments") for d in extras["test"])
    else:
        assert '[project.entry-points."pygments.lexers"]' in text
        assert re.search(r'^rulesdsl = "rulesdsl\.highlight:RulesLexer"$', text, re.M)


pygments = pytest.importorskip("pygments")

from pygments.lexers import find_lexer_class_for_filename, get_lexer_by_name  # noqa: E402
from pygments.token import Error, Token  # noqa: E402
from pygments.util import ClassNotFound  # noqa: E402

from rulesdsl.lang.highlight import (BUILTIN_CALLS, BUILTIN_VALUES, CONSTANTS,  # noqa: E402
                                DECLARATIONS, KEYWORDS, OPERATOR_WORDS, TYPES, RulesLexer)


def tokens(text: str):
    return [(t, v) for t, v in RulesLexer().get_tokens(text) if v.strip()]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_error_token_in_bundled_files(path):
    text = path.read_text(encoding="utf-8")
    toks = list(RulesLexer().get_tokens(text))
    bad = [v for t, v in toks if t in Error]
    assert not bad, f"{path.name}: {bad[:5]}"
    assert "".join(v for _, v in toks) == text if text.endswith("\n") else text + "\n"


def test_lexer_is_found_by_name_and_file_name():
    try:
        cls = type(get_lexer_by_name("rulesdsl"))
    except ClassNotFound:  # the package is not installed: no entry point registered
        cls = find_lexer_class_for_filename("x.rules") or RulesLexer
        if cls is not RulesLexer:
            pytest.skip("another *.rules lexer is registered and rulesdsl is not installed")
    assert cls.__name__ == "RulesLexer"
    assert set(RulesLexer.aliases) == {"rules", "rulesdsl"}
    assert RulesLexer.filenames == ["*.rules"]


def test_token_kinds():
    toks = tokens('override phase deal_all(p: player) {\n'
                  '  deal 4 from stock to hand  # four each\n'
                  '  log "{p} has {size(hand[p])} \\" cards"\n'
                  '  set money[p] -= 10_000\n'
                  '  if c is not mob and true { win players }\n'
                  '}\n'
                  'players 2..5\n'
                  'deck stock { 4 x weapon(purple) }\n')
    kinds = {v: t for t, v in toks}
    assert kinds["override"] in Token.Keyword.Declaration
    assert kinds["phase"] in Token.Keyword.Declaration
    assert kinds["deal_all"] in Token.Name.Function
    assert kinds["player"] in Token.Keyword.Type
    assert kinds["deal"] in Token.Keyword
    assert kinds["4"] in Token.Number
    assert kinds["# four each"] in Token.Comment
    assert kinds["size"] in Token.Name.Builtin
    assert kinds["\\\""] in Token.String.Escape
    assert kinds["10_000"] in Token.Number
    assert kinds["-="] in Token.Operator
    assert kinds["is"] in Token.Operator.Word
    assert kinds["true"] in Token.Keyword.Constant
    assert kinds["x"] in Token.Keyword
    assert (Token.Keyword.Declaration, "players") in toks    # `players 2..5`
    assert (Token.Name.Builtin, "players") in toks           # `win players`
    assert [v for t, v in toks if t in Token.String.Interpol] == ["{", "}", "{", "}"]
    assert [v for t, v in toks if t is Token.Name] == \
        ["p", "stock", "hand", "p", "hand", "p", "money", "p", "c", "mob", "weapon", "purple"]
    assert (Token.Name.Variable, "stock") in toks            # `deck stock`


def test_unterminated_string_is_marked():
    toks = list(RulesLexer().get_tokens('log "no end\nshuffle s\n'))
    assert [v for t, v in toks if t in Error] == ["\n"]
    assert (Token.Keyword, "shuffle") in toks           # and the next line lexes as usual


def test_every_word_of_the_grammar_is_highlighted():
    """A new keyword in the grammar needs a place in the lexer's lists."""
    from rulesdsl.lang.resources import grammar_text
    words = set(re.findall(r'"([a-z_]+)"', grammar_text()))
    known = set(DECLARATIONS + KEYWORDS + OPERATOR_WORDS + CONSTANTS + TYPES + ("x",))
    assert words - known == set()


def test_every_builtin_is_highlighted():
    from rulesdsl.lang import check
    assert set(check.BUILTIN_VALUES) <= set(BUILTIN_VALUES)
    assert set(check.BUILTIN_CALLS) | set(check.AGGREGATES) <= set(BUILTIN_CALLS)
