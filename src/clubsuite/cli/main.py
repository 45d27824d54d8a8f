"""The ``clubs`` command: a group of subcommands (play, watch, simulate, replay)."""

from __future__ import annotations

import click

from clubsuite import __version__
from clubsuite.cli.play import play_command, watch_command
from clubsuite.cli.replay import replay_command
from clubsuite.cli.simulate import simulate_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="clubs")
def cli() -> None:
    """Play, watch, simulate and replay the card games called Clubs.

    Games: whist (Clubs, whist group: 3 players, bid hand, quota of four), with its variant whist-1997; free
    (Free Clubs: auction of handicaps, treasure chest, Joker teams); northstar (North Star's CLUBS: a climbing game
    for 2 to 6 players, --players N, with the variants northstar-2013, -double, -wild, -crazy, -duel and -teams);
    partnership (Clubs, version 5: 4 players in two partnerships, a three-card pass, the Ruby Dame). Rules options
    are given as a spec, e.g. --variant 'whist(lead_after_exchange=left_of_last_exchanger)' or
    --variant 'northstar(players=6,teams=2x3,wild_fifteens=true)'.
    """


cli.add_command(play_command, "play")
cli.add_command(watch_command, "watch")
cli.add_command(simulate_command, "simulate")
cli.add_command(replay_command, "replay")


def main() -> None:
    """Entry point of the ``clubs`` console script."""
    cli(prog_name="clubs")
