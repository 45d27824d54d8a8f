"""Build of the compiled core: the shared exact solver (``src/clubsuite/native/_solver.pyx`` over ``solve.h``), the
card sets' indexing (``src/clubsuite/native/_cards.pyx``), a policy network's scores (``_policy.pyx`` over
``policy.h``) and
each game's kernel, ``src/clubsuite/games/<game>/_core.pyx`` over its ``core.h`` and the shared
``src/clubsuite/native/kernel.h``, found by looking (a game is one folder).

The kernels are optional: where one cannot be compiled (no C compiler) the install goes on without it and the
package runs in pure Python, with the same results (see src/clubsuite/native/__init__.py). ``CLUBS_NO_COMPILE=1``
builds none at all: a pure-Python package in seconds (the tests' check of an install without extras builds one).
"""

import os
from pathlib import Path

from setuptools import Extension, setup

NATIVE = "src/clubsuite/native"
COMPILE_ARGS = ["-O3", "-ffp-contract=off", "-g0"]
"""Optimised, but every floating-point operation rounded on its own as CPython rounds it: fused multiply-adds (the
default where the target has them) would change the heuristic kernels' figures in the last bit and with them, now
and then, a choice. No debugging information (``-g0`` over the ``-g`` of Python's own flags): the same machine
code, compiled in about two thirds of the time (Cython's C files run to megabytes)."""


SHARED_SOURCES = [
    f"{NATIVE}/kernel.h",
    f"{NATIVE}/vector_tables.pxi",
    f"{NATIVE}/vector_episode.h",
    f"{NATIVE}/compiled_hand.pxi",
    f"{NATIVE}/compiled_match.pxi",
    f"{NATIVE}/generator_state.pxi",
    f"{NATIVE}/policy.h",
    f"{NATIVE}/vector_kinds.h",
]
"""What every game's kernel is built from besides its own folder (a change rebuilds them all)."""


def _own_sources(folder: Path) -> list[Path]:
    """A game folder's C headers and Cython includes (its kernel is rebuilt when one changes)."""
    return [*folder.glob("*.h"), *folder.glob("*.pxi")]


def kernels() -> list[Extension]:
    """One extension per game folder holding a ``_core.pyx``."""
    found = []
    for source in sorted(Path("src/clubsuite/games").glob("*/_core.pyx")):
        folder = source.parent.as_posix()
        found.append(
            Extension(
                f"clubsuite.games.{source.parent.name}._core",
                [source.as_posix()],
                include_dirs=[folder, NATIVE],
                depends=[*map(str, sorted(_own_sources(source.parent))), *SHARED_SOURCES],
                extra_compile_args=COMPILE_ARGS,
            )
        )
    return found


def shared() -> list[Extension]:
    """The kernels every game may use: the exact solver (``native/solve.h``), the card sets' indexing and a policy
    network's scores (``native/policy.h``)."""
    return [
        Extension(
            "clubsuite.native._cards",
            [f"{NATIVE}/_cards.pyx"],
            extra_compile_args=COMPILE_ARGS,
        ),
        Extension(
            "clubsuite.native._solver",
            [f"{NATIVE}/_solver.pyx"],
            include_dirs=[NATIVE],
            depends=[f"{NATIVE}/solve.h"],
            extra_compile_args=COMPILE_ARGS,
        ),
        Extension(
            "clubsuite.native._policy",
            [f"{NATIVE}/_policy.pyx"],
            include_dirs=[NATIVE],
            depends=[f"{NATIVE}/policy.h"],
            extra_compile_args=COMPILE_ARGS,
        ),
    ]


JOBS = os.cpu_count() or 1
"""Kernels cythonized and compiled side by side, one per core (a clean set-up's longest step when one at a time)."""


def compiled() -> list[Extension]:
    """Every kernel, cythonized (none where ``CLUBS_NO_COMPILE=1``)."""
    if os.environ.get("CLUBS_NO_COMPILE") == "1":
        return []
    from Cython.Build import cythonize

    # include_path: the glue every game's vector tables share (native/vector_tables.pxi, ``include``d by _core.pyx).
    extensions: list[Extension] = cythonize(
        shared() + kernels(), compiler_directives={"language_level": "3"}, include_path=[NATIVE], nthreads=JOBS
    )
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the pure-Python path, with a warning in the install log
    # the longest compiles first (the largest C files Cython wrote): with one per core, the last to start is a short
    # one, not a game's kernel compiled alone at the end while the other cores wait
    extensions.sort(key=lambda e: -sum(os.path.getsize(s) for s in e.sources if os.path.exists(s)))
    return extensions


setup(ext_modules=compiled(), options={"build_ext": {"parallel": JOBS}})
