"""The post-game review (``clubs review``): every decision of one seat, valued two ways.

* **From the seat's own view** (the fair judge): the PIMC search values each action by its mean objective (the
  estimated chance of winning the match, see :mod:`clubsuite.bots.objective`) over determinizations drawn from
  what the seat knew at the time. The *cost* of the action taken is the best action's value minus its value, in
  points of winning chance. A cost of at least the threshold is a mistake (``?``), twice the threshold a blunder
  (``??``).
* **With every hand known** (double dummy, only during the card play of the trick games): the exact solver's count
  for the action taken and for the best card, in the measure the seat should have aimed for (tricks, fewest tricks
  or points: the one whose best count the objective values most). This judge knows cards the player could not, so
  a "loss" here may be no mistake at all; it shows what was possible.

Costs are summed per hand. The search is seeded, so a review of one record with one seed and sample count is the
same every time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from clubsuite.analysis.positions import Decision, decisions
from clubsuite.bots.objective import objective_for
from clubsuite.bots.pimc import PimcBot, PimcSettings
from clubsuite.engine import Phase, SomeMatch, find_game
from clubsuite.errors import ClubsError, InvalidOptionsError, InvalidRecordError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.present import labels
from clubsuite.seeding import derive_seed
from clubsuite.solver import NodeLimitError, card_values, solving_for
from clubsuite.solver.game import HasSolver, measure_named

PAGE_SAMPLES = 8
"""Deals a review asked for by a page samples at each decision (the command line's ``clubs review`` takes 16 by
default: a page's review, on a server or in the offline app, halves it, so it costs half as much and marks the same
clear mistakes)."""
MAX_REVIEWED = 400
"""The most decisions a seat of the record may have for a page's review (a longer match is refused, named:
``clubs review`` has no bound)."""


class SeatMissingError(ClubsError):
    """The record has no such seat to review."""


def check_reviewable(record: JsonObject, seat: int) -> None:
    """Refuse, in words, a page's review of ``seat`` in ``record`` that cannot be given: no such seat
    (:class:`SeatMissingError`), or a match too long to review (:class:`~clubsuite.errors.InvalidRecordError`)."""
    seats = record.get("seats")
    if not isinstance(seats, list) or not 0 <= seat < len(seats):
        raise SeatMissingError(f"the record has no seat {seat + 1}")
    hands = record.get("hands")
    actions = (
        sum(len(h["actions"]) for h in hands if isinstance(h, dict) and isinstance(h.get("actions"), list))
        if isinstance(hands, list)
        else 0
    )
    if actions > MAX_REVIEWED * len(seats):
        raise InvalidRecordError(f"the match has {actions} actions: too long to review here")


@dataclass
class ReviewSettings:
    """How the review searches."""

    samples: int = 16
    """Determinizations per decision for the seat-view values."""
    seed: int = 0
    threshold: float = 0.03
    """The cost (in winning chance, 0..1) from which a decision is marked a mistake."""
    nodes: int = 300_000
    """The most solver nodes per double-dummy solve; past it, that decision has no double-dummy value."""
    width: int = 16
    """The most actions the search compares (the action taken is always among them)."""


@dataclass
class Reviewed:
    """One decision, valued."""

    decision: Decision
    taken: float
    best: float
    best_action: str
    dd: JsonObject | None = None
    mark: str = ""

    @property
    def cost(self) -> float:
        """What the action taken cost, from the seat's view."""
        return max(0.0, self.best - self.taken)


@dataclass
class Review:
    """The review of one seat's decisions."""

    seat: int
    game: str
    settings: ReviewSettings
    items: list[Reviewed] = field(default_factory=list)
    exact: bool = False
    """Whether the game has an exact solver, so that card play can be valued with every hand known (not in a
    game without a solver, a climbing game for one: there the search's values are all there is)."""

    def to_json(self) -> JsonObject:
        """The review as JSON: every decision, and the sums per hand."""
        per_hand: dict[int, dict[str, float]] = {}
        decisions_json: list[JsonValue] = []
        info, _ = find_game(self.game)
        for r in self.items:
            d = r.decision
            best = r.dd["best_actions"] if r.dd is not None and isinstance(r.dd.get("best_actions"), list) else []
            named = [d.text, r.best_action, *(str(a) for a in best)]
            # each action as the table's button says it, from the reviewed seat's own view just before it
            said = labels(info, d.before.view(d.seat).to_dict(), list(dict.fromkeys(named)))
            sums = per_hand.setdefault(d.hand, {"cost": 0.0, "mistakes": 0, "dd_loss": 0.0})
            sums["cost"] += r.cost
            sums["mistakes"] += 1 if r.mark else 0
            if r.dd is not None:
                loss = r.dd["loss"]
                assert isinstance(loss, int)
                sums["dd_loss"] += loss
            decisions_json.append(
                {
                    "hand": d.hand,
                    "action_index": d.index,
                    "phase": str(d.before.phase),
                    "action": d.text,
                    "view": {
                        "taken": round(r.taken, 4),
                        "best": round(r.best, 4),
                        "best_action": r.best_action,
                        "cost": round(r.cost, 4),
                    },
                    "double_dummy": r.dd,
                    "mark": r.mark,
                    "labels": said,
                }
            )
        hands: list[JsonValue] = [
            {"hand": h, "cost": round(v["cost"], 4), "mistakes": int(v["mistakes"]), "dd_loss": int(v["dd_loss"])}
            for h, v in sorted(per_hand.items())
        ]
        return {
            "game": self.game,
            "seat": self.seat,
            "samples": self.settings.samples,
            "seed": self.settings.seed,
            "threshold": self.settings.threshold,
            "exact": self.exact,
            "decisions": decisions_json,
            "hands": hands,
        }


def review(record: JsonObject, seat: int, settings: ReviewSettings | None = None) -> Review:
    """Review every decision ``seat`` made in ``record`` (see the module docstring)."""
    settings = settings or ReviewSettings()
    bot = PimcBot(PimcSettings(samples=settings.samples, width=settings.width))
    out: Review | None = None
    for d in decisions(record):
        if out is None:
            if not 0 <= seat < d.before.n_seats:
                # --seat counts from 1 as players count; ``seat`` is the engine's, from 0
                raise InvalidOptionsError(f"--seat {seat + 1}: the match has seats 1 to {d.before.n_seats}")
            info, _ = find_game(d.before.game)
            out = Review(seat, d.before.game, settings, exact=isinstance(info.parts, HasSolver))
        if d.seat != seat:
            continue
        legal = d.before.legal_actions()
        if len(legal) < 2:
            continue
        rng = random.Random(derive_seed(settings.seed, d.hand * 1000 + d.index))
        values = bot.evaluate(d.before.view(seat), legal, rng, include=d.action)
        best_action, best = max(values, key=lambda pair: pair[1])
        taken = next(v for a, v in values if a == d.action)
        item = Reviewed(d, taken, best, d.before.format_action(best_action))
        item.dd = exact_counts(d, settings.nodes)
        cost = item.cost
        item.mark = "??" if cost >= 2 * settings.threshold else "?" if cost >= settings.threshold else ""
        out.items.append(item)
    if out is None:
        raise InvalidOptionsError("the record has no decision to review")
    return out


def aimed_measure(match: SomeMatch, seat: int, nodes: int) -> str:
    """The measure ``seat`` (to act) should aim for with every hand known: of the solver's measures the game's
    objective reads, the one whose best count the objective values most; the game's first measure where the
    objective reads one or none (a measure it does not read, such as tricks where points decide, is never compared
    with one it does). :class:`~clubsuite.solver.search.NodeLimitError` past ``nodes``."""
    objective = objective_for(match.game)
    solving = solving_for(match.game)
    read = [m for m in solving.measures if m.name in objective.measures]
    if len(read) < 2:
        return (read or list(solving.measures))[0].name
    best_name, best_value = read[0].name, float("-inf")
    for m in read:
        counts = card_values(match, m.name, node_limit=nodes)
        top = max(counts.values()) if m.maximize else min(counts.values())
        value = objective.value_of_count(match, seat, m.name, top)
        if value > best_value:
            best_name, best_value = m.name, value
    return best_name


def exact_counts(d: Decision, nodes: int) -> JsonObject | None:
    """The exact count of the action taken and of the best card, every hand known, in the measure the seat should
    have aimed for (:func:`aimed_measure`); None outside card play, in a game without a solver, or past the node
    limit."""
    match = d.before
    info, _ = find_game(match.game)
    if not isinstance(info.parts, HasSolver) or match.phase != Phase.PLAY:
        return None
    try:
        measure = measure_named(solving_for(match.game), aimed_measure(match, d.seat, nodes))
        counts = card_values(match, measure.name, node_limit=nodes)
    except NodeLimitError:
        return None
    top = max(counts.values()) if measure.maximize else min(counts.values())
    return {
        "measure": measure.name,
        "taken": counts[d.action],
        "best": top,
        "best_actions": [match.format_action(a) for a, v in counts.items() if v == top],
        "loss": abs(top - counts[d.action]),
    }


def review_text(result: Review) -> str:
    """The review for people: one line per decision, the mistakes marked, sums per hand. Seats, hands and actions
    are counted from 1 as players count (the JSON form keeps the record's numbers, from 0)."""
    lines = [
        f"Review of seat {result.seat + 1} ({result.game}): the estimated chance of winning the match after each "
        f"action, from the seat's own view ({result.settings.samples} worlds per decision); ? costs at least "
        f"{result.settings.threshold:.0%}, ?? twice that. 'all hands': the exact count with every card known.",
    ]
    hand = -1
    cost = 0.0
    marked = 0

    def close() -> None:
        if hand >= 0:
            lines.append(f"  hand {hand + 1}: cost {cost:.1%}, {marked} marked")

    for r in result.items:
        d = r.decision
        if d.hand != hand:
            close()
            hand, cost, marked = d.hand, 0.0, 0
            lines.extend(("", f"Hand {hand + 1}"))
        cost += r.cost
        marked += 1 if r.mark else 0
        text = f"  {d.index + 1:>3} {d.text:<14} {r.taken:6.1%}  best {r.best:6.1%}"
        if r.mark:
            text += f"  {r.mark:<2} better: {r.best_action}"
        if r.dd is not None:
            text += f"   all hands: {r.dd['taken']} {r.dd['measure']}, best {r.dd['best']}"
        lines.append(text)
    close()
    return "\n".join(lines) + "\n"
