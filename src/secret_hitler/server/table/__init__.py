"""One live table: seats, the game and its commit, fan-out, presence, chat and bot driving."""
