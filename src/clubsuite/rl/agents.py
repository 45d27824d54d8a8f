"""The agents ``clubs evaluate`` plays: a bot of the registry (``heuristic``, ``hard``, ``pimc(samples=16)``), a
Python entry point (``package.module:factory``, called as ``factory(spec)`` with the environment's rules spec and
returning a bot: anything with a ``name`` and a ``choose(view, legal, rng)``), or a weights file (``.npz``,
:mod:`clubsuite.bots.policy`: data, read without running anything in it).

An agent is named by text so that every worker process builds its own from the same words; it is checked once
before any deal is played, and a bad one is refused naming what is wrong.
"""

from __future__ import annotations

import hashlib
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from clubsuite.bots.base import Bot, SomeBot, make_bot
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.rl.benchmarks import BenchEnv, find_env
from clubsuite.safetext import quoted

if TYPE_CHECKING:
    from clubsuite.bots.policy import Policy

ENTRY_POINT = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")
LEARNED = re.compile(r"\blearned\b", re.IGNORECASE)


@dataclass(frozen=True)
class Agent:
    """An agent as ``clubs evaluate`` names it: its words, its kind (``registry``, ``python`` or ``weights``),
    for a weights file or a registry bot playing a shipped policy the SHA-256 of the weights' bytes, and for a
    reference opponent the hash of its choices."""

    text: str
    kind: str
    sha256: str | None = None
    choices_sha256: str | None = None
    """For a reference opponent of the environment (:mod:`clubsuite.rl.opponents`), the pinned hash of its choices,
    once checked; None for any other agent."""

    def make(self, env: BenchEnv) -> SomeBot:
        """A fresh bot of this agent for a table of ``env``."""
        if self.kind == "weights":
            from clubsuite.bots.policy import PolicyBot

            return PolicyBot(_policy(self.text, env.id, self.sha256), name=Path(self.text).name)
        if self.kind == "python":
            made = _entry(self.text)(env.spec)
            if not isinstance(made, Bot):  # checked when the agent was named; the factory is another's code
                raise InvalidOptionsError(
                    f"AGENT {self.text}: its factory must return a bot (a name and a choose method)"
                )
            return made
        return make_bot(self.text, env.game)

    def to_json(self) -> JsonObject:
        """As the evaluation's JSON names it."""
        return {"text": self.text, "kind": self.kind, "sha256": self.sha256, "choices_sha256": self.choices_sha256}


def agent(text: str, env: BenchEnv, what: str = "AGENT") -> Agent:
    """The agent ``text`` for ``env``, checked (see the module docstring); ``what`` names the argument in a
    refusal."""
    if text.endswith(".npz"):
        path = Path(text)
        if not path.is_file():
            raise InvalidOptionsError(f"{what} {quoted(text)}: no such weights file")
        policy = _policy(text, env.id, None)  # read and checked now: a bad file is refused before any deal
        return Agent(text, "weights", policy.sha256)
    if ENTRY_POINT.match(text):
        try:
            made = _entry(text)(env.spec)
        except ClubsError:
            raise
        except Exception as exc:  # the entry point's own code
            raise InvalidOptionsError(f"{what} {text}: its factory raised {type(exc).__name__}: {exc}") from None
        if not callable(getattr(made, "choose", None)) or not isinstance(getattr(made, "name", None), str):
            raise InvalidOptionsError(f"{what} {text}: its factory must return a bot (a name and a choose method)")
        return Agent(text, "python")
    try:
        make_bot(text, env.game)
    except ClubsError as exc:
        raise InvalidOptionsError(f"{what} {quoted(text, 80)}: {exc}") from None
    return Agent(text, "registry", _shipped_digest(text, env))


def _shipped_digest(text: str, env: BenchEnv) -> str | None:
    """For a registry bot that plays or models with the shipped learned policy (``learned``,
    ``pimc(model=learned)``), the SHA-256 of the environment's policy file: the result names the weights it was
    obtained with, and a resumed evaluation is refused if they changed."""
    if not LEARNED.search(text):
        return None
    from clubsuite.bots.learned import POLICIES

    path = POLICIES / f"{env.id}.npz"
    return _digest(path) if path.is_file() else None


def _entry(text: str) -> Callable[[str], object]:
    """The factory an entry point names (imported: naming one runs its module, as installing a package would)."""
    module_name, _, attr = text.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a module that cannot be found, or whose code fails as it loads
        raise InvalidOptionsError(f"AGENT {text}: cannot import {module_name} ({type(exc).__name__}: {exc})") from None
    factory: object = getattr(module, attr, None)
    if not callable(factory):
        raise InvalidOptionsError(f"AGENT {text}: {module_name} has no callable {attr}")
    return factory


def _digest(path: Path) -> str:
    """The SHA-256 of the weights file at ``path``, its size checked before a byte is read (a weights file is at
    most :data:`clubsuite.bots.policy.MAX_BYTES`)."""
    from clubsuite.bots.policy import weights_bytes

    return hashlib.sha256(weights_bytes(path)).hexdigest()


@cache
def _policy(path: str, env_id: str, digest: str | None) -> Policy:
    """The checked weights file (read once per process), which must still be the file ``digest`` names (a worker
    reads it again: a file changed meanwhile is refused, never played under the first one's hash). The hash is of
    the very bytes the policy was read from."""
    from clubsuite.bots.policy import Policy

    policy = Policy(Path(path), env_id, find_env(env_id).spec)
    if digest is not None and policy.sha256 != digest:
        raise InvalidOptionsError(f"AGENT {quoted(path)}: the weights file changed while it was being played")
    return policy
