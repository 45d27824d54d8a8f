"""The datasheet of the benchmark's deal sets (docs/benchmark.md, "Datasheet of the deal sets"): for every
environment, what a deal holds, how many of its 10,000 deals are distinct, and whether the cards fall to their
holders as uniform shuffles would have them.

Run as ``python tools/deal_datasheet.py`` (prints the table in Markdown; ``--write`` puts it into
docs/benchmark.md between its ``deal-datasheet`` markers). The uniformity figure is Pearson's chi-square over
every (card, holder) count of the set against the counts a uniform shuffle expects (a holder: a seat's hand, or
another part of the deal such as the whist bid or the Free Clubs chest, or the cards left undealt), with its
degrees of freedom and the z-score of the statistic (a normal approximation, fine at these degrees of freedom):
a z-score within about +-3 is what uniform shuffles give.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

from clubsuite.rl.benchmarks import ENVS, BenchEnv, deal_records

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmark.md"
BEGIN, END = "<!-- deal-datasheet:begin -->", "<!-- deal-datasheet:end -->"


def holders(deal: dict[str, object]) -> dict[str, list[str]]:
    """Each part of a deal's record form that holds cards, by name (``hands[0]``, ``bid``, ...), as its cards."""
    out: dict[str, list[str]] = {}
    for key, value in sorted(deal.items()):
        if isinstance(value, str):
            out[key] = value.split()
        elif isinstance(value, list):
            for i, part in enumerate(value):
                if isinstance(part, str):
                    out[f"{key}[{i}]"] = part.split()
    return out


def sheet(env: BenchEnv) -> dict[str, object]:
    """The figures of ``env``'s deal set."""
    counts: Counter[tuple[str, str]] = Counter()
    sizes: dict[str, set[int]] = {}
    deck: set[str] = set()
    distinct: set[str] = set()
    deals = 0
    for line in deal_records(env):
        deals += 1
        distinct.add(line)
        for name, cards in holders(json.loads(line)).items():
            sizes.setdefault(name, set()).add(len(cards))
            deck.update(cards)
            for card in cards:
                counts[(card, name)] += 1
    fixed = {name: next(iter(s)) for name, s in sizes.items() if len(s) == 1}
    if len(fixed) != len(sizes):
        raise SystemExit(f"{env.id}: a part of the deal has no fixed size; the uniformity figure assumes one")
    parts = dict(fixed)
    left = len(deck) - sum(parts.values())
    if left > 0:  # the cards of the pack no part holds: they are a holder too
        parts["undealt"] = left
        for line in deal_records(env):
            held = {c for cards in holders(json.loads(line)).values() for c in cards}
            for card in deck - held:
                counts[(card, "undealt")] += 1
    # Within a group of parts (GROUPS), a uniform shuffle gives every card of the group to every part of it as often
    # as the part's size says.
    groups = _groups(env, deck, parts, counts)
    chi2 = 0.0
    df = 0
    for group_cards, group_parts in groups:
        for card in group_cards:
            for name in group_parts:
                expected = deals * parts[name] / len(group_cards)
                chi2 += (counts[(card, name)] - expected) ** 2 / expected
        df += len(group_cards) * (len(group_parts) - 1)
    return {
        "id": env.id,
        "deals": deals,
        "distinct": len(distinct),
        "deck": len(deck),
        "parts": ", ".join(f"{name} {size}" for name, size in parts.items()),
        "chi2": chi2,
        "df": df,
        "z": (chi2 - df) / math.sqrt(2 * df),
        "groups": len(groups),
    }


GROUPS = {
    "clubs_free-v1": (("auction[0]", "auction[1]", "auction[2]"), ("chest", "primary[0]", "primary[1]", "primary[2]"))
}
"""Where a game deals some parts from some cards only, its groups of parts, as its rules say (Free Clubs: the 18
honours to the auction lots, the other 36 cards to the chest and the hands); elsewhere every part is one group.
Declared, not read from the deals, so that a set that is not shuffled cannot pass for one made of groups."""


def _groups(
    env: BenchEnv, deck: set[str], parts: dict[str, int], counts: Counter[tuple[str, str]]
) -> list[tuple[set[str], set[str]]]:
    """The groups of cards and parts (:data:`GROUPS`), each group's cards those its parts were dealt."""
    declared = GROUPS.get(env.id, (tuple(parts),))
    if sorted(name for group in declared for name in group) != sorted(parts):
        raise SystemExit(f"{env.id}: the declared groups are not the deal's parts ({', '.join(parts)})")
    out: list[tuple[set[str], set[str]]] = []
    for group in declared:
        cards = {card for card in deck if any(counts[(card, name)] for name in group)}
        if sum(parts[name] for name in group) != len(cards):
            raise SystemExit(f"{env.id}: parts {', '.join(group)} hold other cards than their group's")
        out.append((cards, set(group)))
    return out


def table() -> str:
    """The datasheet's table in Markdown."""
    rows = [
        "| environment | deals (distinct) | cards | a deal's parts, cards each | groups | chi-square (df) | z |",
        "|---|---|---|---|---|---|---|",
    ]
    for env in ENVS.values():
        s = sheet(env)
        rows.append(
            f"| `{s['id']}` | {s['deals']:,} ({s['distinct']:,}) | {s['deck']} | {s['parts']} | {s['groups']} | "
            f"{s['chi2']:,.1f} ({s['df']:,}) | {s['z']:+.2f} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Print the table, or write it into docs/benchmark.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="write the table into docs/benchmark.md")
    args = parser.parse_args(argv)
    text = table()
    if not args.write:
        print(text)
        return 0
    doc = DOC.read_text(encoding="utf-8")
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    DOC.write_text(doc[:start] + "\n\n" + text + "\n\n" + doc[end:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
