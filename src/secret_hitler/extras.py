"""The optional parts of the package and the modules each needs (``pip install 'secret-hitler[X]'``).

A plain install is the library (engine, records, replay, importers, simulator, random and rule
bots) with small dependencies. Anything heavier is an extra; code that needs one calls
``require`` first, so a missing extra is one clear line naming what to install, not a traceback.
The module lists mirror ``[project.optional-dependencies]`` in pyproject.toml (a test keeps them
in step).
"""

from __future__ import annotations

import importlib.util

# extra -> the modules of its packages (import names; pyproject lists the same packages).
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": (
        "fastapi",  # brings starlette, which the server also imports
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "pydantic",
        "itsdangerous",
        "prometheus_client",
        "websockets",
        "limits",
        "argon2",  # argon2-cffi
        "httpx",
        "openskill",  # ratings.py
        "numpy",  # every bot level the web client offers, bayes included
        "confusable_homoglyphs",  # core/text.py: look-alike names (UTS #39)
        "orjson",  # core/protocol.py, table/updates.py: every frame's JSON
    ),
    "postgres": ("psycopg",),
    # REDIS_URL: one node of many, on PostgreSQL, their messages sealed (cluster/signing.py)
    "cluster": ("redis", "psycopg", "cryptography"),
    "bots": ("numpy",),
    "plot": ("matplotlib",),
    "rl": ("pettingzoo", "gymnasium", "numpy"),
    "llm": ("httpx", "anyio", "openskill", "numpy"),  # model seats and `arena` (docs/llm.md)
    "ray": ("ray",),  # `--ray ADDRESS`: games on a Ray cluster (pools.py)
    "jax": ("jax", "optax", "pettingzoo", "gymnasium", "numpy"),  # secret_hitler.batched
    "openspiel": ("pyspiel", "shimmy", "pettingzoo", "gymnasium", "numpy"),  # env.openspiel
}


class MissingExtra(ImportError):
    """``what`` needs an extra whose packages are not installed."""

    def __init__(self, what: str, extra: str) -> None:
        self.what = what
        self.extra = extra
        super().__init__(f"{what} needs the {extra} extra: pip install 'secret-hitler[{extra}]'")


def _present(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def installed(extra: str) -> bool:
    """Whether every module of ``extra`` can be imported (checked without importing any)."""
    return all(_present(m) for m in EXTRAS[extra])


def require(extra: str, what: str) -> None:
    """Raise ``MissingExtra`` unless ``extra`` is installed; ``what`` names the feature."""
    if not installed(extra):
        raise MissingExtra(what, extra)


def extra_for(module: str | None) -> str | None:
    """The extra that provides ``module`` (a dotted name), or None; the smallest one wins."""
    if not module:
        return None
    top = module.split(".", 1)[0]
    owners = [name for name, modules in EXTRAS.items() if top in modules]
    return min(owners, key=lambda name: len(EXTRAS[name])) if owners else None
