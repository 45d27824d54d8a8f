"""The double-dummy table of a position: every legal card of the seat to act with its exact value, every hand
known, for each of the game's measures (``clubs solve``)."""

from __future__ import annotations

from clubsuite.engine import SomeMatch
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.solver import SolveStats, card_values, solving_for


def dd_table(match: SomeMatch, node_limit: int | None = None) -> JsonObject:
    """The table as JSON: the seat to act, the measures, each card's value per measure, the best cards per
    measure, and the solver's node count. Raises :class:`~clubsuite.solver.NotSolvableError` when no card is to be
    played, :class:`~clubsuite.solver.NodeLimitError` past ``node_limit``."""
    solving = solving_for(match.game)
    stats = SolveStats()
    per_measure = {m.name: card_values(match, m.name, node_limit=node_limit, stats=stats) for m in solving.measures}
    first = solving.measures[0].name
    cards: list[JsonValue] = []
    for action in per_measure[first]:
        values: JsonObject = {m: per_measure[m][action] for m in per_measure}
        cards.append({"card": match.format_action(action), "values": values})
    best: JsonObject = {}
    for m in solving.measures:
        row = per_measure[m.name]
        top = max(row.values()) if m.maximize else min(row.values())
        best[m.name] = [match.format_action(a) for a, v in row.items() if v == top]
    measures: list[JsonValue] = [
        {"name": m.name, "description": m.description, "aim": "high" if m.maximize else "low"} for m in solving.measures
    ]
    return {
        "game": match.game,
        "hand": len(match.hands) - 1,
        "seat": match.to_act,
        "measures": measures,
        "cards": cards,
        "best": best,
        "nodes": stats.nodes,
    }


def _from_one(number: JsonValue) -> int:
    """A hand or seat of the table (the engine's, from 0) as players count it, from 1."""
    assert isinstance(number, int)
    return number + 1


def dd_text(table: JsonObject) -> str:
    """The table for people: one line per card, the best values of each measure starred, the measures explained.
    The hand and seat are counted from 1 as players count (the JSON table keeps the record's numbers, from 0)."""
    measures = [m for m in table["measures"] if isinstance(m, dict)]
    names = [str(m["name"]) for m in measures]
    best = table["best"]
    assert isinstance(best, dict)
    lines = [
        f"Hand {_from_one(table['hand'])}, seat {_from_one(table['seat'])} to play; every hand known, the others "
        "playing against it (its partner with it).",
        "",
        "card  " + "".join(f"{n:>9}" for n in names),
    ]
    cards = table["cards"]
    assert isinstance(cards, list)
    for entry in cards:
        assert isinstance(entry, dict)
        values = entry["values"]
        assert isinstance(values, dict)
        cells = []
        for n in names:
            starred = entry["card"] in best[n]
            cells.append(f"{values[n]!s:>8}{'*' if starred else ' '}")
        lines.append(f"{entry['card']!s:<6}" + "".join(cells))
    lines.append("")
    lines.append("* the best card for that measure")
    for m in measures:
        lines.append(f"{m['name']}: {m['description']}")
    lines.append(f"({table['nodes']} positions searched)")
    return "\n".join(lines) + "\n"
