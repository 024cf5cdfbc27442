"""Text from a file never drives the terminal (issue 31): a source line, a name, a label or a
path holding ESC or another control character is printed with the character as a visible
escape (`\\x1b`), and the caret stays under the place it marks."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesdsl
from rulesdsl.cli import main
from rulesdsl.lang.errors import RulesError, Span, render

ROOT = Path(__file__).resolve().parents[2]
CONTROL = [chr(c) for c in range(0x20) if c not in (0x0a,)] + ["\x7f", "\x9b", "\u2028",
                                                                   "\u202e"]


def no_control(text: str) -> bool:
    """Nothing a terminal would obey: only newlines between lines, no other control."""
    return not any(ch in text for ch in CONTROL if ch != "\t")


def caret_column(rendered: str) -> tuple[str, int]:
    """The excerpt line (after its `   N | `) and the column its caret points at."""
    lines = rendered.split("\n")
    source, caret = lines[1], lines[2]
    return source[source.index("| ") + 2:], caret.index("^") - (source.index("| ") + 2)


def test_check_shows_an_esc_in_the_excerpt_escaped(tmp_path, capsys):
    path = tmp_path / "esc.rules"
    path.write_text('game "x"\nplayers 2\n# \x1b]0;owned\x07 \x1b[31mred\n', encoding="utf-8")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "error[E108]" in err and no_control(err), repr(err)
    assert "# \\x1b]0;owned\\x07 \\x1b[31mred" in err


@pytest.mark.parametrize("ch", CONTROL)
def test_the_caret_stays_under_its_place_after_escapes(ch):
    line = f"ab{ch}cd{ch}\tTARGET tail"
    column = line.index("TARGET") + 1
    error = RulesError("E000", "here", Span("f.rules", 1, column, 1, column + 6))
    rendered = render(error, {"f.rules": line})
    assert no_control(rendered), repr(rendered)
    source, at = caret_column(rendered)
    assert source[at:].startswith("TARGET")
    assert rendered.split("\n")[2].count("^") == len("TARGET")


def test_a_long_line_is_shown_as_a_window_around_the_place():
    line = "x" * 3000 + "\x1b" + "TARGET" + "y" * 3000
    column = line.index("TARGET") + 1
    rendered = render(RulesError("E000", "here", Span("f.rules", 1, column, 1, column + 6)),
                      {"f.rules": line})
    source, at = caret_column(rendered)
    assert len(source) < 200 and source[at:].startswith("TARGET")


def test_names_and_labels_quoted_from_a_scenario_are_escaped():
    game = rulesdsl.load(str(ROOT / "examples" / "gops.rules"))
    for scenario in ({"zones": {"prize": ["\x1b[31mred"]}},
                     {"zones": {"pri\x1b[2Jze": []}},
                     {"vars": {"x\x1b]0;t\x07": 1}}):
        with pytest.raises(RulesError) as info:
            game.new_game(players=2, seed=1, scenario=scenario)
        assert no_control(str(info.value)) and "\\x1b" in str(info.value), str(info.value)


def test_a_name_with_a_newline_cannot_fake_a_line_of_output(tmp_path, capsys):
    path = tmp_path / "fake.rules"
    path.write_text('extends "base\\nfake.rules:1:1: ok"\ngame "x"\nplayers 2\n',
                    encoding="utf-8")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    first = err.split("\n")[0]
    # refused for its control character (E213), the name on one line, the newline escaped
    assert first.startswith(f"{path}:1:1: error[E213]") and "base\\nfake" in first
    assert not any(line.startswith("fake.rules:1:1: ok") for line in err.split("\n"))


def test_a_path_with_esc_is_printed_escaped(tmp_path, capsys):
    path = tmp_path / "evil\x1b[2J.rules"
    path.write_text('game "x"\nplayers 2\nzone pile public\n', encoding="utf-8")
    main(["check", str(path)])
    captured = capsys.readouterr()
    assert "evil\\x1b[2J.rules" in captured.err + captured.out
    assert no_control(captured.err + captured.out)


def test_extends_with_a_name_of_5000_characters_names_the_extends_line(tmp_path, capsys):
    path = tmp_path / "long.rules"
    path.write_text('# a comment\n\nextends "' + "a" * 5000 + '"\ngame "x"\nplayers 2\n',
                    encoding="utf-8")
    with pytest.raises(RulesError) as info:
        rulesdsl.check_file(str(path))
    error = info.value
    assert error.code == "E210"
    assert (error.span.path, error.span.line) == (str(path), 3)
    assert "(5,000 characters)" in error.message and len(error.message) < 200
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:3:1: error[E210]")
    assert max(len(line) for line in err.split("\n")) < 300
