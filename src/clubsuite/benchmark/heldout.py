"""Held-out deal sets: deals of a benchmark environment that nobody but the set's keepers knows before a leaderboard
plays them (``docs/research.md``, "The leaderboard").

An environment's public deals (:mod:`clubsuite.rl.benchmarks`) can be studied, trained on, tuned for; a
leaderboard needs deals an agent's author cannot have seen. A held-out set is the same environment (its rules,
observation and frozen opponents) dealt from a **secret seed**: deal ``k`` is the first hand of the match seed
``derive_seed(secret, k)``, as a public deal is of ``derive_seed(env seed, k)``.

* **Made** by ``clubs evaluate held-out ENV --name NAME --deals N --out SECRET.json``: a seed of
  :data:`SEED_BITS` random bits from the operating system (``secrets``), written to a file only its owner may read;
  the command prints the set's **public half**: its name, environment, number of deals and the SHA-256 of its deals
  (:func:`clubsuite.rl.benchmarks.deals_hash`, whose header names the seed: the hash pins the seed without saying
  it; a seed of 128 bits cannot be found from it by trying).
* **Published** by adding that public half to :data:`PUBLISHED` (``heldout.json`` beside this module) in a
  release: everyone can see that the set exists and what it must hash to; nobody can deal it.
* **Played** by the keepers, ``clubs evaluate AGENT --held-out SECRET.json``: the secret file is refused unless it
  names a published set and deals exactly the deals published for it; the result names the set and its hash, never
  the seed (no field of the JSON, no message), and pairs (``clubs evaluate compare``) only with results on the same
  set.
* **Retired** by publishing the seed once the set's leaderboard closes: every result on it can then be played again
  by anyone (the hash shows the seed is the one the set was made with), and a new set takes its place.
"""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import stat
from pathlib import Path

from clubsuite.errors import InvalidOptionsError
from clubsuite.jsonform import JsonObject
from clubsuite.records.files import path_text
from clubsuite.rl.benchmarks import BenchEnv, deals_hash, find_env
from clubsuite.safetext import quoted

FORMAT = "clubsuite-held-out"
VERSION = 1
SEED_BITS = 128
"""The secret seed's size: far past what trying seeds against the published hash could reach."""
MIN_DEALS, MAX_DEALS = 30, 10_000
MAX_SECRET_BYTES = 4096
"""The most a secret file may hold (it holds a few short fields)."""
PUBLISHED = Path(__file__).with_name("heldout.json")
"""The public half of every held-out set made so far, by name."""
NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")
MAX_NAME = 64


def published(path: Path | None = None) -> dict[str, JsonObject]:
    """The published sets by name (:data:`PUBLISHED`; ``path`` for another file)."""
    data = json.loads((path or PUBLISHED).read_text(encoding="utf-8"))
    sets: dict[str, JsonObject] = data["sets"]
    return sets


def _checked_name(name: str, what: str) -> str:
    if not 1 <= len(name) <= MAX_NAME or not set(name) <= NAME_CHARS:
        raise InvalidOptionsError(
            f"{what} {quoted(name, 80)}: a set's name is 1 to {MAX_NAME} lowercase letters, digits, '-', '_' or '.'"
        )
    return name


def dealt(env: BenchEnv, name: str, seed: int, deals: int) -> BenchEnv:
    """``env`` dealt from the held-out set's seed: its first ``deals`` deals, named ``name``."""
    return dataclasses.replace(env, seed=seed, count=deals, held_out=name)


def public_half(held: BenchEnv) -> JsonObject:
    """What a held-out set publishes: everything but its seed."""
    return {"env": held.id, "deals": held.count, "deals_sha256": deals_hash(held)}


def make(env: BenchEnv, name: str, deals: int, out: Path) -> JsonObject:
    """A new held-out set of ``env``: its secret written to ``out`` (readable by its owner only, never over a file
    that is there), its public half returned."""
    _checked_name(name, "--name")
    if name in published():
        raise InvalidOptionsError(f"--name {name}: a held-out set of that name is published already")
    if not MIN_DEALS <= deals <= MAX_DEALS:
        raise InvalidOptionsError(f"--deals {deals}: a held-out set has {MIN_DEALS} to {MAX_DEALS} deals")
    seed = secrets.randbits(SEED_BITS)
    secret = {"format": FORMAT, "version": VERSION, "name": name, "env": env.id, "deals": deals, "seed": str(seed)}
    public = {name: public_half(dealt(env, name, seed, deals))}  # first: a stop while hashing leaves no secret
    try:
        handle = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise InvalidOptionsError(f"--out {path_text(out)} is there already: a secret is never written over") from None
    except OSError as exc:
        raise InvalidOptionsError(f"--out {path_text(out)} cannot be written: {exc.strerror or exc}") from None
    with os.fdopen(handle, "w", encoding="utf-8") as f:
        f.write(json.dumps(secret, indent=1) + "\n")
    return public


def read_secret(path: Path, sets: dict[str, JsonObject] | None = None) -> BenchEnv:
    """The environment dealt from the held-out set whose secret is at ``path``, once the file is shown to be a
    secret of a published set (of ``sets``: the package's where None) that deals exactly its published deals;
    otherwise a refusal naming the file and the rule (never the seed)."""
    where = f"--held-out {path_text(path)}"
    try:  # never blocking: a pipe or a device given as the secret is refused, not waited on
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InvalidOptionsError(f"{where} cannot be read: {exc.strerror or exc}") from None
    with os.fdopen(handle, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise InvalidOptionsError(f"{where} is not a regular file")
        try:
            raw = f.read(MAX_SECRET_BYTES + 1)
        except OSError as exc:
            raise InvalidOptionsError(f"{where} cannot be read: {exc.strerror or exc}") from None
    if len(raw) > MAX_SECRET_BYTES:
        raise InvalidOptionsError(f"{where} holds more than a held-out set's secret ({MAX_SECRET_BYTES} bytes)")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise InvalidOptionsError(f"{where} is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise InvalidOptionsError(f"{where} is not a held-out set's secret (clubs evaluate held-out writes one)")
    name, env_id, deals, seed_text = (data.get(k) for k in ("name", "env", "deals", "seed"))
    if not isinstance(name, str) or not isinstance(env_id, str):
        raise InvalidOptionsError(f"{where}: its 'name' and 'env' must be text")
    if not isinstance(deals, int) or isinstance(deals, bool) or not MIN_DEALS <= deals <= MAX_DEALS:
        raise InvalidOptionsError(f"{where}: its 'deals' must be a whole number from {MIN_DEALS} to {MAX_DEALS}")
    if not isinstance(seed_text, str) or not (seed_text.isascii() and seed_text.isdigit()) or len(seed_text) > 60:
        raise InvalidOptionsError(f"{where}: its 'seed' must be a whole number written as text")
    known = published() if sets is None else sets
    public = known.get(_checked_name(name, f"{where}: its name"))
    if public is None:
        raise InvalidOptionsError(f"{where}: no held-out set named {quoted(name, 80)} is published")
    env = find_env(env_id, f"{where}: its env")
    if public.get("env") != env.id or public.get("deals") != deals:
        raise InvalidOptionsError(f"{where}: the set {name} is published for other deals (its env or number of deals)")
    held = dealt(env, name, int(seed_text), deals)
    if public.get("deals_sha256") != deals_hash(held):
        raise InvalidOptionsError(
            f"{where}: its seed does not deal the deals published for {name} (their hash differs): not that set's "
            "secret"
        )
    return held
