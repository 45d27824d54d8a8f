"""``clubs learn``: make labelled positions of a benchmark environment and train a policy on them by imitation
(``docs/learning.md``; the method in :mod:`clubsuite.learning`)."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import click

from clubsuite.cli.common import EXIT_WRITE_FAILED, fail, handle_errors
from clubsuite.cli.describe import FillsHelp, FillsHelpGroup
from clubsuite.cli.learn_common import one_blas_thread, shown, weights_options, widths_of
from clubsuite.cli.learn_ppo import ppo_command
from clubsuite.cli.simulate import check_writable
from clubsuite.errors import InvalidOptionsError
from clubsuite.records.files import path_text, write_atomically
from clubsuite.rl.benchmarks import find_env
from clubsuite.sim.running import MAX_WORKERS

DATA = Path(".positions")
"""Where positions are kept unless ``--data`` says otherwise."""


def data_option(help_text: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """``--data``, the folder of positions, as both commands take it."""
    return click.option(
        "--data", type=click.Path(path_type=Path, file_okay=False), default=DATA, show_default=True, help=help_text
    )


@click.group("learn", cls=FillsHelpGroup)
def learn_command() -> None:
    """Train a policy of a benchmark environment by imitation of a search bot: first make labelled positions
    (positions), then train a network on them (train); then, from there, by PPO against the environment's bots
    (ppo). The weights file each writes is a policy that `clubs evaluate` plays; the learned bot plays the
    policies shipped with the package."""


@learn_command.command("positions", cls=FillsHelp)
@click.argument("env_name", metavar="ENV")
@click.option("--games", type=click.IntRange(1, 1_000_000), required=True, help="How many games to play and label.")
@data_option("The folder the positions are kept in (one folder per environment and teacher below it).")
@click.option(
    "--teacher",
    default="expert",
    show_default=True,
    help="The bot that labels every decision: a pimc search (expert, hard) labels it with its values of every "
    "candidate; any other bot (heuristic) with its choice alone.",
)
@click.option(
    "--explore",
    type=click.IntRange(0, 100),
    default=10,
    show_default=True,
    help="Percent of decisions at which the table plays a random legal action instead of the teacher's choice.",
)
@click.option(
    "--player",
    default=None,
    help="Who plays the table while the teacher labels every decision: a bot of the registry or a policy's weights "
    "file (.npz), to label the positions a learner reaches [default: the teacher].",
)
@click.option("--per-shard", type=click.IntRange(1, 10_000), default=10, show_default=True, help="Games a file.")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS), default=1, show_default=True, help="Processes.")
@click.option("--progress/--no-progress", default=False, help="Say on standard error how many games are done.")
@handle_errors
def positions_command(
    env_name: str,
    games: int,
    data: Path,
    teacher: str,
    explore: int,
    player: str | None,
    per_shard: int,
    workers: int,
    progress: bool,
) -> None:
    """Play games of ENV (a benchmark environment's id, or a game's name for its first) with the teacher at every
    seat and keep each of its decisions with the search's values of every candidate. Games already made under
    --data are kept: run the same command again to go on after a stop, or with more --games to add to it."""
    one_blas_thread()
    from clubsuite.learning.positions import generate

    env = find_env(env_name, "ENV")
    done = [0]

    def said(n: int) -> None:
        done[0] += n
        if progress:
            click.echo(f"{done[0]} more games played", err=True)

    try:
        paths = generate(env, data, games, per_shard, workers, teacher, explore, said, player)
    except OSError as exc:
        fail(f"cannot write positions under {path_text(data)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
    click.echo(f"{games} games of {env.id} in {len(paths)} files under {path_text(paths[0].parent)}")


@learn_command.command("train", cls=FillsHelp)
@click.argument("env_name", metavar="ENV")
@data_option("The folder the positions were made in.")
@click.option("--teacher", default="expert", show_default=True, help="The teacher whose positions to learn from.")
@click.option(
    "--played-by",
    "played_by",
    multiple=True,
    help="Also learn from the teacher's positions of the tables this player played (clubs learn positions "
    "--player); may be given more than once.",
)
@click.option(
    "--init",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Start from this policy's weights (a policy of the same environment and shape) instead of random ones.",
)
@click.option(
    "--games",
    type=click.IntRange(1, 1_000_000),
    default=None,
    help="Train on the positions of the first GAMES games only [default: all there are].",
)
@weights_options
@click.option("--epochs", type=click.IntRange(1, 1000), default=12, show_default=True, help="Passes over the data.")
@click.option(
    "--lr",
    type=click.FloatRange(1e-6, 0.1),
    default=1e-3,
    show_default=True,
    help="Adam's step size (halved after two thirds of the epochs, in a run of three or more).",
)
@click.option("--progress/--no-progress", default=False, help="Say on standard error how each epoch went.")
@handle_errors
def train_command(
    env_name: str,
    data: Path,
    teacher: str,
    played_by: tuple[str, ...],
    init: Path | None,
    games: int | None,
    hidden: str,
    epochs: int,
    lr: float,
    seed: int,
    out: Path,
    progress: bool,
) -> None:
    """Train a policy network for ENV on the positions made under --data, holding every tenth game out to
    measure it, and write its weights (a policy file) and how the training went."""
    one_blas_thread()
    from clubsuite.bots.policy import Policy, write_policy
    from clubsuite.learning.network import Epoch, Settings, train, weight_count
    from clubsuite.learning.positions import Dataset, read_shards, shard_ranges, teacher_folder

    env = find_env(env_name, "ENV")
    widths = widths_of(hidden)
    if out.suffix != ".npz":
        raise InvalidOptionsError(f"--out {path_text(out)}: a weights file's name ends in .npz")
    check_writable("--out", out)
    sources: list[tuple[str | None, Path]] = [(None, teacher_folder(data, env, teacher))]
    sources += [(player, teacher_folder(data, env, teacher, player)) for player in played_by]
    for player, folder in sources:
        if not shard_ranges(folder):
            by = f" played by {player}" if player is not None else ""
            make = f" --player {shlex.quote(player)}" if player is not None else ""
            raise InvalidOptionsError(
                f"--data {path_text(data)}: no positions of {env.id} by {teacher}{by} there; make them first: "
                f"clubs learn positions {env.id} --teacher {shlex.quote(teacher)}{make} --games N"
            )
    start = None
    if init is not None:
        start = Policy(init, env.id, env.spec).layers
        if tuple(w.shape[1] for w, _ in start[:-1]) != widths:
            raise InvalidOptionsError(f"--init {path_text(init)}: its hidden layers are not --hidden {hidden}")
    read = [read_shards(folder, env, games) for _, folder in sources]
    dataset, about = Dataset.joined([d for d, _ in read]), "; ".join(a for _, a in read)
    training, held = dataset.split()
    if len(training) == 0 or len(held) == 0:
        raise InvalidOptionsError(
            f"{len(set(dataset.game.tolist()))} games of positions: too few to train on, every tenth game being held "
            "out to measure the training (make more with clubs learn positions)"
        )
    settings = Settings(hidden=widths, epochs=epochs, lr=lr, seed=seed)

    def said(e: Epoch) -> None:
        if progress:
            click.echo(
                f"epoch {e.epoch}: loss {e.train_loss:.4f}, held out {e.val_loss:.4f}, agrees {e.val_agree:.3f}",
                err=True,
            )

    layers, history = train(training, settings, held, said, start)
    command = ["clubs", "learn", "train", env.id, "--teacher", teacher]
    for player in played_by:
        command += ["--played-by", shown(Path(player)) if player.endswith(".npz") else player]
    command += ["--hidden", hidden, "--epochs", str(epochs)]
    command += ["--lr", f"{lr:g}", "--seed", str(seed)]
    if init is not None:
        command += ["--init", shown(init)]
    if games is not None:
        command += ["--games", str(games)]
    record = {
        "format": "clubsuite-training",
        "version": 1,
        "env": env.id,
        "command": shlex.join(command),
        "teacher": teacher,
        "positions": about,
        "init": shown(init) if init is not None else None,
        "games": sum(int(d.game.max()) + 1 if len(d) else 0 for d, _ in read),
        "steps": {"train": len(training), "held_out": len(held)},
        "weights": weight_count(layers),
        "settings": {
            "hidden": list(widths),
            "epochs": epochs,
            "seed": seed,
            "batch": settings.batch,
            "lr": settings.lr,
        },
        "epochs": [e.__dict__ for e in history],
        "python": sys.version.split()[0],
    }
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(out.with_suffix(".json"), (json.dumps(record, indent=1) + "\n").encode())
        write_policy(out, env.id, layers)  # last: a policy file there has its record beside it
    except OSError as exc:
        fail(f"cannot write {path_text(out)}: {exc.strerror or exc}", EXIT_WRITE_FAILED)
    last = history[-1]
    click.echo(
        f"{env.id}: {weight_count(layers)} weights trained on {len(training)} steps of {record['games']} games; "
        f"held out: loss {last.val_loss:.4f}, the teacher's best {100 * last.val_agree:.1f}% of the time; "
        f"written to {path_text(out)}"
    )


learn_command.add_command(ppo_command)
