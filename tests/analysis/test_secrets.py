"""`rulesdsl check --secrets`: random games with swapped hidden cards find rules that let a
seat learn a card it should not, where the checker cannot see it in the text."""

from __future__ import annotations

from pathlib import Path

import rulesdsl
from rulesdsl import cli
from rulesdsl.analysis.secrets import check_secrets

HERE = Path(__file__).resolve().parent
LEAKY = HERE / "rules" / "ends_on_a_hidden_hand.rules"
ROOT = HERE.parents[1]


def test_a_game_that_ends_on_a_hidden_hand_leaks():
    leaks = check_secrets(rulesdsl.load(LEAKY))
    assert leaks
    leak = leaks[0]
    assert leak.what == "one game ended and the other did not"
    assert leak.observers == (0,) and "P2's hand" in leak.places
    assert leak.during.startswith("P1's ")
    assert "which P1 cannot see: one game ended" in leak.sentence()


def test_the_fix_the_docs_give_keeps_the_secret(tmp_path):
    """The player says it, as an option open only then: nothing leaks any more."""
    text = LEAKY.read_text()
    fixed = text.replace('''    if not any(c in hand[p] where c.value > 8) {
      log "{p} gives up"
      end game
    }
    ask p "{p}, play?" {''', '''    ask p "{p}, play?" {
      "give up" if not any(c in hand[p] where c.value > 8) {
        log "{p} gives up"
        end game
      }''')
    assert fixed != text
    path = tmp_path / "says_it.rules"
    path.write_text(fixed)
    assert not check_secrets(rulesdsl.load(path), games=5)


def test_check_secrets_on_the_command_line(capsys):
    assert cli.main(["check", "--secrets", str(LEAKY)]) == 1
    out, err = capsys.readouterr()
    assert "ends_on_a_hidden_hand.rules: ok" in out          # it checks: the leak is in play
    assert "secrets: seed" in err and "hint: what happens next must not depend" in err
    assert "1 leak in 3 random games" in err or "leaks in 3 random games" in err
    assert cli.main(["check", "--secrets", "--games", "2", str(ROOT / "examples" / "gops.rules")]) == 0
    out, _ = capsys.readouterr()
    assert "secrets kept in 2 random games" in out


def test_a_player_count_the_game_does_not_allow_is_told(capsys):
    assert cli.main(["check", "--secrets", "--players", "9", str(LEAKY)]) == 1
    _, err = capsys.readouterr()
    assert "secrets: could not play a random game" in err and "Traceback" not in err


def test_secrets_with_json_output_is_refused_plainly(capsys):
    """--format json is for diagnostics with a place; the leaks have none: told, not dropped."""
    assert cli.main(["check", "--secrets", "--format", "json", str(LEAKY)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "run it without --format json" in err
