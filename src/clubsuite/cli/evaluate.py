"""``clubs evaluate``: an agent against a bot level on a frozen benchmark environment (``docs/benchmark.md``; the
method in :mod:`clubsuite.benchmark.evaluate`)."""

from __future__ import annotations

import functools
import gzip
import json
import os
import random
import shlex
import time
from pathlib import Path

import click

from clubsuite.benchmark.compare import compare, named
from clubsuite.benchmark.evaluate import BLAS_THREADS, DealResult, play_deal, results, sides_of, summary
from clubsuite.benchmark.files import read_deals, read_evaluation, read_json
from clubsuite.benchmark.heldout import read_secret
from clubsuite.cli.common import EXIT_WRITE_FAILED, fail, handle_errors
from clubsuite.cli.describe import FillsHelp, FillsHelpGroup
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
    of the same environment (its id and hashes), agent and level, and a sample of its deals played again gives what
    it holds (:func:`verify_sample`); otherwise a clear refusal naming the file."""
    where = f"--resume: {path_text(path)}"
    data = read_json(path, where)
    fresh = summary(env, agent, level, [])
    for key, what in (("env", "environment"), ("agent", "agent"), ("against", "level played against")):
        if data.get(key) != fresh[key]:
            raise InvalidOptionsError(f"{where} is of another {what} (its {key}: {data.get(key)!r:.200})")
    kept = read_deals(data, len(sides_of(env)), where)
    for deal in kept:
        if deal >= deals:
            raise InvalidOptionsError(
                f"{where} holds deal {deal}, past the --deals {deals} asked: ask for at least as many deals as "
                "it holds (the file is rewritten with the deals asked)"
            )
    verify_sample(kept, env, agent, level, where)
    return kept


VERIFIED_DEALS = 3
"""How many of a resumed file's deals are played again before its deals are taken."""


def verify_sample(kept: dict[int, DealResult], env: BenchEnv, agent: Agent, level: Agent, where: str) -> None:
    """Play again :data:`VERIFIED_DEALS` of the kept deals, drawn at random (a file cannot know which), and refuse
    the file where one differs from what it holds (its scores or the hash of its actions): a file whose scores were
    altered and made to add up again, or an agent that does not play a deal the same way twice."""
    drawn = random.SystemRandom().sample(sorted(kept), min(VERIFIED_DEALS, len(kept)))
    for k in sorted(drawn):
        again = play_deal(env, agent, level, k)
        if again.scores != kept[k].scores or again.actions_sha256 != kept[k].actions_sha256:
            raise InvalidOptionsError(
                f"{where}: deal {k} played again gives other tables than the file holds (checked on {len(drawn)} "
                "deals drawn at random): the file was altered, or an agent does not play the same deal the same way "
                "twice; start again without --resume"
            )


def _signed(value: float) -> str:
    return f"{value:+.3f}"


@click.command("run", cls=FillsHelp)
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
@click.option(
    "--held-out",
    "held_out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Play the deals of a published held-out set instead of the environment's public ones, from the set's "
    "secret file (for a leaderboard's keepers: clubs evaluate held-out makes one).",
)
@click.option("--progress/--no-progress", default=False, help="Say on standard error how many deals are done.")
@handle_errors
def run_command(
    agent_text: str,
    against: str,
    env_name: str | None,
    deals: int,
    workers: int,
    as_json: bool,
    out: Path | None,
    resume: bool,
    held_out: Path | None,
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
    held = None
    if held_out is not None:
        held = read_secret(held_out)
        if env_name is not None and held.id != env.id:
            raise InvalidOptionsError(f"--held-out {path_text(held_out)} is a set of {held.id}, not of --game {env.id}")
        if deals > held.count:
            raise InvalidOptionsError(f"--deals {deals}: the held-out set {held.held_out} has {held.count} deals")
        env = find_env(held.id)
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
    if held is not None:  # the build plays the environment as frozen: now its held-out deals
        env = held
    kept = kept_deals(out, env, player, level, deals) if resume and out is not None and out.exists() else {}
    done = [len(kept)]

    def said(n: int) -> None:
        done[0] += n
        if progress:
            click.echo(f"{done[0]} of {deals} deals played", err=True)

    words = ["clubs", "evaluate", agent_text, "--against", against, "--game", env.id, "--deals", str(deals)]
    if held_out is not None:  # the secret's file name alone: where a keeper keeps it is no one's business
        words += ["--held-out", held_out.name]
    command = shlex.join(words)

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
    where = f"{env.id} (held-out set {env.held_out})" if env.held_out else env.id
    if env.episode == "match":
        lines = [
            f"{agent_text} against {against} on {where}: {deals} matches, each from all {n_sides} sides",
            f"  {_signed(result['mean'])} of a match won over the other sides' mean (95% interval {_signed(low)} to "
            f"{_signed(high)})",
            f"  its side wins {data['agent_score']['mean']:.3f} of a match",
        ]
    else:
        lines = [
            f"{agent_text} against {against} on {where}: {deals} deals, each from all {n_sides} sides",
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


@click.command("compare", cls=FillsHelp)
@click.argument("first", metavar="A", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("second", metavar="B", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@handle_errors
def compare_command(first: Path, second: Path, as_json: bool) -> None:
    """Pair two evaluations kept with --out (A and B: of one environment, against one level) over the deals both
    played, and say how much more A's agent makes than B's a deal, with its 95% interval over those deals, and how
    many of them were played exactly alike (the same actions at every table)."""
    a, b = read_evaluation(first), read_evaluation(second)
    names = (path_text(first), path_text(second))
    data = compare(a, b, names)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    diff, deals = data["difference"], data["deals"]
    low, high = diff["ci95"]
    agents = [named(data[side]["agent"]) for side in ("a", "b")]
    unit = "of a match won" if data["episode"] == "match" else "points a hand"
    lines = [
        f"{agents[0]} ({names[0]}) against {agents[1]} ({names[1]}), both against {named(data['against'])} on "
        f"{named(data['env'], 'id')}: {deals['common']} deals in common",
        f"  A makes {_signed(diff['mean'])} {unit} more than B (95% interval {_signed(low)} to {_signed(high)})",
        f"  A {data['a']['mean']:+.3f}, B {data['b']['mean']:+.3f} over the other sides on those deals; "
        f"{data['played_alike']} of them played exactly alike",
    ]
    if deals["only_a"] or deals["only_b"]:
        lines.append(f"  left out: {deals['only_a']} deals only in A, {deals['only_b']} only in B")
    click.echo(safe_lines("\n".join(lines)))


@click.command("held-out", cls=FillsHelp)
@click.argument("env_name", metavar="ENV")
@click.option("--name", required=True, help="The set's name, as the leaderboard calls it (say clubs_whist-v1-2027a).")
@click.option(
    "--deals",
    type=click.IntRange(MIN_DEALS, 10_000),
    default=1000,
    show_default=True,
    help="How many deals the set holds.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="The file to write the set's secret to (only its owner may read it; never written over).",
)
@handle_errors
def held_out_command(env_name: str, name: str, deals: int, out: Path) -> None:
    """Make a held-out deal set of the benchmark environment ENV for a leaderboard: a secret seed written to --out,
    and on standard output the set's public half (its environment, deals and their hash), to be published in
    src/clubsuite/benchmark/heldout.json. Keep the secret file from everyone: whoever holds it can deal the set."""
    from clubsuite.benchmark.heldout import make

    env = find_env(env_name, "ENV")
    public = make(env, name, deals, out)
    click.echo(json.dumps(public, indent=1))
    click.echo(
        f'the secret of {name} is in {path_text(out)}; publish the lines above under "sets" in '
        "src/clubsuite/benchmark/heldout.json",
        err=True,
    )


class EvaluateGroup(FillsHelpGroup):
    """``clubs evaluate``: ``compare`` where the first argument says so, else ``run`` (``clubs evaluate AGENT ...``
    runs an evaluation, as it always has)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The arguments, with ``run`` put first where they name no subcommand (nor ask for the group's help)."""
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["run", *args]
        return super().parse_args(ctx, args)


@click.group("evaluate", cls=EvaluateGroup, context_settings={"help_option_names": ["-h", "--help"]})
def evaluate_command() -> None:
    """Play an agent against a bot level on a frozen benchmark environment (clubs evaluate [run] AGENT ...; see
    clubs evaluate run --help), or pair two kept evaluations over their common deals (clubs evaluate compare A
    B)."""


evaluate_command.add_command(run_command)
evaluate_command.add_command(compare_command)
evaluate_command.add_command(held_out_command)
