"""Generated code cannot be steered from outside the checked tree: a file name, a title or
any other outside text reaches the generated Python only as a quoted literal or inside a
comment that ends on its own line (engine/compile/generate.py, `quoted`/`comment_text`),
and a rules file name holding a control character is refused (E213 in `extends`, C017 on
the command line and through `rulesdsl.load`)."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.engine.compile import Compiler, native
from rulesdsl.engine.game import Game
from rulesdsl.lang.check import check_file_tree
from rulesdsl.lang.errors import RulesError
from rulesdsl.lang.extend import load_tree

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))

# A file name that, written raw into a `# name:line` comment, turns the rest of every
# procedure into a string and runs `open('MARKER', 'w')`: each comment opens or closes
# the string, and the lines after it indent as the code around them expects.
PAYLOAD = "b\n    X = \"\"\";open('MARKER','w').close()\n    if 1:\n        if 1:\n#"
TINY = 'game "Tiny"\nplayers 2\nflow main\nphase main { }\n'

HOSTILE_NAMES = [
    PAYLOAD + ".rules",
    # quotes of every kind, a backslash, a closing triple quote; what editors and
    # str.splitlines break lines at; what Python's tokenizer ends a line at (\r); a '#'
    "q'\"\"\"\\\\x'''\u2028\u2029\x85 \r\x0c\x0b\x1c\t# x:9.rules",
]
HOSTILE_TITLE = 'Evil\\n    import os\u2028\\"\\"\\"\\\\'  # as written in the rules string


# put before every text of a rules file (as written there): a new line, quotes of every
# kind, a backslash, a Unicode line separator and a '#'
TEXT_PREFIX = "\\n    X = \\\"\\\"\\\";\\\\\u2028'''# "
# a string or a comment, as the lexer finds them (lang/fmt/source.py reads comments so)
_STRING_OR_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*')


def with_texts(text: str, words: str) -> str:
    """Every non-empty string of a rules file (labels, questions, log words, titles)
    with `words` (as written in a rules string) before it; comments and the name of the
    file it extends left alone."""
    looks = [m.span() for m in _LOOK.finditer(text)]

    def prefix(m):
        said = m.group()
        if said.startswith("#") or said == '""' or \
                m.string[max(0, m.start() - 20):m.start()].rstrip().endswith("extends") or \
                any(a <= m.start() < b for a, b in looks):  # a look's colours are not texts
            return said
        return '"' + words + said[1:]
    return _STRING_OR_COMMENT.sub(prefix, text)


_LOOK = re.compile(r"^look\s*\{[^}]*\}", re.M)


def generated_texts(text: str, path: str, players: int | None = None) -> list[str]:
    """Every text the compiler generates for a program of the file: each piece it compiles,
    the native module's text and the `--show` listing. The file is parsed under `path`
    (the refusal of control characters in names is a separate door, tested below)."""
    sources: dict = {}
    model, _ = check_file_tree(load_tree(text, path, sources), sources)
    game = Game(model, sources, path, {})
    compiler = Compiler(model, players or game.min_players, game.options)
    prog = compiler.build()
    module, _ = native.module_text(compiler.source.pieces, compiler.source.piece_trees,
                                   compiler.source.ns)
    return [t for _, t in compiler.source.pieces] + [module, prog.generated]


def shape(text: str) -> str:
    """The statements a generated text makes, string constants aside (comments are not
    statements: whatever a comment holds, it changes nothing here)."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = "<text>"
    return ast.dump(tree)


def with_title(text: str, title: str) -> str:
    head, _, rest = text.partition('game "')
    return head + 'game "' + title + '"' + rest.partition('"')[2]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_hostile_names_and_titles_generate_the_same_statements(tmp_path, monkeypatch, path):
    """Every bundled game and example under a plain name, under names and a title made
    to break out of a comment or a string, and with such words in every text: the same
    statements, one by one."""
    monkeypatch.chdir(tmp_path)
    text = path.read_text(encoding="utf-8")
    where = str(path.parent)  # a base it extends is found beside it
    plain = [shape(t) for t in generated_texts(text, os.path.join(where, "plain.rules"))]
    assert len(plain) > 2
    for name in HOSTILE_NAMES:
        texts = generated_texts(with_title(text, HOSTILE_TITLE), os.path.join(where, name))
        assert [shape(t) for t in texts] == plain, name
    # a text with words before its holes is made otherwise than one that is a hole alone:
    # hostile words are compared with plain words in the same places
    hostile = with_texts(text, TEXT_PREFIX)
    assert hostile.count(TEXT_PREFIX) >= 2  # the title and at least one more
    plain = [shape(t) for t in generated_texts(with_texts(text, "plain words "),
                                               os.path.join(where, "plain.rules"))]
    texts = generated_texts(hostile, os.path.join(where, "plain.rules"))
    assert [shape(t) for t in texts] == plain
    assert not (tmp_path / "MARKER").exists()


def test_a_hostile_name_runs_nothing_when_the_game_runs(tmp_path, monkeypatch):
    """The payload name under the generated engine: loaded, compiled, played; nothing runs."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULESDSL_ENGINE", raising=False)
    path = str(tmp_path / (PAYLOAD + ".rules"))
    sources: dict = {}
    model, _ = check_file_tree(load_tree(TINY, path, sources), sources)
    game = Game(model, sources, path, {})
    assert game.program(2).generated  # the generated engine, not the closures
    game.new_game(players=2, seed=1)
    assert not (tmp_path / "MARKER").exists()


def _extends_payload(tmp_path) -> Path:
    (tmp_path / (PAYLOAD + ".rules")).write_text(TINY, encoding="utf-8")
    spec = PAYLOAD.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    child = tmp_path / "child.rules"
    child.write_text(f'extends "{spec}"\n', encoding="utf-8")
    return child


def test_extends_of_a_name_with_a_newline_is_refused_and_runs_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    child = _extends_payload(tmp_path)
    for attempt in (lambda: rulesdsl.check_file(child),
                    lambda: rulesdsl.load(child).new_game(players=2, seed=1)):
        with pytest.raises(RulesError) as info:
            attempt()
        assert info.value.code == "E213", str(info.value)
        assert info.value.span is not None and info.value.span.line == 1
        assert "U+000A" in info.value.message and "\n" not in info.value.message
    assert not (tmp_path / "MARKER").exists()


@pytest.mark.parametrize("char", ["\n", "\r", "\x1b", "\x00", "\x85", "\u2028", "\x7f"])
def test_a_rules_file_name_with_a_control_character_is_refused(tmp_path, monkeypatch, char):
    monkeypatch.chdir(tmp_path)
    name = f"game{char}x.rules"
    if char != "\x00":
        (tmp_path / name).write_text(TINY, encoding="utf-8")
    for attempt in (lambda: rulesdsl.load(name), lambda: rulesdsl.check_file(name)):
        with pytest.raises(RulesError) as info:
            attempt()
        assert info.value.code == "C017", str(info.value)
        assert f"U+{ord(char):04X}" in info.value.message
        assert char not in info.value.message


def test_the_command_line_refuses_such_a_name(tmp_path):
    import subprocess
    import sys
    name = "game\nx.rules"
    (tmp_path / name).write_text(TINY, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "rulesdsl", "check", name], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1
    assert "error[C017]" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
