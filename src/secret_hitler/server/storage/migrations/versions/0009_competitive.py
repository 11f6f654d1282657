"""Competitive play (issue 42, docs/competitive.md): seasons and their ladders, who took each
rated seat from where, leaves from rated games, and the conduct flags moderators read.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05

New tables: ``seasons`` (a configured start and end, its placement games), ``season_ratings``
(a player's rating in one season), ``rated_admissions`` (where each rated game's seats were
taken from, as keyed hashes), ``rated_leaves`` (a player who left a rated game, or was voted out
of it, once per game) and ``conduct_flags`` (collusion signals for moderators). Added columns,
all nullable or with a default, so every stored table and game stays as it was:
``tables.admissions`` (the keyed hashes of the address and device each rated seat was taken
from; NULL: none), ``rated_games.season_id`` (the season in force when the game started; NULL
for games rated before seasons),
``rating_history.season_id`` with the season rating before and after the game (NULL: no season
was in force), ``rating_history.left_early`` (false: played to the end) and ``rating_history.throws``
(0: no move against one's own team).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("admissions", sa.JSON, nullable=True))
    with op.batch_alter_table("rated_games") as batch:
        batch.add_column(sa.Column("season_id", sa.String(32), nullable=True))
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("season_id", sa.String(32), nullable=True))
        for name in ("season_mu_before", "season_sigma_before", "season_mu", "season_sigma"):
            batch.add_column(sa.Column(name, sa.Float, nullable=True))
        batch.add_column(
            sa.Column("left_early", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("throws", sa.Integer, nullable=False, server_default="0"))
    op.create_index("ix_rating_history_season_id", "rating_history", ["season_id"])
    op.create_table(
        "seasons",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=False),
        sa.Column("placement", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_seasons_starts_at", "seasons", ["starts_at"])
    op.create_table(
        "season_ratings",
        sa.Column("season_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_season_ratings_user_id", "season_ratings", ["user_id"])
    op.create_table(
        "rated_admissions",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("device", sa.String(64), nullable=True),
        sa.Column("ts", sa.Float, nullable=False),
    )
    op.create_index("ix_rated_admissions_address", "rated_admissions", ["address"])
    op.create_index("ix_rated_admissions_device", "rated_admissions", ["device"])
    op.create_table(
        "rated_leaves",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(32), primary_key=True),
        sa.Column("season_id", sa.String(32), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
    )
    op.create_index("ix_rated_leaves_user_id", "rated_leaves", ["user_id"])
    op.create_index("ix_rated_leaves_season_id", "rated_leaves", ["season_id"])
    op.create_table(
        "conduct_flags",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("cleared_at", sa.Float, nullable=True),
        sa.UniqueConstraint("kind", "subject", name="uq_conduct_flags_kind_subject"),
    )


def downgrade() -> None:
    for name in ("conduct_flags", "rated_leaves", "rated_admissions", "season_ratings", "seasons"):
        op.drop_table(name)
    op.drop_index("ix_rating_history_season_id", "rating_history")
    with op.batch_alter_table("rating_history") as batch:
        for name in (
            "throws",
            "left_early",
            "season_sigma",
            "season_mu",
            "season_sigma_before",
            "season_mu_before",
            "season_id",
        ):
            batch.drop_column(name)
    with op.batch_alter_table("rated_games") as batch:
        batch.drop_column("season_id")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("admissions")
