"""One presenter per game, for every face: the terminal table tells each event in the very line the page shows for it.

For seeded matches (a couple of hands each, random bots), every batch of events is taken twice: as the server sends
it to a page (``event_json``, told by :func:`clubsuite.present.with_said` against the spectator's view, through JSON),
worded as the page's ``eventWords`` does (the reader's own seat "you", its own events "You ..."), and as the game's
terminal screen prints it for the same reader, in English and in German. The two must be the same lines, in the same
order, for a seated player and for a spectator (``clubs watch``). The games whose screens tell events this way are
listed in :data:`SPECS`.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from clubsuite.bots import make_bot
from clubsuite.engine import SomeMatch, resolve
from clubsuite.games.free.spectator import public_dict as free_public
from clubsuite.games.northstar.spectator import public_dict as northstar_public
from clubsuite.games.partnership.spectator import public_dict as partnership_public
from clubsuite.games.whist.spectator import public_dict as whist_public
from clubsuite.i18n import Words
from clubsuite.i18n.render import reason_words
from clubsuite.present import with_said
from clubsuite.reasons import Reason
from clubsuite.runner import deal_next
from clubsuite.server.table.protocol import event_json
from clubsuite.tui.table import screen_class

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
SPECS: dict[str, Callable[[Any], Any]] = {
    "free(target=60)": free_public,
    "free(misplays=true,target=60)": free_public,
    "whist(target=5)": whist_public,
    "partnership": partnership_public,
    "northstar(players=4)": northstar_public,
    "northstar-teams(double_or_nothing=true)": northstar_public,
}
"""Each game and variant told by its presenter at the terminal, with its spectator's view (what the server tells
its events against)."""
HANDS = 2
LANGS = ("en", "de")


def page_lines(spec: str, match: SomeMatch, events: tuple[Any, ...], me: int | None, lang: str) -> list[str]:
    """The lines a page shows for ``events``: the server's words through JSON, worded as ``eventWords`` does."""
    info, _ = resolve(spec)
    view = json.loads(json.dumps(SPECS[spec](match)))
    sent = json.loads(json.dumps(with_said(info, [event_json(e) for e in events], view)))
    you = Words(lang).get("you")

    def name_in(seat: int) -> str:
        return you if seat == me else NAMES[seat]

    lines = []
    for ev in sent:
        said = ev["said"]
        if said is None:
            continue
        mine = said["mine"].get(str(me)) if me is not None else None
        words = [reason_words(Reason.from_json(r), lang, name_in) for r in mine or said["words"]]
        lines.append(" ".join(words).replace("\u00a0", " "))  # a terminal writes no-break spaces plain
    return lines


def terminal(spec: str, seats: int, me: int | None, lang: str) -> tuple[Any, io.StringIO]:
    """The game's terminal screen of ``seats`` players for reader ``me`` (None: a spectator), printing plain text
    into a buffer."""
    info, _ = resolve(spec)
    screen = screen_class(info)
    assert screen is not None
    out = io.StringIO()
    table = screen(Console(file=out, width=400, no_color=True), NAMES[:seats], me, symbols=True)
    table.lang = lang
    return table, out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("spec", sorted(SPECS))
@pytest.mark.parametrize("me", [0, None], ids=["seated", "watching"])
def test_the_terminal_tells_every_event_in_the_lines_the_page_shows(spec: str, me: int | None, lang: str) -> None:
    info, options = resolve(spec)
    match = info.new_match(options, 0)
    bots = [make_bot("random", info.name) for _ in range(match.n_seats)]
    rng = random.Random(7)
    table, out = terminal(spec, match.n_seats, me, lang)
    expected: list[str] = []
    told = 0
    while not match.is_over and len(match.hands) < HANDS:
        batches = [deal_next(match, info, 11)]
        while match.to_act is not None:
            seat = match.to_act
            batches.append(match.apply(bots[seat].choose(match.view(seat), match.legal_actions(), rng), seat))
            for events in batches:
                page = page_lines(spec, match, events, me, lang)
                assert [t.line for t in table.told(match, events)] == page
                table.show_events(match, events)
                expected += page
                told += len(page)
            batches = []
    printed = out.getvalue().splitlines()
    at = 0  # every line the page shows is printed, in order (a score sheet may come between them)
    for line in expected:
        at = printed.index(line, at) + 1
    assert told > 20 * HANDS
    if lang != "en":  # the other language's own words, not English
        assert not any(line.endswith(" takes trick 1.") for line in printed)
