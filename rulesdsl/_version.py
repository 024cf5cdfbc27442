"""The package version, in one place every stage may import."""

__version__ = "0.1.0"
