"""Competitive play (docs/competitive.md): who may take a rated seat, seasons and their ladders,
leaving rated games, and the conduct signals moderators read.

Below the table (``table/`` asks it whether a seat may be rated and records a leave) and above
storage; tournaments and a matchmaking queue build on its seasons and its eligibility rules.
"""
