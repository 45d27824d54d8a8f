"""``clubs evaluate``: an agent against a bot level on a frozen benchmark environment (``docs/benchmark.md``; the
method in :mod:`clubsuite.benchmark.evaluate`)."""

from __future__ import annotations

import functools
import gzip
import json
import os
import shlex
import time
import zlib
from pathlib import Path

import click

from clubsuite.benchmark.evaluate import BLAS_THREADS, DealResult, deal_from_json, results, sides_of, summary
from clubsuite.cli.common import EXIT_WRITE_FAILED, fail, handle_errors
from clubsuite.cli.describe import FillsHelp
from clubsuite.cli.simulate import check_writable
from clubsuite.errors import ClubsError, InvalidOptionsError
from clubsuite.records.files import path_text, write_atomically
from clubsuite.rl.agents import Agent, agent
from clubsuite.rl.benchmarks import ENVS, BenchEnv, deals_hash, default_env, find_env, rules_hash
from clubsuite.rl.opponents import checked
from clubsuite.safetext import safe_lines
from clubsuite.sim.running import MAX_WORKERS

WRITE_EVERY_S = 30.0
"""How often a long evaluation rewrites its --out file with the deals done so far."""
MAX_KEPT_BYTES = 512 * 1024 * 1024
"""The most an evaluation file --resume reads holds, unpacked (10,000 deals with every decision's CPU take some tens
of MB)."""
MIN_DEALS = 30
"""The fewest deals an evaluation plays: its interval is a normal approximation over deals."""


@functools.cache
def plays_as_frozen(env: BenchEnv, observation: bool) -> bool:
    """Whether this build plays ``env`` as it was frozen: its deals and rules trace (and with ``observation``, its
    observation) hash to the pinned values. Worked out once a process (the code a process runs does not change, and
    the deals' hash alone reads all 10,000 deals)."""
    if deals_hash(env) != env.deals_sha256 or rules_hash(env) != env.rules_sha256:
        return False
    if observation:
        from clubsuite.rl.observation import observation_hash

        return observation_hash(env) == env.observation_sha256
    return True


def kept_deals(path: Path, env: BenchEnv, agent: Agent, level: Agent, deals: int) -> dict[int, DealResult]:
    """The deals below ``deals`` that the evaluation file at ``path`` holds, by number, once the file is shown to be
    of the same environment (its id and hashes), agent and level; otherwise a clear refusal naming the file."""
    where = f"--resume: {path_text(path)}"
    try:
        with gzip.open(path) if path.name.endswith(".gz") else path.open("rb") as f:
            raw = f.read(MAX_KEPT_BYTES + 1)
        if len(raw) > MAX_KEPT_BYTES:
            raise InvalidOptionsError(f"{where} holds more than {MAX_KEPT_BYTES // (1024 * 1024)} MB")
        data = json.loads(raw)
    except OSError as exc:  # gzip's BadGzipFile is one
        raise InvalidOptionsError(f"{where} cannot be read: {exc.strerror or exc}") from None
    except (ValueError, RecursionError, EOFError, zlib.error):
        raise InvalidOptionsError(f"{where} is damaged or not JSON") from None
    if not isinstance(data, dict) or data.get("format") != "clubsuite-evaluation" or data.get("version") != 1:
        raise InvalidOptionsError(f"{where} is not an evaluation written by clubs evaluate --out")
    fresh = summary(env, agent, level, [])
    for key, what in (("env", "environment"), ("agent", "agent"), ("against", "level played against")):
        if data.get(key) != fresh[key]:
            raise InvalidOptionsError(f"{where} is of another {what} (its {key}: {data.get(key)!r:.200})")
    entries = data.get("per_deal")
    if not isinstance(entries, list):
        raise InvalidOptionsError(f"{where} holds no deals (per_deal)")
    kept: dict[int, DealResult] = {}
    sides = len(sides_of(env))
    for entry in entries:
        try:
            deal = deal_from_json(entry, sides)
        except ValueError as exc:
            raise InvalidOptionsError(f"{where}: {exc}") from None
        if deal.deal in kept:
            raise InvalidOptionsError(f"{where} holds deal {deal.deal} twice")
        if deal.deal >= deals:
            raise InvalidOptionsError(
                f"{where} holds deal {deal.deal}, past the --deals {deals} asked: ask for at least as many deals as "
                "it holds (the file is rewritten with the deals asked)"
            )
        kept[deal.deal] = deal
    return kept


def _signed(value: float) -> str:
    return f"{value:+.3f}"


@click.command("evaluate", cls=FillsHelp)
@click.argument("agent_text", metavar="AGENT")
@click.option(
    "--against",
    default="hard",
    show_default=True,
    help="The level (or any bot of the registry) at every other side of the table.",
)
@click.option(
    "--game",
    "env_name",
    default=None,
    help=f"The benchmark environment: an id ({', '.join(ENVS)}), or a game's name for its first "
    f"[default: {default_env().id}].",
)
@click.option(
    "--deals",
    type=click.IntRange(MIN_DEALS, 10_000),
    default=200,
    show_default=True,
    help="How many of the environment's 10,000 deals to play, from the first (each from every side); at least "
    f"{MIN_DEALS}, so that the interval's normal approximation holds.",
)
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=1, show_default=True, help="Processes.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also write the result as JSON, with every deal's result, to this file (gzip-compressed where its name ends"
    " in .gz).",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Take up the evaluation in the --out file where it stopped: the deals it holds are kept, not played again "
    "(the file must be of the same agent, level and environment). The file is written as deals are done.",
)
@click.option("--progress/--no-progress", default=False, help="Say on standard error how many deals are done.")
@handle_errors
def evaluate_command(
    agent_text: str,
    against: str,
    env_name: str | None,
    deals: int,
    workers: int,
    as_json: bool,
    out: Path | None,
    resume: bool,
    progress: bool,
) -> None:
    """Play AGENT against a bot level on a benchmark environment's frozen deals, every deal from every side of
    the table, and say how many points a hand the agent's side makes over the others (or, where a deal starts a
    whole match, how much more of a match it wins), with its 95% interval over the deals, and the CPU each decision
    took. AGENT is a bot of the registry (heuristic, hard,
    "pimc(samples=16)"), a Python entry point (package.module:factory, called with the rules spec, returning a
    bot) or a policy's weights file (.npz)."""
    for name in BLAS_THREADS:  # before NumPy loads (a policy's weights), here and in the workers spawned from here
        os.environ.setdefault(name, "1")
    env = find_env(env_name) if env_name is not None else default_env()
    if resume and out is None:
        raise InvalidOptionsError("--resume takes up the evaluation kept in the --out file: give --out")
    if out is not None:
        check_writable("--out", out)
        if out.exists() and not resume:
            raise InvalidOptionsError(
                f"--out {path_text(out)} is there already: --resume takes it up, or remove it to start again"
            )
    player = agent(agent_text, env)
    level = agent(against, env, "--against")
    # once both are named (an entry point's module imported): a reference level must still choose as it was frozen
    player = checked(env, player, "AGENT")
    level = checked(env, level, "--against")
    # a policy reads the observation: it must be the frozen one
    if not plays_as_frozen(env, "weights" in (player.kind, level.kind)):
        raise ClubsError(
            f"this build no longer plays {env.id} as it was frozen (its deals, rules or observation changed): "
            "its results would not compare; a new version of the environment is needed"
        )
    kept = kept_deals(out, env, player, level, deals) if resume and out is not None and out.exists() else {}
    done = [len(kept)]

    def said(n: int) -> None:
        done[0] += n
        if progress:
            click.echo(f"{done[0]} of {deals} deals played", err=True)

    command = shlex.join(
        ["clubs", "evaluate", agent_text, "--against", against, "--game", env.id, "--deals", str(deals)]
    )

    def write(played: list[DealResult]) -> None:
        if out is None:
            return
        try:
            full = {**summary(env, player, level, played, per_deal=True), "command": command}
            text = json.dumps(full, separators=(",", ":")).encode()
            write_atomically(out, gzip.compress(text, mtime=0) if out.name.endswith(".gz") else text)
        except OSError as exc:
            fail(f"cannot write the result to {path_text(out)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)

    played = list(kept.values())
    written = time.monotonic()
    try:
        for deal in results(env, player, level, deals, workers, said, skip=kept):
            played.append(deal)
            if time.monotonic() - written > WRITE_EVERY_S:
                write(sorted(played, key=lambda d: d.deal))
                written = time.monotonic()
    finally:  # a stopped or failed run keeps every deal it finished (--resume takes them up)
        played.sort(key=lambda d: d.deal)
        if played:
            write(played)
    data = {**summary(env, player, level, played), "command": command}
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    result, cpu = data["result"], data["cpu"]
    low, high = result["ci95"]
    n_sides = len(sides_of(env))
    if env.episode == "match":
        lines = [
            f"{agent_text} against {against} on {env.id}: {deals} matches, each from all {n_sides} sides",
            f"  {_signed(result['mean'])} of a match won over the other sides' mean (95% interval {_signed(low)} to "
            f"{_signed(high)})",
            f"  its side wins {data['agent_score']['mean']:.3f} of a match",
        ]
    else:
        lines = [
            f"{agent_text} against {against} on {env.id}: {deals} deals, each from all {n_sides} sides",
            f"  {_signed(result['mean'])} points a hand over the other sides (95% interval {_signed(low)} to "
            f"{_signed(high)})",
            f"  its side scores {data['agent_score']['mean']:+.3f} points a hand",
        ]
    for who, name in (("agent", agent_text), ("against", against)):
        c = cpu[who]
        if c["decisions"]:
            lines.append(
                f"  {name}: {c['cpu_ms_mean']:.3f} ms of CPU a decision (95th percentile {c['cpu_ms_p95']:.3f}, "
                f"most {c['cpu_ms_max']:.3f}) over {c['decisions']} decisions"
            )
    if level.choices_sha256 is None:
        pinned = ", ".join(name for name, _ in env.opponents)
        lines.append(
            f"  {against} is not one of {env.id}'s frozen opponents ({pinned}): this result compares only with runs "
            "against the same bot"
        )
    click.echo(safe_lines("\n".join(lines)))
