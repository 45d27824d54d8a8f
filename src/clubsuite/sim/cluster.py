"""Simulation on a Dask cluster (the optional extra ``dask``): the run cut into parts, each part played by
:func:`clubsuite.sim.parts.simulate_part` on a worker, the parts merged into exactly the result one process gives.

With a scheduler address (``tcp://host:8786``) the parts go to that cluster, whose workers must have this package
installed (the same version). Without one a local cluster of ``workers`` processes is started on the loopback
interface for the run and closed after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clubsuite.errors import InvalidOptionsError
from clubsuite.sim.parts import SimPart, merge_parts, simulate_part
from clubsuite.sim.running import ProgressCallback, play_matches
from clubsuite.sim.stats import SimResult

PARTS_PER_WORKER = 4
"""How many parts each worker thread gets, so that uneven parts even out."""
CONNECT_SECONDS = 10
"""How long to wait for a scheduler to answer."""


def _dask() -> Any:
    """The ``distributed`` module, or a clear refusal when the extra is not installed."""
    try:
        import distributed
    except ImportError:
        raise InvalidOptionsError(
            "--backend dask needs Dask's distributed scheduler: pip install 'clubsuite[dask]'"
        ) from None
    return distributed


def simulate_on_dask(
    spec: str,
    bots: Sequence[str],
    matches: int,
    seed: int,
    scheduler: str | None = None,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    hand_facts: bool = False,
    duplicate: bool = False,
    timing: bool = False,
    connect_seconds: float = CONNECT_SECONDS,
) -> SimResult:
    """The result of :func:`clubsuite.sim.simulate` with the same arguments, its matches played on a Dask cluster
    (the one at ``scheduler``, or a local one of ``workers`` processes); a scheduler that does not answer within
    ``connect_seconds`` is refused with its address."""
    play_matches(spec, bots, matches, seed, range(0), hand_facts=hand_facts)  # checks every input first
    if workers < 1:
        raise InvalidOptionsError(f"workers={workers}: at least 1 worker process is needed")
    distributed = _dask()
    cluster = None
    if scheduler is None:
        cluster = distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",
        )
        address = cluster.scheduler_address
    else:
        address = scheduler
    try:
        try:
            client = distributed.Client(address, timeout=connect_seconds)
        except OSError as exc:
            raise InvalidOptionsError(f"--scheduler {address}: no Dask scheduler answers there ({exc})") from None
        with client:
            threads = max(1, sum(client.nthreads().values()))
            parts = max(1, min(matches, threads * PARTS_PER_WORKER))
            futures = [
                client.submit(
                    simulate_part,
                    spec,
                    tuple(bots),
                    matches,
                    seed,
                    part,
                    parts,
                    hand_facts=hand_facts,
                    duplicate=duplicate,
                    timing=timing,
                    pure=False,
                )
                for part in range(1, parts + 1)
            ]
            done: list[SimPart] = []
            finished = 0
            for future in distributed.as_completed(futures):
                part: SimPart = future.result()
                done.append(part)
                finished += len(part.outcomes)
                if progress is not None:
                    progress(finished, matches)
    finally:
        if cluster is not None:
            cluster.close()
    return merge_parts([(f"part {p.part}", p) for p in done])
