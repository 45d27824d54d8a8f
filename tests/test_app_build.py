"""``clubs app build``: Pyodide taken only as the pinned files (from a folder, a tarball, the cache or a registry),
a file that is not the pinned one refused by name, the build made again byte for byte, everything it needs listed
for the service worker, and a folder that is not the app's never overwritten."""

from __future__ import annotations

import http.server
import io
import json
import tarfile
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_helpers import clubs_in_process
from clubsuite.app import build, runtime

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / "node_modules" / "pyodide"


@pytest.fixture(scope="module")
def pyodide() -> dict[str, bytes]:
    """The pinned files, from the folder ``npm ci`` installs."""
    if not PYODIDE.is_dir():
        pytest.fail("node_modules/pyodide is missing: npm ci (make typecheck) installs it")
    return runtime.from_folder(PYODIDE)


def tarball(files: dict[str, bytes], extra: dict[str, bytes] | None = None) -> bytes:
    """A tarball laid out as the npm package's (``package/NAME``)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, data in {**files, **(extra or {})}.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


@pytest.fixture
def registry(pyodide: dict[str, bytes]) -> Iterator[tuple[str, list[str]]]:
    """A loopback stand-in for the npm registry serving the package's tarball; its address and the paths asked."""
    body = tarball(pyodide, {"README.md": b"not needed"})
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            asked.append(self.path)
            self.send_response(200)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/pyodide.tgz", asked
    finally:
        server.shutdown()
        server.server_close()


def test_pyodide_is_read_from_a_folder_a_tarball_or_the_registry_and_then_kept_in_the_cache(
    pyodide: dict[str, bytes], registry: tuple[str, list[str]], tmp_path: Path
) -> None:
    assert set(pyodide) == set(runtime.FILES)
    packed = tmp_path / "pyodide.tgz"
    packed.write_bytes(tarball(pyodide))
    assert runtime.obtain(packed, url=None) == pyodide
    cache = tmp_path / "cache"
    with pytest.raises(runtime.RuntimeMissingError, match="clubs app fetch"):
        runtime.obtain(None, url=None, cache=cache)  # nothing cached, no download allowed
    url, asked = registry
    assert runtime.obtain(None, url=url, cache=cache) == pyodide and asked == ["/pyodide.tgz"]
    assert sorted(p.name for p in cache.iterdir()) == sorted(runtime.FILES)  # only the pinned files are kept
    assert runtime.obtain(None, url=url, cache=cache) == pyodide and len(asked) == 1  # the cache, not the registry


def test_a_pyodide_file_that_is_not_the_pinned_one_is_refused_by_name(
    pyodide: dict[str, bytes], tmp_path: Path
) -> None:
    forged = {**pyodide, "python_stdlib.zip": pyodide["python_stdlib.zip"] + b"\0"}
    packed = tmp_path / "forged.tgz"
    packed.write_bytes(tarball(forged))
    with pytest.raises(runtime.RuntimeMissingError, match=r"python_stdlib\.zip is not Pyodide"):
        runtime.obtain(packed, url=None)
    folder = tmp_path / "folder"
    runtime.store(forged, folder)
    with pytest.raises(runtime.RuntimeMissingError, match=r"python_stdlib\.zip is not Pyodide"):
        runtime.obtain(folder, url=None)
    (folder / "pyodide.mjs").unlink()
    with pytest.raises(runtime.RuntimeMissingError, match=r"pyodide\.mjs is missing"):
        runtime.obtain(folder, url=None)
    short = tmp_path / "short.tgz"
    short.write_bytes(tarball({k: v for k, v in pyodide.items() if k != "pyodide.asm.wasm"}))
    with pytest.raises(runtime.RuntimeMissingError, match=r"lacks pyodide\.asm\.wasm"):
        runtime.obtain(short, url=None)
    junk = tmp_path / "junk.tgz"
    junk.write_bytes(b"not a tarball")
    with pytest.raises(runtime.RuntimeMissingError, match="not a readable npm package tarball"):
        runtime.obtain(junk, url=None)


def test_the_build_is_made_again_byte_for_byte_and_its_service_worker_keeps_every_file(
    pyodide: dict[str, bytes], tmp_path: Path
) -> None:
    first = build.build(tmp_path / "one", pyodide)
    second = build.build(tmp_path / "two", pyodide)
    assert first == second  # the same sources, the same build: an update fetches only what changed
    on_disk = sorted(p.relative_to(tmp_path / "one").as_posix() for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert on_disk == sorted([*first["files"], "build.json"])  # type: ignore[list-item]
    worker = (tmp_path / "one" / "sw.js").read_text(encoding="utf-8")
    kept = json.loads(worker.split("const FILES = ", 1)[1].split(" /* __FILES__ */", 1)[0].split(";", 1)[0])
    assert kept == {p: h for p, h in first["files"].items() if p != "sw.js"}  # type: ignore[union-attr]
    assert json.dumps(first["build"]) in worker
    with zipfile.ZipFile(tmp_path / "one" / "core" / "clubsuite.zip") as z:
        names = z.namelist()
    assert "clubsuite/offline/session.py" in names and "clubsuite/tabletalk.py" in names
    assert not [n for n in names if n.split("/")[1] in build.OUTSIDE_CORE and n.count("/") > 1]  # no server, no NumPy
    manifest = json.loads((tmp_path / "one" / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"} and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (tmp_path / "one" / icon["src"]).is_file()


def test_a_folder_that_is_not_the_apps_is_never_written_over(pyodide: dict[str, bytes], tmp_path: Path) -> None:
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    with pytest.raises(build.BuildError, match="holds other files"):
        build.build(other, pyodide)
    assert [p.name for p in other.iterdir()] == ["notes.txt"]
    a_file = tmp_path / "file"
    a_file.write_text("x")
    with pytest.raises(build.BuildError, match="is a file"):
        build.build(a_file, pyodide)
    again = tmp_path / "again"
    build.build(again, pyodide)
    (again / "index.html").write_text("changed")  # an earlier build, changed: made whole again
    (again / "CNAME").write_text("clubs.example.org")  # a host's own files beside the app stay
    (again / ".git").mkdir()
    (again / ".git" / "HEAD").write_text("ref: refs/heads/main")
    listed = json.loads((again / "build.json").read_text(encoding="utf-8"))
    listed["files"]["gone/old.js"] = "0" * 64  # a file the earlier build had and this one has not: removed
    (again / "gone").mkdir()
    (again / "gone" / "old.js").write_text("old")
    (again / "build.json").write_text(json.dumps(listed))
    build.build(again, pyodide)
    assert "data-app" in (again / "index.html").read_text(encoding="utf-8")
    assert (again / "CNAME").read_text() == "clubs.example.org" and (again / ".git" / "HEAD").is_file()
    assert not (again / "gone").exists()
    lying = tmp_path / "lying"
    lying.mkdir()
    (lying / "build.json").write_text("{}")  # a build.json that is not one of ours: the folder is not the app's
    (lying / "notes.txt").write_text("keep me")
    with pytest.raises(build.BuildError, match="holds other files"):
        build.build(lying, pyodide)
    assert (lying / "notes.txt").read_text() == "keep me"


def test_clubs_app_build_says_what_is_wrong_and_exits_2(tmp_path: Path) -> None:
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me")
    outcome = clubs_in_process(["app", "build", str(other), "--pyodide", str(PYODIDE)])
    assert outcome.status == 2 and "holds other files" in outcome.stderr
    outcome = clubs_in_process(["app", "build", str(tmp_path / "new"), "--pyodide", str(tmp_path / "nowhere")])
    assert outcome.status == 2 and "no such folder or file" in outcome.stderr
    assert "Traceback" not in outcome.stderr


def test_clubs_serve_serves_a_given_app_builds_one_from_the_cache_or_serves_none(
    pyodide: dict[str, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from clubsuite.cli.serve import offline_app

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert offline_app(None, tmp_path / "data") is None  # nothing cached: no app, and nothing downloaded at start
    runtime.store(pyodide, runtime.cache_dir())
    built = offline_app(None, tmp_path / "data")
    assert built == tmp_path / "data" / "app" and (built / "build.json").is_file()
    assert offline_app(str(built), tmp_path / "elsewhere") == built
    with pytest.raises(SystemExit) as stopped:
        offline_app(str(tmp_path / "data"), tmp_path / "data")  # a folder that holds no app
    assert stopped.value.code == 2
