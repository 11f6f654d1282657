"""A table's settings are stored in its row and read back from it whole (``TableSettings``,
``describe.row``): a restored table or a rematch has every setting its table was made with."""

from __future__ import annotations

import dataclasses

from table_support import FakeClock, FakeWriter, Notes, people, services

from secret_hitler.server.table.describe import row
from secret_hitler.server.table.session import Table
from secret_hitler.server.table.settings import TableSettings

# every field away from its default (a setting added to TableSettings but not to the row, or
# not read back, fails here)
CHOSEN = TableSettings(
    players=7,
    rules={"preset": "secrethitler-io", "avalon": "percival"},
    bot_level="bayes",
    public=False,
    timer=90,
    on_timeout="random",
    auto_start=False,
    name="Friday night",
    webhook="https://example.org/hook",
    rated=True,
    bots_talk=False,
    chat="emotes",
    blind="ru",
    category="rated",
    kind="queue",
    rating_min=1400.0,
    rating_max=1900.0,
)


def test_every_setting_differs_from_its_default_in_the_example() -> None:
    defaults = TableSettings(players=5, rules="official", bot_level="random")
    for field in dataclasses.fields(TableSettings):
        assert getattr(CHOSEN, field.name) != getattr(defaults, field.name), field.name


def test_a_tables_row_gives_back_the_settings_it_was_made_with() -> None:
    svc = services(FakeWriter(), FakeClock(), Notes())
    table = Table(svc, CHOSEN, id="t1", host="u0", host_name="P0", invite="i", seats=people(7))
    assert TableSettings.from_row(row(table)) == CHOSEN


def test_a_row_stored_before_a_setting_existed_reads_its_default() -> None:
    svc = services(FakeWriter(), FakeClock(), Notes())
    plain = TableSettings(players=5, rules="official", bot_level="random")
    table = Table(svc, plain, id="t1", host="u0", host_name="P0", invite="i", seats=people(5))
    old = {
        k: v
        for k, v in row(table).items()
        if k not in ("on_timeout", "bots_talk", "chat", "blind", "category", "kind")
    }
    assert TableSettings.from_row(old) == plain
