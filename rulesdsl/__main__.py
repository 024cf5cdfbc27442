"""`python -m rulesdsl ...` is the `rulesdsl` command."""

from rulesdsl.cli import entry

entry()
