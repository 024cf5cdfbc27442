"""rulesdsl: write board and card games as rules, check them, play them.

The public API: `load`, `restore`, `check_file`, and the error types. See docs/language.md
for the language and DESIGN.md for the contracts.
"""

__version__ = "0.1.0"

from .errors import CheckFailed, IllegalAction, RulesError, RulesWarning  # noqa: E402
from .engine import Action, State  # noqa: E402
from .game import Game, check_file, load, restore  # noqa: E402

__all__ = ["load", "restore", "check_file", "Game", "State", "Action", "RulesError",
           "RulesWarning", "CheckFailed", "IllegalAction", "__version__"]
