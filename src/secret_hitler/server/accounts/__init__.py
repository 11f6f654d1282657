"""Accounts and sessions: display names, tokens, sessions, passwords."""
