"""Secret Hitler: an exact rules engine, bots, a multiplayer server, a web client and a research API."""

__version__ = "0.1.0"
