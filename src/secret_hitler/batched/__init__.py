"""A batched engine in JAX: thousands of games in lockstep (``jit`` and ``vmap``).

It is a compiled second form of the rules, the one the developer guide allows: the engine
(``secret_hitler.engine``) stays the authority, and the tests replay every batched game through
``engine.replay`` and compare the observations and masks with the research environment's at
every step (tests/batched). Its action space and observation encoding are the environment's
(``secret_hitler.env.encoding``, docs/env.md), so a policy trained on one runs on the other.
See docs/batched.md. Needs the ``jax`` extra.
"""

from .core import Config, Env, State
from .record import from_record, to_records

__all__ = ["Config", "Env", "State", "from_record", "to_records"]
