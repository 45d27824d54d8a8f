"""Pyodide, the Python the offline app runs in the page: which release, which of its files, and where they come from.

The app serves Pyodide from its own build, never from another site. Its files come from the ``pyodide`` package
of the npm registry, pinned here by version and by each file's SHA-256, and are read from (first that has them):

1. a folder or tarball given (``clubs app build --pyodide PATH``: ``node_modules/pyodide`` after ``npm ci``, or
   the package's ``.tgz``);
2. the cache (``$XDG_CACHE_HOME/clubsuite/pyodide-VERSION``, else ``~/.cache/...``), where an earlier fetch put
   them;
3. the registry itself (``clubs app fetch``, or a build that finds them nowhere else): the tarball is downloaded
   (at most :data:`MAX_TARBALL` bytes), only the pinned files are taken from it, and each must have its pinned
   hash.

A file whose hash differs is refused by name wherever it comes from: the app never runs a Python it was not built
and tested with.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from clubsuite.errors import ClubsError

VERSION = "314.0.7"
"""The Pyodide release (its CPython 3.14): the npm package ``pyodide@314.0.7``."""
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
"""Where the npm registry keeps the release."""
LICENSE = "MPL-2.0"
"""Pyodide's licence (the files are served unchanged; the app's about page names it and where its source is)."""
FILES: Mapping[str, str] = {
    "pyodide.mjs": "6f1d60f7bf529beb300f0f47983c921d3982363640ba20af0e38efdddbc66109",
    "pyodide.asm.mjs": "f7cdc8ece80678ceb712f8e65ebe6d3a83203a180c399865f49612a051693635",
    "pyodide.asm.wasm": "cc36e3cab04fdfc9a63ff13eb52eae2b911bf46c025cc7b281f394bd3de1d5e6",
    "python_stdlib.zip": "fa1957e5777068fc4f7437f96d860ae2fbe9c19732ba06c84e004ec16dd7dd7a",
    "pyodide-lock.json": "5dc2fc119108bc148c7457dc86e7675b5c87e1cafd420b9c34c1eaef7b36c010",
}
"""The files the app needs (the loader, the interpreter, the standard library and the package list it reads at
start), each with its SHA-256."""
MAX_TARBALL = 32 << 20
"""The largest tarball read from the registry (the release's is about 6.5 MB)."""
TIMEOUT = 120.0
"""Seconds a download may wait for the registry."""


class RuntimeMissingError(ClubsError):
    """Pyodide's files cannot be had: none given, none cached, the registry out of reach, or a file that is not the
    pinned one. The message says which and what to do."""


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    """Where fetched files are kept: ``$XDG_CACHE_HOME/clubsuite/pyodide-VERSION`` (``~/.cache`` without it)."""
    env = os.environ if environ is None else environ
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "clubsuite" / f"pyodide-{VERSION}"


def sha256(data: bytes) -> str:
    """The SHA-256 of ``data``, in hex."""
    return hashlib.sha256(data).hexdigest()


def _checked(name: str, data: bytes, where: str) -> bytes:
    """``data`` if it is the pinned file ``name``; refused naming it and where it came from otherwise."""
    if sha256(data) != FILES[name]:
        raise RuntimeMissingError(
            f"{where}: {name} is not Pyodide {VERSION}'s (its SHA-256 differs from the pinned one): "
            f"give the pyodide {VERSION} package of the npm registry"
        )
    return data


def from_folder(folder: Path) -> dict[str, bytes]:
    """The pinned files from an unpacked package (``node_modules/pyodide``), each checked."""
    out: dict[str, bytes] = {}
    for name in FILES:
        path = folder / name
        if not path.is_file():
            raise RuntimeMissingError(f"{folder}: {name} is missing (expected the pyodide {VERSION} package's files)")
        out[name] = _checked(name, path.read_bytes(), str(folder))
    return out


def from_tarball(data: bytes, where: str) -> dict[str, bytes]:
    """The pinned files from the package's tarball (``package/NAME`` in it), each checked; nothing else is read."""
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            for member in tar.getmembers():
                name = member.name.removeprefix("package/")
                if name in FILES and member.isfile() and name not in out:
                    if member.size > MAX_TARBALL:
                        raise RuntimeMissingError(f"{where}: {name} is larger than any Pyodide file")
                    extracted = tar.extractfile(member)
                    assert extracted is not None
                    out[name] = _checked(name, extracted.read(), where)
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise RuntimeMissingError(f"{where} is not a readable npm package tarball ({exc})") from None
    missing = sorted(set(FILES) - set(out))
    if missing:
        raise RuntimeMissingError(f"{where} lacks {', '.join(missing)}: it is not the pyodide {VERSION} package")
    return out


def download(url: str = TARBALL) -> bytes:
    """The tarball at ``url``, at most :data:`MAX_TARBALL` bytes."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            data: bytes = answer.read(MAX_TARBALL + 1)
    except OSError as exc:
        raise RuntimeMissingError(
            f"Pyodide {VERSION} could not be downloaded from {url} ({exc}): give its files with --pyodide PATH "
            f"(node_modules/pyodide after npm ci, or the package's .tgz)"
        ) from None
    if len(data) > MAX_TARBALL:
        raise RuntimeMissingError(f"{url} sent more than {MAX_TARBALL} bytes: not the Pyodide package")
    return data


def store(files: Mapping[str, bytes], folder: Path) -> None:
    """Keep checked files in ``folder`` (written aside and moved in, so a folder is whole or absent)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=folder.parent))
    try:
        for name, data in files.items():
            (temp / name).write_bytes(data)
        if folder.exists():
            shutil.rmtree(folder)
        temp.rename(folder)
    finally:
        if temp.exists():
            shutil.rmtree(temp, ignore_errors=True)


def obtain(given: Path | None = None, url: str | None = TARBALL, cache: Path | None = None) -> dict[str, bytes]:
    """Pyodide's pinned files, from ``given`` (a folder or a ``.tgz``), else the cache, else downloaded from ``url``
    (None: never) and then kept in the cache."""
    if given is not None:
        if given.is_dir():
            return from_folder(given)
        if given.is_file():
            return from_tarball(given.read_bytes(), str(given))
        raise RuntimeMissingError(f"--pyodide {given}: no such folder or file")
    folder = cache if cache is not None else cache_dir()
    if all((folder / name).is_file() for name in FILES):
        return from_folder(folder)
    if url is None:
        raise RuntimeMissingError(
            f"Pyodide {VERSION} is not in {folder}: run clubs app fetch (it downloads it from the npm registry)"
        )
    files = from_tarball(download(url), url)
    store(files, folder)
    return files
