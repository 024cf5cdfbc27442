"""A computer seat shows that it thinks on a terminal, and nowhere else; a person plays
against ismcts at medium unless --seats says otherwise."""

import io

import rulesdsl
from rulesdsl.agents import make_agent
from rulesdsl.play.runner import DEFAULT_OPPONENT
from rulesdsl.play.thinking import describe_agent, thinking


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_spinner_on_a_terminal_only():
    t = Terminal()
    with thinking(t, "P2 (ismcts, medium) is thinking...", tty=True):
        pass
    out = t.getvalue()
    assert "P2 (ismcts, medium) is thinking..." in out
    assert out.endswith("\r\033[K")   # erased once the move is made
    plain = io.StringIO()
    with thinking(plain, "P2 is thinking...", tty=False):
        pass
    assert plain.getvalue() == ""


def test_seat_descriptions():
    assert describe_agent("ismcts", make_agent("ismcts", 1)) == "ismcts, medium"
    assert describe_agent("ismcts:hard", make_agent("ismcts:hard", 1)) == "ismcts, hard"
    assert describe_agent("random", make_agent("random", 1)) == "random"


def test_default_opponent_is_ismcts_at_medium():
    agent = make_agent(DEFAULT_OPPONENT, 1)
    assert agent.name == "ismcts" and agent.level == "medium"
    st = rulesdsl.load("triumvirat").new_game(players=2, seed=1)
    assert agent.choose(st) in st.legal_actions()
