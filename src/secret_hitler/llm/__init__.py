"""Language models at the table: an agent level that asks an OpenAI-compatible chat endpoint,
and the ``arena`` that measures models against the bot levels and against people.

Light at import: ``httpx`` (the ``llm`` or ``server`` extra) and numpy are imported only by the
modules that talk to an endpoint or read posteriors. docs/llm.md is the guide.

- ``endpoints``: the configured endpoints (a TOML file; never a URL a player types).
- ``client``: one chat-completions request, bounded in time and size, awaited without a thread;
  ``slots``: an endpoint's ``concurrency`` shared fairly between owners (a table's host, a game);
  ``runner``: the shared event loop for the agent contract's plain calls.
- ``prompts``: the versioned prompt templates (``prompts/v1/<language>/``) and the rendering of
  a seat's view, the table's rules, the history and the legal actions.
- ``answers``: reading a model's answer (plain JSON, fenced, wrapped in prose) and checking it
  against the legal actions.
- ``agent``: ``LLMAgent``, the ``llm:<endpoint>`` levels, their retries, fallbacks and counters.
- ``arena``, ``report``, ``cli``: ``secret-hitler arena``.
"""
