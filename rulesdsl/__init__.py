"""rulesdsl: write board and card games as rules, check them, play them.

The public API: `load`, `restore`, `check_file`, and the error types. See docs/language.md
for the language and docs/design.md for the architecture and contracts.

The engine is imported when a name of it is first used, not with the package: a tool
that needs only the language (the language server, `rulesdsl check`, `fmt`) starts
without compiling machinery it never runs.
"""

from rulesdsl._version import __version__  # noqa: E402

from rulesdsl.lang.errors import CheckFailed, IllegalAction, RulesError, RulesWarning  # noqa: E402

# public name -> the module that defines it, imported on first use (PEP 562)
_LAZY = {"Action": "rulesdsl.engine.state", "State": "rulesdsl.engine.state",
         "Game": "rulesdsl.engine.game", "check_file": "rulesdsl.engine.game",
         "load": "rulesdsl.engine.game", "restore": "rulesdsl.engine.game"}

__all__ = ["load", "restore", "check_file", "Game", "State", "Action", "RulesError",
           "RulesWarning", "CheckFailed", "IllegalAction", "__version__"]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rulesdsl' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value     # later uses find it without coming here
    return value


def __dir__() -> list:
    return sorted(set(globals()) | set(_LAZY))
