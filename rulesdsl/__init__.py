"""rulesdsl: write board and card games as rules, check them, play them.

The public API: `load`, `restore`, `check_file`, and the error types. See docs/language.md
for the language and docs/design.md for the architecture and contracts.
"""

from rulesdsl._version import __version__  # noqa: E402

from rulesdsl.lang.errors import CheckFailed, IllegalAction, RulesError, RulesWarning  # noqa: E402
from rulesdsl.engine.state import Action, State  # noqa: E402
from rulesdsl.engine.game import Game, check_file, load, restore  # noqa: E402

__all__ = ["load", "restore", "check_file", "Game", "State", "Action", "RulesError",
           "RulesWarning", "CheckFailed", "IllegalAction", "__version__"]
