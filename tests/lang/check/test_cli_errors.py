"""`rulesdsl check` on bad files: every error as `path:line:col: error[CODE]: message`, the
source line, a caret under the place, hints; exit status 1; never a Python traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl import cli

ROOT = Path(__file__).resolve().parents[3]

TWO_ERRORS = '''game "Bad"
players 2
var score: int = 0
flow main
phase main {
  set scroe = 1
  if score { log "x" }
}
'''


def check(capsys, path) -> tuple[int, str]:
    code = cli.main(["check", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def assert_rendered(output: str, path, line: int, col: int, code: str, message: str,
                    source: str):
    """The header, the numbered source line and a caret under column `col`."""
    lines = output.splitlines()
    head = f"{path}:{line}:{col}: error[{code}]: "
    at = next((i for i, x in enumerate(lines) if x.startswith(head)), None)
    assert at is not None, f"no line starting {head!r} in:\n{output}"
    assert message in lines[at]
    src, caret = lines[at + 1], lines[at + 2]
    gutter = re.match(r"\s*\d+ \| ", src)
    assert gutter and int(gutter.group().split("|")[0]) == line, src
    assert src[gutter.end():] == source
    assert set(caret.strip()) == {"^"}, caret
    assert caret.index("^") == gutter.end() + col - 1, f"caret not under column {col}:\n" \
        f"{src}\n{caret}"


def test_every_error_with_its_line_and_caret(tmp_path, capsys):
    path = tmp_path / "bad.rules"
    path.write_text(TWO_ERRORS)
    code, output = check(capsys, path)
    assert code == 1
    assert_rendered(output, path, 6, 7, "E200", "unknown variable 'scroe'", "  set scroe = 1")
    assert_rendered(output, path, 7, 6, "E301", "an if needs a true/false condition, not a number",
                    "  if score { log \"x\" }")
    assert "hint: did you mean 'score'?" in output
    # sorted by position: line 6 before line 7
    assert output.index(f"{path}:6:7") < output.index(f"{path}:7:6")
    assert "2 errors" in output


def test_a_syntax_error(tmp_path, capsys):
    path = tmp_path / "bad.rules"
    path.write_text('game "Bad"\nplayers 2\nflow main\nphase main {\n  log \'hi\'\n}\n')
    code, output = check(capsys, path)
    assert code == 1
    assert_rendered(output, path, 5, 7, "E100", "unexpected", "  log 'hi'")
    assert "hint: strings use double quotes" in output


def test_a_file_that_ends_too_early(tmp_path, capsys):
    path = tmp_path / "bad.rules"
    path.write_text('game "Bad"\nplayers 2\nflow main\nphase main {\n  log "hi"\n')
    code, output = check(capsys, path)
    assert code == 1
    assert_rendered(output, path, 5, 11, "E102", "the file ends too early", '  log "hi"')
    assert "the '{' at line 4, column 12 is not closed" in output


def test_a_bad_expression_in_a_string_is_an_error_not_a_crash(tmp_path, capsys):
    path = tmp_path / "bad.rules"
    path.write_text('game "Bad"\nplayers 2\nflow main\nphase main {\n  log "sum {1 +}"\n}\n')
    code, output = check(capsys, path)
    assert code == 1
    assert_rendered(output, path, 5, 16, "E103", "the expression ends too early",
                    '  log "sum {1 +}"')
    assert "internal error" not in output


def test_good_and_bad_files_together(tmp_path, capsys):
    good = tmp_path / "good.rules"
    good.write_text('game "Good"\nplayers 2\nflow main\nphase main { log "hi" }\n')
    bad = tmp_path / "bad.rules"
    bad.write_text(TWO_ERRORS)
    code = cli.main(["check", str(good), str(bad)])
    out, err = capsys.readouterr()
    assert code == 1
    assert f"{good}: ok" in out + err
    assert f"{bad}:6:7: error[E200]" in out + err
    assert cli.main(["check", str(good)]) == 0


def test_as_a_command(tmp_path):
    """`python -m rulesdsl.cli check FILE` in a fresh process, as people run it."""
    path = tmp_path / "bad.rules"
    path.write_text(TWO_ERRORS)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in
                                                        [env.get("PYTHONPATH")] if p])
    run = subprocess.run([sys.executable, "-m", "rulesdsl.cli", "check", str(path)],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "Traceback" not in output
    assert_rendered(output, path, 6, 7, "E200", "unknown variable 'scroe'", "  set scroe = 1")


@pytest.mark.parametrize("name", ["errors_syntax.txt", "errors_names.txt", "errors_types.txt"])
def test_first_chunks_of_the_error_files(tmp_path, capsys, name):
    """A few chunks of the error files through the command: exit 1 and no traceback."""
    text = (Path(__file__).parent / name).read_text(encoding="utf-8")
    for i, chunk in enumerate(text.split("\n---\n")[:5]):
        path = tmp_path / f"chunk{i}.rules"
        path.write_text("\n".join(line.split("###")[0].rstrip() for line in chunk.splitlines())
                        + "\n")
        code, output = check(capsys, path)
        assert code == 1, output
        assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: error\[E\d{{3}}\]: ", output, re.M)
