"""Installed copies of the grammar and the bundled games (see pyproject.toml)."""
