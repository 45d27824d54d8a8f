"""Build of the compiled core: each game's kernel, ``src/clubsuite/games/<game>/_core.pyx`` over its ``core.h`` and
the shared ``src/clubsuite/native/kernel.h``, found by looking (a game is one folder).

The kernels are optional: where one cannot be compiled (no C compiler) the install goes on without it and the
package runs in pure Python, with the same results (see src/clubsuite/native/__init__.py).
"""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

NATIVE = "src/clubsuite/native"


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
                depends=[*map(str, sorted(source.parent.glob("*.h"))), f"{NATIVE}/kernel.h"],
                extra_compile_args=["-O3"],
            )
        )
    return found


extensions = cythonize(kernels(), compiler_directives={"language_level": "3"})
for extension in extensions:
    extension.optional = True  # a failed compile leaves the pure-Python path, with a warning in the install log

setup(ext_modules=extensions)
