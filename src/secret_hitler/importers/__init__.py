"""Importers: turn other platforms' game logs into this project's game records."""

from .secrethitler_io import BadSummary, Converted, Unsupported, convert_game, iter_records

__all__ = ["BadSummary", "Converted", "Unsupported", "convert_game", "iter_records"]
