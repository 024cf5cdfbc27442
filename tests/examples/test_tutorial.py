"""docs/tutorial.md is real: replaying it writes every file it shows, runs every command
and finds the output it shows; its last listing is examples/sevens.rules. Then Sevens
itself: random games for every player count, and the tutorial's scenario.

The tutorial marks each code block with an HTML comment just above it:
  <!-- file: NAME -->     the block is the whole of NAME
  <!-- update: NAME -->   the block's paragraphs replace NAME's paragraphs that begin with
                          the same declaration; new ones go before `setup` (phases: at the end)
  <!-- run -->           lines `$ command` and the output expected (and so the exit
                          status: 1 when an error is shown): `...` alone skips any
                          lines, a line ending in ` ...` matches by its beginning, `P1> x`
                          is typed at the prompt
  <!-- final: NAME = PATH -->  the whole of NAME, and the repository file PATH, exactly
"""

import contextlib
import io
import os
import random
import re
import shlex
import sys
from pathlib import Path

import pytest

import rulesdsl
from rulesdsl import cli
from rulesdsl.lang.fmt import format_source

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
SEVENS = ROOT / "examples" / "sevens.rules"

BLOCK = re.compile(r"<!-- (.*?) -->\n```[a-z]*\n(.*?)```\n", re.S)
SINGLE_WORD = {"game", "players", "score", "setup", "flow", "extends"}


def blocks():
    text = TUTORIAL.read_text()
    found = BLOCK.findall(text)
    # every code block carries a marker, so none escapes the replay
    assert len(found) == text.count("```") // 2, "a code block in the tutorial has no marker"
    return found


def paragraphs(text):
    return [p.strip("\n") for p in re.split(r"\n\s*\n", text) if p.strip()]


def key(paragraph):
    for line in paragraph.splitlines():
        if line.strip() and not line.startswith("#"):
            words = re.findall(r"\w+", line)
            return words[0] if words[0] in SINGLE_WORD else tuple(words[:2])
    return "comment"


def update(old, fragment):
    paras = paragraphs(old)
    for new in paragraphs(fragment):
        k = key(new)
        keys = [key(p) for p in paras]
        if k in keys:
            paras[keys.index(k)] = new
        elif k[0] == "phase" or "setup" not in keys:
            paras.append(new)
        else:
            paras.insert(keys.index("setup"), new)
    return "\n\n".join(paras) + "\n"


def output_of(line, typed, where, pytester):
    """What the command prints, stdout and stderr together, and its exit status; rulesdsl
    runs in this process."""
    args = shlex.split(line)
    if args[0] == "rulesdsl":
        out = io.StringIO()
        old_cwd, old_stdin = os.getcwd(), sys.stdin
        try:
            os.chdir(where)
            sys.stdin = io.StringIO("".join(t + "\n" for t in typed))
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                status = cli.main(args[1:])
        finally:
            os.chdir(old_cwd)
            sys.stdin = old_stdin
        return out.getvalue(), status
    if args[0] == "pytest":  # in this process too, through pytest's own pytester
        assert Path.cwd() == where
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider", *args[1:])
        return "\n".join(result.outlines + result.errlines), result.ret
    raise AssertionError(f"the tutorial runs an unknown command: {line}")


def pattern(expected):
    out = []
    for line in expected:
        if line == "...":
            out.append(r"(?:.*\n)*?")
        elif line.endswith(" ..."):
            out.append(re.escape(line[:-4]) + r".*\n")
        else:
            out.append(re.escape(line) + r"\n")
    return "".join(out)


def run(block, where, pytester):
    chunks = re.split(r"^\$ ", block, flags=re.M)[1:]
    for chunk in chunks:
        line, *expected = chunk.rstrip("\n").split("\n")
        typed = [m.group(1) for m in map(re.compile(r"^P\d+> (.*)$").match, expected) if m]
        text, status = output_of(line, typed, where, pytester)
        actual = "".join(s.rstrip() + "\n" for s in text.splitlines())
        # a command that shows an error fails with status 1; the others succeed
        assert status == (1 if any("error[" in s for s in expected) else 0), line
        if not re.fullmatch(pattern([s.rstrip() for s in expected]), actual):
            pytest.fail(f"$ {line}\n--- the tutorial shows:\n" + "\n".join(expected) +
                        f"\n--- the command printed:\n{actual}", pytrace=False)


def test_the_tutorial_replays(pytester, monkeypatch):
    tmp_path = pytester.path  # pytester works in a fresh directory of its own
    monkeypatch.setenv("COLUMNS", "80")
    finals = 0
    for marker, body in blocks():
        kind, _, arg = marker.partition(":")
        arg = arg.strip()
        if kind in ("file", "update"):
            path = tmp_path / arg
            path.write_text(body if kind == "file" else update(path.read_text(), body))
            if arg.endswith(".rules"):  # each step is in the canonical layout
                text = path.read_text()
                assert format_source(text) == text, f"run rulesdsl fmt on the tutorial's {arg}"
        elif kind == "final":
            name, _, repo_path = (s.strip() for s in arg.partition("="))
            assert (tmp_path / name).read_text() == body, \
                f"the steps do not build the final {name}"
            assert (ROOT / repo_path).read_text() == body, f"{repo_path} differs from the tutorial"
            finals += 1
        elif kind == "run":
            run(body, tmp_path, pytester)
        else:
            raise AssertionError(f"unknown tutorial marker: {marker}")
    assert finals == 1


# ---------------------------------------------------------------- Sevens itself

def test_sevens():
    path = SEVENS
    assert rulesdsl.check_file(path) == []
    game = rulesdsl.load(str(path))
    for players in range(3, 8):
        for seed in range(20):
            rng = random.Random(seed)
            s = game.new_game(players=players, seed=seed)
            assert s.zone("row[diamonds]") == ["7 of diamonds"]
            while not s.is_over:
                actions = s.legal_actions()
                if any(a.label != "pass" for a in actions):
                    assert all(a.label != "pass" for a in actions)  # you must play if you can
                s.apply(rng.choice(actions))
            (winner,) = s.winners
            assert s.zone("hand", winner) == [] and s.scores[winner] == 0
            for suit in ("clubs", "diamonds", "hearts", "spades"):
                ranks = [int(c.split()[0]) for c in s.zone(f"row[{suit}]")]
                # every row is one run of ranks through the seven, or still empty
                assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
                assert not ranks or ranks[0] <= 7 <= ranks[-1]


def test_sevens_scenario_from_the_tutorial():
    game = rulesdsl.load(str(SEVENS))
    scenario = {"zones": {"hand[P1]": ["6 of diamonds", "6 of clubs", "1 of spades"],
                          "hand[P2]": ["8 of diamonds", "13 of hearts"],
                          "hand[P3]": ["7 of diamonds", "5 of diamonds"]}}
    s = game.new_game(players=3, seed=1, scenario=scenario)
    assert s.zone("row[diamonds]") == ["7 of diamonds"] and s.to_move == 0
    assert [a.label for a in s.legal_actions()] == ["6 of diamonds"]
    s.apply("6 of diamonds")
    s.apply("8 of diamonds")
    s.apply("5 of diamonds")
    assert s.winners == [2] and s.scores == [2, 1, 0]
