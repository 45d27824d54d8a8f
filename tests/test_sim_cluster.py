"""Simulation on a Dask cluster, on the loopback interface: the same result as one process, through a local cluster
the command starts and through a scheduler given by its address."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from distributed import LocalCluster

from cli_helpers import clubs_in_process
from clubsuite.errors import InvalidOptionsError
from clubsuite.sim import build_report, simulate
from clubsuite.sim.cluster import simulate_on_dask

pytestmark = pytest.mark.long
"""Every test here plays bots or searches for many seconds in all: ``make test`` runs them, ``make check`` not."""


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A Dask scheduler with two worker processes on the loopback interface, for this module's tests."""
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
    ) as cluster:
        yield str(cluster.scheduler_address)


def test_a_run_on_a_scheduler_gives_exactly_the_result_of_one_process(scheduler: str) -> None:
    for spec, bots, matches in (
        ("whist", ("heuristic", "random", "random"), 13),
        ("partnership", ("heuristic", "random"), 9),
    ):
        one = simulate(spec, bots, matches, seed=6, duplicate=True)
        assert simulate_on_dask(spec, bots, matches, 6, scheduler=scheduler, duplicate=True) == one


def test_a_balance_report_from_a_cluster_is_the_report_of_one_process(scheduler: str) -> None:
    bots = ("heuristic", "random", "random")
    one = simulate("free", bots, 7, seed=2, hand_facts=True)
    many = simulate_on_dask("free", bots, 7, 2, scheduler=scheduler, hand_facts=True)
    assert build_report(many).to_json() == build_report(one).to_json()


def test_clubs_simulate_with_the_dask_backend_prints_what_one_process_prints() -> None:
    args = ["simulate", "whist", "--matches", "8", "--seed", "4", "--json"]
    local = clubs_in_process(args)
    dask = clubs_in_process([*args, "--backend", "dask", "--workers", "2"])
    assert local.status == 0 and dask.status == 0, dask.stderr
    assert json.loads(dask.stdout) == json.loads(local.stdout)


def test_a_scheduler_that_does_not_answer_is_refused_naming_it() -> None:
    with pytest.raises(InvalidOptionsError, match=r"tcp://127\.0\.0\.1:9: no Dask scheduler answers there"):
        simulate_on_dask("whist", ("random",) * 3, 3, 0, scheduler="tcp://127.0.0.1:9", connect_seconds=1)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scheduler", "tcp://127.0.0.1:9"], "a scheduler is for --backend dask"),
        (["--backend", "dask", "--shard", "1/2", "--out", "p.json"], "--shard and --out are for running the parts"),
        (["--backend", "cloud"], "Invalid value for '--backend'"),
    ],
)
def test_bad_backend_arguments_are_refused(args: list[str], message: str) -> None:
    out = clubs_in_process(["simulate", "whist", "--matches", "2", *args])
    assert out.status == 2 and message in out.stderr
