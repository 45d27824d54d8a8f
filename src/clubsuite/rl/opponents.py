"""The benchmark's frozen opponents: the bot levels an environment version pins, each by a hash of its choices on
positions fixed by the environment, so that a result "against heuristic" means next year what it means today.

A result is what an agent makes against a level; pinning the rules and the deals (:mod:`clubsuite.rl.benchmarks`)
freezes only half of it. The registry builds bots by name, and an installed package, or an agent's own entry point,
may register another bot under a level's name (``register_bot``), or a change to the package may alter a level's
play. Each environment therefore declares, beside its three hashes, its **reference opponents**: the levels a result
may be measured against (:data:`REFERENCE_LEVELS` where the game has them), each with the SHA-256 of its **choices**:

* the positions: every :data:`STRIDE`-th decision of the environment's rules trace (the deals played out by the
  chooser frozen in :func:`clubsuite.rl.benchmarks.trace_tables`), the first :data:`POSITIONS` of them: early and
  late decisions of several hands, every seat, every kind of decision the trace reaches;
* at each, the level is asked for its choice, from the seat's view, with ``Random(derive_seed(CHOICE_SEED, i))``
  for the ``i``-th decision of the trace;
* hashed: a header naming the format and the environment, then a line per position (its decision number, the seat
  and the choice as the engine writes it). The level's name is not in it: two names for one bot (``normal`` and
  ``heuristic``) hash alike.

``clubs evaluate`` works out the hash of every pinned level it is asked to play (the level played against, and the
agent where it is one) and refuses to play when it differs from the pinned one, naming the level and the
environment; the result names each side's hash and every pinned level's. A change that alters a level's choices is a
new environment version, as a change to the rules is. A bot's budget is work, not time (``docs/bots.md``), so its
choices do not depend on the machine; ``hard`` and ``expert`` have a wall-clock cap a decision that only a machine
loaded far past its cores would reach.

What the check cannot see: a Python entry point runs in the evaluating process, and code that changes a level after
the check (in the middle of the run, or only in a worker process) is not caught; a result from an entry point rests
on its author's word, as any submitted code's does.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Iterator

from clubsuite.bots.base import make_bot
from clubsuite.engine import SomeMatch
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.rl.agents import Agent
from clubsuite.rl.benchmarks import BenchEnv, trace_tables
from clubsuite.seeding import derive_seed

CHOICES_FORMAT = "clubsuite-opponent-choices 1"
POSITIONS = 24
"""Positions a level's choices are hashed on."""
STRIDE = 7
"""Every this many decisions of the rules trace is a position (the first, the eighth, ...): a hand's opening, middle
and end, and every seat in turn."""
CHOICE_SEED = 0x0990
"""The seed of the generator a level is given at each position."""
REFERENCE_LEVELS = ("random", "easy", "normal", "heuristic", "hard", "expert")
"""The levels an environment pins, where its game has them. Not ``learned``: its shipped policy is trained again as
it gets stronger, and a result against it names the SHA-256 of the policy it played (:mod:`clubsuite.rl.agents`)."""


def positions(env: BenchEnv) -> Iterator[tuple[int, SomeMatch, int]]:
    """The positions of ``env`` (see the module docstring): each as (its decision number in the rules trace, the
    match there, the seat to act)."""
    found = 0
    decision = 0
    for match, seat, action in trace_tables(env):
        if action is None:
            continue
        if decision % STRIDE == 0:
            yield decision, match, seat
            found += 1
            if found == POSITIONS:
                return
        decision += 1


def choices_hash(env: BenchEnv, level: str) -> str:
    """The SHA-256 of the choices of the bot ``level`` (as the registry builds it now) at ``env``'s positions."""
    bot = make_bot(level, env.game)
    digest = hashlib.sha256(f"{CHOICES_FORMAT} {env.id}\n".encode())
    for decision, match, seat in positions(env):
        legal = match.legal_actions()
        try:
            choice = bot.choose(match.view(seat), legal, random.Random(derive_seed(CHOICE_SEED, decision)))
        except ClubsError:
            raise
        except Exception as exc:  # a bot registered by another package under the level's name
            raise InvalidOptionsError(
                f"{level} failed to choose on {env.id}'s frozen positions ({type(exc).__name__}): it is not the "
                "level the environment pins"
            ) from None
        said = match.format_action(choice) if choice in list(legal) else "not legal"
        digest.update(f"{decision} {seat} {said}\n".encode())
    return digest.hexdigest()


def reference_levels(env: BenchEnv) -> list[str]:
    """The levels of :data:`REFERENCE_LEVELS` that ``env``'s game has."""
    from clubsuite.bots.base import bot_names

    have = set(bot_names(env.game))
    return [level for level in REFERENCE_LEVELS if level in have]


def check_level(env: BenchEnv, level: str, what: str) -> str | None:
    """The pinned hash of ``level`` on ``env``, once its choices now are shown to hash to it; None where ``env``
    pins no level of that name (an agent of the registry that is no reference opponent: a spec with settings, a
    bot of another package). A pinned level that chooses otherwise is refused, naming ``what`` (the argument)."""
    pinned = env.pinned(level.strip())
    if pinned is None:
        return None
    if choices_hash(env, level.strip()) != pinned:
        raise InvalidOptionsError(
            f"{what} {level.strip()}: the bot the registry builds under that name chooses otherwise than the level "
            f"{env.id} pins (its choices on the environment's frozen positions differ), so its results would not "
            "compare: another package or an agent's code registered a bot under that name, or the level changed, "
            "which needs a new version of the environment"
        )
    return pinned


def checked(env: BenchEnv, agent: Agent, what: str) -> Agent:
    """``agent`` with the pinned hash of its choices where it is one of ``env``'s reference opponents, once its
    choices are shown to be the pinned ones (:func:`check_level`); any other agent as it is."""
    if agent.kind != "registry":
        return agent
    return dataclasses.replace(agent, choices_sha256=check_level(env, agent.text, what))
