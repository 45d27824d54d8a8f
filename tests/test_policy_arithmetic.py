"""A policy network's arithmetic (:mod:`clubsuite.bots.policy_arith`, ``native/policy.h``): scores summed in a fixed
order are the same bits in any batch and on either path, and the pruned search finds the action that scoring every
prefix finds, ties going to the lowest id sequence: the learned bot's choice, wherever it is computed."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubsuite.bots.learned import _policy, shipped
from clubsuite.bots.policy import PolicyBot, log_probabilities, prepared
from clubsuite.bots.policy_arith import flushed, likeliest, log_probabilities_of, ordered_scores
from native_helpers import kernel_or_skip

POLICY = "clubsuite.native._policy"
Layers = list[tuple[Any, Any]]


def _network(widths: list[int], seed: int) -> Layers:
    """Float32 layers of these widths whose weights take every kind of value a trained network has: zeros, tiny and
    large numbers of both signs."""
    rng = np.random.default_rng(seed)
    layers = []
    count = len(widths) - 1
    for k in range(count):
        w = rng.normal(0, 1, (widths[k], widths[k + 1])).astype(np.float32)
        w[rng.random(w.shape) < 0.2] = 0.0
        w[rng.random(w.shape) < 0.05] *= np.float32(1e-30)
        b = rng.normal(0, 1, widths[k + 1]).astype(np.float32)
        layers.append((w, b))
    return layers


@st.composite
def networks(draw: st.DrawFn, inputs: int | None = None, outputs: int | None = None) -> Layers:
    """A small network (:func:`_network`) of one to three layers."""
    count = draw(st.integers(1, 3))
    widths = [inputs or draw(st.integers(1, 40))]
    widths += [draw(st.integers(1, 40)) for _ in range(count - 1)]
    widths.append(outputs or draw(st.integers(1, 12)))
    return _network(widths, draw(st.integers(0, 2**32 - 1)))


def _rows(layers: Layers, count: int, seed: int) -> Any:
    """Observations like the environments' (mostly zeros, ones, and a few fractions of either sign)."""
    rng = np.random.default_rng(seed)
    x = (rng.random((count, layers[0][0].shape[0])) < 0.3).astype(np.float32)
    x[rng.random(x.shape) < 0.1] = rng.uniform(-2, 2)
    return x


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(networks(), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_scores_summed_in_order_are_the_same_bits_in_c_and_numpy_and_in_any_batch(
    layers: Layers, count: int, seed: int
) -> None:
    net = kernel_or_skip(POLICY).Net(layers)
    x = _rows(layers, count, seed)
    whole = net.scores(x)
    assert whole.view(np.uint32).tolist() == ordered_scores(layers, x).view(np.uint32).tolist()
    order = np.random.default_rng(seed).permutation(count)
    assert net.scores(x[order]).view(np.uint32).tolist() == whole[order].view(np.uint32).tolist()
    for i in range(count):
        assert net.scores(x[i : i + 1])[0].view(np.uint32).tolist() == whole[i].view(np.uint32).tolist()


def test_a_numpy_row_in_a_batch_of_any_size_has_the_scores_it_has_alone() -> None:
    """The fallback groups rows to bound its memory: a row's scores do not depend on its group."""
    layers = _network([300, 64, 20], 11)
    x = _rows(layers, 700, 3)
    alone = np.concatenate([ordered_scores(layers, x[i : i + 1]) for i in range(0, 700, 97)])
    assert np.array_equal(ordered_scores(layers, x)[::97], alone)


def test_a_subnormal_weight_is_read_as_zero_and_every_other_number_as_it_is() -> None:
    values = np.array([1e-40, -1e-45, 1.2e-38, -3.0, 0.0, np.finfo(np.float32).tiny], np.float32)
    assert flushed(values).tolist() == [0.0, 0.0, values[2], -3.0, 0.0, values[5]]


@st.composite
def decisions(draw: st.DrawFn) -> tuple[Layers, Any, int, list[tuple[int, ...]]]:
    """A network, an observation with a `picked` slot at its end, and legal actions spelled as prefix-free id
    sequences (some not in increasing order, some sharing prefixes)."""
    ids = draw(st.integers(2, 10))
    base = draw(st.integers(1, 20))
    layers = draw(networks(inputs=base + ids, outputs=ids))
    depth = draw(st.integers(1, 4))
    sequences = draw(
        st.sets(st.lists(st.integers(0, ids - 1), min_size=1, max_size=depth).map(tuple), min_size=1, max_size=25)
    )
    spelled = sorted(sequences)
    prefix_free = [s for s in spelled if not any(t != s and t[: len(s)] == s for t in spelled)]
    shuffled = draw(st.permutations(prefix_free))
    observation = _rows(layers, 1, draw(st.integers(0, 2**32 - 1)))[0]
    observation[base:] = 0.0
    return layers, observation, base, list(shuffled)


def _likeliest_by_scoring_everything(layers: Layers, observation: Any, picked: int, spelled: list[Any]) -> int:
    """The likeliest action from every prefix scored (the statement the search must agree with)."""
    prefixes = sorted({seq[:d] for seq in spelled for d in range(len(seq))})
    block = np.repeat(observation[None, :], len(prefixes), axis=0)
    for r, prefix in enumerate(prefixes):
        block[r, [picked + i for i in prefix]] = 1.0
    scores = ordered_scores(layers, block).astype(np.float64)
    logp = log_probabilities_of(scores, {p: r for r, p in enumerate(prefixes)}, spelled)
    order = sorted(range(len(spelled)), key=lambda a: spelled[a])
    best = order[0]
    for a in order[1:]:
        if logp[a] > logp[best]:
            best = a
    return best


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(decisions())
def test_the_pruned_search_finds_the_action_scoring_every_prefix_finds_in_c_and_python(
    decision: tuple[Layers, Any, int, list[tuple[int, ...]]],
) -> None:
    layers, observation, picked, spelled = decision
    expected = _likeliest_by_scoring_everything(layers, observation, picked, spelled)
    assert likeliest(lambda x: ordered_scores(layers, x), observation, picked, spelled) == expected
    assert kernel_or_skip(POLICY).Net(layers).choose(observation, picked, spelled) == expected


def test_equal_likelihoods_go_to_the_lowest_id_sequence() -> None:
    """A network that scores every id alike: every action of one length is as likely, and the first in id order is
    chosen, whatever order the legal list gives."""
    layers = [(np.zeros((8, 4), np.float32), np.zeros(4, np.float32))]
    observation = np.zeros(8, np.float32)
    spelled = [(3, 1), (2, 0), (2, 1), (3, 0)]
    assert likeliest(lambda x: ordered_scores(layers, x), observation, 4, spelled) == 1
    assert kernel_or_skip(POLICY).Net(layers).choose(observation, 4, spelled) == 1


@pytest.mark.parametrize("game", ["whist", "northstar", "free", "partnership"])
def test_the_learned_bot_plays_the_likeliest_action_of_its_shipped_policy(game: str) -> None:
    """At real decisions (a match of heuristic bots), the learned bot's move is the action of the highest joint
    log-probability over every prefix scored, compiled or not."""
    import random

    from clubsuite.bots.base import make_bot
    from clubsuite.engine import resolve
    from clubsuite.runner import deal_next

    env_id, spec = shipped(game)[0]
    policy = _policy(env_id, spec)
    info, options = resolve(spec)
    bot, other = PolicyBot(policy, "learned"), make_bot("heuristic", info.name)
    match, rng, checked = info.new_match(options, 0), random.Random(5), 0
    deal_next(match, info, 5)
    for turn in itertools.count():
        if match.is_over or checked >= 40:
            break
        if match.to_act is None:
            deal_next(match, info, 5 + turn)
            continue
        view, legal = match.view(match.to_act), list(match.legal_actions())
        if len(legal) > 1:
            decision = prepared(policy, view, legal)
            logp = log_probabilities(policy, [decision])[0]
            order = sorted(range(len(legal)), key=lambda a: decision.spelled[a])
            best = order[0]
            for a in order[1:]:
                if logp[a] > logp[best]:
                    best = a
            assert bot.choose(view, legal, rng) == legal[best]
            picked = policy.layout.offsets["picked"]
            assert likeliest(policy.scores, decision.observation, picked, decision.spelled) == best
            checked += 1
        match.apply(other.choose(view, match.legal_actions(), rng))
    assert checked >= 20


def test_the_compiled_search_refuses_what_it_cannot_hold_naming_it() -> None:
    net = kernel_or_skip(POLICY).Net([(np.zeros((6, 3), np.float32), np.zeros(3, np.float32))])
    with pytest.raises(ValueError, match="no actions"):
        net.choose(np.zeros(6, np.float32), 3, [])
    with pytest.raises(ValueError, match="an action spelled"):
        net.choose(np.zeros(6, np.float32), 3, [(3,)])
    with pytest.raises(ValueError, match="an observation of 6 values"):
        net.choose(np.zeros(5, np.float32), 3, [(1,)])
    with pytest.raises(ValueError, match="picked"):
        net.choose(np.zeros(6, np.float32), 4, [(1,)])
    with pytest.raises(ValueError, match="its picked slot must hold nothing"):
        net.choose(np.ones(6, np.float32), 3, [(1,)])
    with pytest.raises(ValueError, match="observations of 6 values"):
        net.scores(np.zeros((2, 5), np.float32))
