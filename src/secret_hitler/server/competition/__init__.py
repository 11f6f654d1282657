"""Competitive play (docs/competitive.md): who may take a rated seat, seasons and their ladders,
leaving rated games, the conduct signals moderators read, the matchmaking queue, and tournaments
(``tournaments.py``, ``seating.py``, ``scoring.py``: their steps, a round's seating, a game's
points and the standings; ``lobby/director.py`` moves them along).

Below the table (``table/`` asks it whether a seat may be rated and records a leave) and above
storage; the queue and tournaments build on its seasons and its eligibility rules.
"""
