"""Shared test settings."""

import os
import signal

import pytest

from rulesdsl.cache import cache_folder

# pytest-xdist's workers ignore Ctrl-C, and an ignored signal stays ignored in the programs
# they start: a terminal test's ^C would never reach the runner. Handle it as Python does.
signal.signal(signal.SIGINT, signal.default_int_handler)

# the parser's tables (lang/syntax/grammar.py) and native modules in one folder for every
# test and the programs they start, also those given a HOME of their own: each would
# otherwise build them again
os.environ.setdefault("RULESDSL_CACHE", cache_folder() or "off")


@pytest.fixture(autouse=True)
def _saves_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    """`rulesdsl play` autosaves games with a person in them; tests keep them out of ~."""
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path_factory.mktemp("saves")))
