"""Simulation on a Dask cluster (the optional extra ``dask``): the run cut into parts, each part played by
:func:`clubsuite.sim.parts.simulate_part` on a worker, the parts merged into exactly the result one process gives.

With a scheduler address (``tcp://host:8786``) the parts go to that cluster, whose workers must have this package
installed (the same version). Without one a local cluster of ``workers`` processes is started on the loopback
interface for the run and closed after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from types import TracebackType
from typing import Protocol, Self, TypeVar

from clubsuite.errors import InvalidOptionsError
from clubsuite.sim.parts import SimPart, merge_parts, simulate_part
from clubsuite.sim.running import ProgressCallback, play_matches
from clubsuite.sim.stats import SimResult

PARTS_PER_WORKER = 4
"""How many parts each worker thread gets, so that uneven parts even out."""
CONNECT_SECONDS = 10
"""How long to wait for a scheduler to answer."""


T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class _Future(Protocol[T_co]):
    """A task submitted to the cluster, as :func:`simulate_on_dask` waits on it."""

    def result(self) -> T_co: ...


class _Client(Protocol):
    """A connection to a Dask scheduler, as :func:`simulate_on_dask` uses it (``distributed`` types it only in
    part: its calls are untyped, so this names what the run relies on)."""

    def __enter__(self) -> Self: ...

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> object: ...

    def nthreads(self) -> Mapping[str, int]: ...

    def submit(
        self, func: Callable[..., T], /, *args: object, hand_facts: bool, duplicate: bool, timing: bool, pure: bool
    ) -> _Future[T]: ...


class _Cluster(Protocol):
    """A local cluster started for the run."""

    @property
    def scheduler_address(self) -> str: ...

    def close(self) -> object: ...


class _Distributed(Protocol):
    """The ``distributed`` module, as far as :func:`simulate_on_dask` uses it."""

    def LocalCluster(  # noqa: N802  # the module's class, called to start a cluster
        self, *, n_workers: int, threads_per_worker: int, processes: bool, host: str, dashboard_address: str
    ) -> _Cluster: ...

    def Client(self, address: str, *, timeout: float) -> _Client: ...  # noqa: N802  # the module's class

    def as_completed(self, futures: Iterable[_Future[T]]) -> Iterator[_Future[T]]: ...


def _dask() -> _Distributed:
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
    cluster: _Cluster | None = None
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
                part = future.result()
                done.append(part)
                finished += len(part.outcomes)
                if progress is not None:
                    progress(finished, matches)
    finally:
        if cluster is not None:
            cluster.close()
    return merge_parts([(f"part {p.part}", p) for p in done])
