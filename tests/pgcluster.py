"""A throwaway PostgreSQL server for the storage tests: made in a temporary directory, on a free loopback port,
stopped and removed at the end.

PostgreSQL's server binaries are found on the PATH or in the usual Debian place (``/usr/lib/postgresql/N/bin``);
``initdb`` refuses to run as root, so as root the cluster is made and run by the ``postgres`` user.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def server_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or None when PostgreSQL's server is not installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    """A TCP port nobody listens on now, on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One running PostgreSQL server, owned by the tests."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="clubs-pg-"))
        self.data = self.root / "data"
        self._count = 0
        self.as_root = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = [str(self.binaries / args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> Cluster:
        """Make the cluster and start the server (fsync off: the data is thrown away)."""
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} -c fsync=off -c max_connections=50"
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "-t", "60", "start"
        )
        return self

    def new_database(self) -> str:
        """A new empty database on the server: its URL."""
        import psycopg

        self._count += 1
        name = f"clubs_test_{self._count}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name}")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def copy_of(self, template_url: str) -> str:
        """A new database that is a copy of the database at ``template_url`` (on this server, with no connection
        open to it): its URL. PostgreSQL copies the template's files (``STRATEGY FILE_COPY``), a fraction of the time
        its migrations took to make it."""
        import psycopg

        self._count += 1
        name = f"clubs_test_{self._count}"
        template = template_url.rsplit("/", 1)[1]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True) as c:
            c.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server at once and remove everything."""
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
