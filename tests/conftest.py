"""Shared test settings."""

import pytest


@pytest.fixture(autouse=True)
def _saves_in_a_temporary_folder(tmp_path_factory, monkeypatch):
    """`rulesdsl play` autosaves games with a person in them; tests keep them out of ~."""
    monkeypatch.setenv("RULESDSL_SAVES", str(tmp_path_factory.mktemp("saves")))
