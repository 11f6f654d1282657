"""The tables the environment's tests play: every preset once, together 5 to 10 players."""

CASES = [
    (5, "official"),
    (6, "tabletop-tw"),
    (7, "secrethitler-io"),
    (8, "forum"),
    (9, "kickstarter"),
    (10, "summary-zh"),
]
