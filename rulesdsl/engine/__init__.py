"""Stage 2: a checked tree into a program, and the running game (docs/design.md)."""

import os

if os.environ.get("RULESDSL_ENGINE") == "native":  # before any hot module is imported
    from rulesdsl.engine.native_engine import install

    install()
