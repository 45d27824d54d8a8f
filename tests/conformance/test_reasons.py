"""Reasons as data (clubsuite.reasons): every refusal of every game carries a stable code, its ruling and its
parameters, and its English rendering is the sentence the engine has always given (a golden sample of refusals met
in seeded random play, ``tests/golden/refusals-en.json``, written before reasons were data).

To write the sample again after a deliberate change of words: ``cd tests && python -m conformance.refusals >
golden/refusals-en.json``.
"""

from __future__ import annotations

import json
import pickle
from collections import defaultdict
from pathlib import Path

import pytest

from clubsuite.engine import games
from clubsuite.present import load_presentation
from clubsuite.reasons import Reason, Template, kind_of, reason_of, templates
from conformance.harness import CASES
from conformance.refusals import refusals

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "refusals-en.json"
SAMPLE: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))


def _met() -> dict[str, object]:
    """The refusals of the golden sample, met again at the same decisions of the same seeded matches."""
    wanted: dict[tuple[str, int], set[tuple[int, str]]] = defaultdict(set)
    for key in SAMPLE:
        spec, seed, decision, candidate, _call = key.split("|")
        wanted[(spec, int(seed))].add((int(decision), candidate))
    met: dict[str, object] = {}
    for case in CASES:
        for (spec, seed), only in wanted.items():
            if spec == case.spec:
                for key, refusal in refusals(case, seed, only):
                    met["|".join(str(k) for k in key)] = refusal
    return met


MET = _met()


@pytest.mark.parametrize("key", sorted(SAMPLE))
def test_a_refusal_reads_in_english_as_the_engine_always_wrote_it(key: str) -> None:
    assert key in MET, f"{key}: no longer refused"
    assert str(MET[key]) == SAMPLE[key]


@pytest.mark.parametrize("key", sorted(SAMPLE))
def test_every_refusal_carries_a_reason_code_its_ruling_and_parameters(key: str) -> None:
    reason = reason_of(MET.get(key))  # type: ignore[arg-type]
    assert reason is not None, f"{key}: {SAMPLE[key]!r} is a bare sentence, not a reason"
    kind = templates()[reason.code]
    inner = [v.rule for v in reason.params.values() if isinstance(v, Reason) and v.rule]
    assert reason.rule == (kind.rule or (inner[0] if inner else None)), "its ruling, or the one of the refusal inside"
    assert set(reason.params) >= kind.fields()
    if kind.rule is not None:
        assert kind.rule in kind.text, f"{reason.code}: the English names its ruling"


KINDS = ("card", "cards", "seat", "seats", "suit", "reason", "items", "count", "text")
"""Every kind of parameter a page and the terminal word alike."""


def test_every_template_names_its_parameters_by_kind_and_cites_a_ruling_it_names() -> None:
    for info in games():  # every game's templates: its refusals, and its notes on what an offered action does
        load_presentation(info)
    for code, kind in templates().items():
        game = code.split(".")[0]
        assert game and code.count(".") == 1, code
        for name in kind.fields():
            assert kind_of(name) in KINDS, (code, name)
        if kind.count is not None:
            assert kind_of(kind.count) == "count" or kind.count == "n", (code, kind.count)


def test_a_reason_survives_a_copy_to_another_process_and_reads_as_json() -> None:
    reason = next(r for r in map(reason_of, MET.values()) if r is not None)  # type: ignore[arg-type]
    again = pickle.loads(pickle.dumps(reason))
    assert isinstance(again, Reason) and again == reason and again.code == reason.code
    assert again.params == reason.params
    data = json.loads(json.dumps(reason.to_json()))
    assert data["code"] == reason.code and data["rule"] == reason.rule


def test_a_reason_made_again_is_the_one_made_before_only_for_the_same_values_of_the_same_kind() -> None:
    """Reasons are kept once made (a table's update makes the same few sentences for every seat): the same template
    with the same parameters gives the same reason, but never one whose parameters are only equal (``True`` and
    ``1``, a nested reason and a plain string of the same words), which may be written otherwise. (The templates are
    made here without registering them, so that no other test meets them among the game's.)"""
    kind = Template("tests.kept_seat", "{seat} holds {cards}")
    first = Reason(kind, seat=1, cards=("AS", "KH"))
    assert Reason(kind, seat=1, cards=("AS", "KH")) is first
    assert str(first) == "1 holds AS KH" and first.params == {"seat": 1, "cards": ("AS", "KH")}
    flag = Reason(kind, seat=True, cards=("AS",))
    assert str(flag) == "True holds AS" and type(flag.params["seat"]) is bool
    assert str(Reason(kind, seat=1, cards=("AS",))) == "1 holds AS"
    inner = Template("tests.kept_inner", "a hand")
    nested = Reason(Template("tests.kept_outer", "{items}"), items=(Reason(inner), Reason(inner)))
    plain = Reason(Template("tests.kept_outer", "{items}"), items=("a hand", "a hand"))
    assert str(nested) == "a hand, a hand" and str(plain) == "a hand a hand"
    assert nested.to_json() != plain.to_json()
    assert Reason(kind, seat=2, cards=("QD",)) is not Reason(kind, seat=3, cards=("QD",))
    with pytest.raises(TypeError, match="needs cards"):
        Reason(kind, seat=1)
