"""Record files: reading JSON safely and within a size limit, and writing a record so that a crash never leaves
half of one.

Reading refuses what could make it wait or grow without end: anything but a regular file or standard input (a
named pipe, a device such as ``/dev/zero``) is refused before a byte is read, and no more than a limit of bytes
(:data:`MAX_RECORD_BYTES` unless given) is ever read, so memory stays proportional to the limit. Writing goes to
a temporary file in the same folder, flushed to the disk and then renamed over the target: the target holds its
old content or the whole new record, never a part, and a symbolic link at the target is refused rather than
followed.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from clubsuite.errors import InvalidRecordError
from clubsuite.jsonform import JsonObject, JsonValue
from clubsuite.records.format import MAX_DEPTH, MAX_DIGITS, check_record
from clubsuite.safetext import json_escaped, quoted, shown

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""The default size limit of a record read from a file or standard input: 16 MiB, far above any real match (a whole
match with every deal written out is 10 to 30 KB) and small enough that reading and replaying a record at the limit
stays under 500 MB of memory whatever its shape (JSON of millions of empty lists or objects is the costliest)."""

PATH_SHOWN = 200
"""The most characters of a file name quoted in a message."""


class _ParseError(Exception):
    """Raised from inside the JSON reader's hooks; :func:`loads_record` turns it into an InvalidRecordError."""


def _no_duplicates(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    """Build a JSON object, refusing a repeated key (the plain reader would keep the last one silently)."""
    obj: JsonObject = {}
    for key, value in pairs:
        if key in obj:
            raise _ParseError(f"the field {quoted(key)} appears twice in one object")
        obj[key] = value
    return obj


def _no_constants(name: str) -> JsonValue:
    """Refuse NaN and Infinity, which Python's reader accepts but JSON does not have."""
    raise _ParseError(f"{name} is not a JSON number; only standard JSON is read")


def _parse_int(text: str) -> int:
    """Read a whole number, refusing one longer than MAX_DIGITS (Python would raise a bare ValueError)."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _ParseError(
            f"it holds a whole number of {digits} digits ({text[:12]}...); numbers in a record have at most "
            f"{MAX_DIGITS} digits"
        )
    try:
        return int(text)
    except ValueError:  # a limit set lower with sys.set_int_max_str_digits
        raise _ParseError(f"it holds a whole number of {digits} digits, too long to read here") from None


def _parse_float(text: str) -> float:
    """Read a number with a fraction or an exponent, refusing one too large for a float (Python would make it
    infinite, which JSON cannot write back)."""
    value = float(text)
    if not math.isfinite(value):
        raise _ParseError(f"it holds the number {shown(text, 24)}, too large to be read exactly")
    return value


def _position(text: str | bytes, index: int) -> str:
    """``line L, column C`` of a character (or byte) index, counted from 1 as the JSON reader's messages do."""
    if isinstance(text, bytes):
        line, start = text.count(b"\n", 0, index) + 1, text.rfind(b"\n", 0, index)
    else:
        line, start = text.count("\n", 0, index) + 1, text.rfind("\n", 0, index)
    return f"line {line}, column {index - start}"


def _decode(data: str | bytes, source: str) -> str:
    """The text of a record: bytes decoded as UTF-8 and a leading byte order mark dropped (``utf-8-sig``).

    Text read elsewhere with the ``surrogateescape`` error handler (as Python reads standard input in some
    locales) holds lone surrogates where its bytes were not UTF-8; those are refused the same way.
    """
    if isinstance(data, bytes):
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise InvalidRecordError(
                f"{source} is not UTF-8 text: the byte 0x{data[exc.start]:02x} at {_position(data, exc.start)} "
                "cannot start or continue a UTF-8 character"
            ) from None
    text = data.removeprefix("\ufeff")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidRecordError(
            f"{source} is not UTF-8 text: at {_position(text, exc.start)} there is a byte that is not UTF-8 "
            "(or a lone surrogate)"
        ) from None
    return text


def parse_record(text: str | bytes, source: str = "the record") -> JsonValue:
    """Read JSON text (or UTF-8 bytes) as a record would be read, without checking the record's fields.

    Refuses what no record holds: text that is not UTF-8, a repeated key, NaN or Infinity, a number too long or
    too large, nesting beyond :data:`MAX_DEPTH`. Every problem, however odd the input, is an InvalidRecordError
    naming ``source``. The replayer checks the fields itself, hand by hand as it replays them. The server reads
    every JSON a stranger sends (a request body, a WebSocket message) the same way: standard JSON only, bounded.
    """
    decoded = _decode(text, source)
    try:
        record = json.loads(
            decoded,
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constants,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(
            f"{source} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    except _ParseError as exc:
        raise InvalidRecordError(f"{source} cannot be read: {exc}") from None
    except RecursionError:
        raise InvalidRecordError(
            f"{source} cannot be read: lists and objects are nested in one another far more than the {MAX_DEPTH} "
            "levels a record may have"
        ) from None
    return record


def loads_record(text: str | bytes, source: str = "the record") -> JsonObject:
    """Read a record from JSON text (or UTF-8 bytes) and check its shape; ``source`` names it in error messages.

    A leading UTF-8 byte order mark is accepted. Every problem, however odd the input, is an InvalidRecordError.
    """
    record = parse_record(text, source)
    check_record(record)
    assert isinstance(record, dict)
    return record


def path_text(path: str | os.PathLike[str]) -> str:
    """A file name as quoted in messages: escaped, cut when very long, between single quotes."""
    return f"'{shown(os.fsdecode(path), PATH_SHOWN)}'"


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words, from its ``st_mode``."""
    if stat.S_ISDIR(mode):
        return "a folder"
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _too_large(source: str, size: int | None, limit: int, hint: str) -> InvalidRecordError:
    """The error for a record over the limit; ``size`` is its size when known (a file), None when it only
    kept coming (standard input, or a file that grew while it was read)."""
    how = f"is {size:,} bytes, more than" if size is not None else "holds more than"
    return InvalidRecordError(f"{source} {how} the limit of {limit:,} bytes for a record; {hint}")


def _read_at_most(read: Callable[[int], bytes], limit: int) -> bytes | None:
    """Up to ``limit`` bytes from ``read(n)`` until it returns nothing; None if there are more than ``limit``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = read(min(1 << 20, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            return None


LIMIT_HINT = "a record that large is refused unless a higher limit is given"
"""The end of the message for a record over the limit (the command line names its option instead)."""


def read_record_bytes(
    file: str | os.PathLike[str], max_bytes: int = MAX_RECORD_BYTES, hint: str = LIMIT_HINT, kind: str = "record file"
) -> tuple[bytes, str]:
    """The bytes of a record file (or of another ``kind`` of file the messages name), or of standard input for
    ``"-"``, and the name of the source for messages.

    At most ``max_bytes`` are read: a larger file is refused from its size before anything is read, and standard
    input is refused as soon as it sends more. A name that is not a regular file (a folder, a named pipe, a device)
    is refused before a byte is read; opening does not wait for the writer of a named pipe. Raises
    InvalidRecordError naming the file and the problem; ``hint`` ends the message for a record over the limit.
    """
    if os.fspath(file) == "-":
        data = _read_at_most(sys.stdin.buffer.read, max_bytes)
        if data is None:
            raise _too_large("standard input", None, max_bytes, hint)
        return data, "standard input"
    name = path_text(file)
    where = f"cannot read the {kind} {name}"
    try:
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileNotFoundError:
        raise InvalidRecordError(f"{where}: no such file") from None
    except PermissionError:
        raise InvalidRecordError(f"{where}: permission denied") from None
    except OSError as exc:
        raise InvalidRecordError(f"{where}: {exc.strerror or exc}") from None
    except ValueError:  # a name holding a NUL character, which no file system allows
        raise InvalidRecordError(f"{where}: a file name cannot hold a NUL character") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = file_kind(info.st_mode)
            if what == "a folder":
                raise InvalidRecordError(f"{where}: it is a folder")
            raise InvalidRecordError(
                f"{where}: it is {what}; a record is read from a regular file, or from standard input given as -"
            )
        if info.st_size > max_bytes:
            raise _too_large(f"the {kind} {name}", info.st_size, max_bytes, hint)
        try:
            data = _read_at_most(lambda n: os.read(fd, n), max_bytes)
        except OSError as exc:
            raise InvalidRecordError(f"{where}: {exc.strerror or exc}") from None
        if data is None:  # it grew while being read
            raise _too_large(f"the {kind} {name}", None, max_bytes, hint)
    finally:
        os.close(fd)
    return data, f"the {kind} {name}"


def load_record(path_or_text: str | os.PathLike[str], max_bytes: int = MAX_RECORD_BYTES) -> JsonObject:
    """Read and check a record from a file, or from JSON text (a string whose first non-blank character is ``{``).

    The file is read as UTF-8, with or without a byte order mark, and at most ``max_bytes`` of it. A file that
    cannot be read (missing, a folder, a named pipe or device, not permitted, too large, not UTF-8) gives an
    InvalidRecordError naming it.
    """
    if isinstance(path_or_text, str) and path_or_text.lstrip("\ufeff \t\r\n").startswith("{"):
        return loads_record(path_or_text)
    data, source = read_record_bytes(path_or_text, max_bytes)
    return loads_record(data, source)


_FLAT_OBJECT_WIDTH = 80
"""Objects of plain values at most this wide are written on one line."""


def _dumps(value: JsonValue, indent: int) -> str:
    """JSON with objects spread over lines and lists of plain values kept on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(not isinstance(v, dict | list) for v in value.values()):
            flat = json.dumps(value, ensure_ascii=False)
            if len(flat) <= _FLAT_OBJECT_WIDTH:
                return flat
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            return json.dumps(value, ensure_ascii=False)
        items = [f"{pad}{_dumps(v, indent + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, ensure_ascii=False)


def dumps_json(value: JsonValue) -> str:
    """Readable JSON ending in a newline: objects spread over lines, lists of plain values (actions) on one line."""
    return json_escaped(_dumps(value, 0)) + "\n"


def dumps_record(record: JsonObject) -> str:
    """The text of a record file (see :func:`dumps_json`)."""
    return dumps_json(record)


def _umask() -> int:
    """The process's file creation mask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def save_problem(path: str | os.PathLike[str]) -> str | None:
    """Why a record could not be saved at ``path``, found without touching ``path`` itself; None if it can be.

    Checks what a game should learn before it is played, not after: a folder or a special file (a named pipe, a
    device) at the name, a symbolic link (never written through), a name longer than the file system allows, a
    missing folder, and whether a file can be created in the folder at all (by creating and removing a temporary
    file there, which is the only check that also holds for root and for read-only or full file systems).
    """
    target = Path(path)
    text = os.fspath(path)
    if not text or text.endswith(os.sep) or target.name in ("", ".", ".."):
        return "it names a folder, not a file; give a file name"
    parent = target.parent
    try:
        if parent.is_dir():
            limit = os.pathconf(parent, "PC_NAME_MAX")
            size = len(os.fsencode(target.name))
            if size > limit:
                return f"the file name is {size} bytes long; this file system allows at most {limit}"
        if target.is_symlink():
            return "it is a symbolic link; a record is never written through a link: give the file itself"
        if target.exists():
            mode = target.stat().st_mode
            if not stat.S_ISREG(mode):
                return f"it is {file_kind(mode)}; a record is written to a regular file"
            if not os.access(target, os.W_OK):
                return "the file exists and is not writable"
        if not parent.exists():
            return f"the folder {path_text(parent)} does not exist"
        if not parent.is_dir():
            return f"{path_text(parent)} is not a folder"
    except ValueError:
        return "a file name cannot hold a NUL character"
    except OSError as exc:
        return exc.strerror or str(exc)
    try:
        fd, probe = tempfile.mkstemp(prefix=".clubs-", suffix=".tmp", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return f"no file can be created in the folder {path_text(parent)}: {exc.strerror or exc}"
    return None


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` holds either what it held before or all of ``data``.

    The bytes go to a temporary file in the same folder, are flushed to the disk, and the temporary file is renamed
    over ``path`` (a rename within a folder is atomic). A full disk, a file-size limit, a kill or a crash during
    the write leaves the old file as it was and no temporary file behind (except after a kill, when a hidden
    ``.clubs-*.tmp`` file may remain; the target is still whole). A symbolic link at ``path`` is refused, not
    followed: the record is never written somewhere other than the name given. The new file gets the mode of the
    file it replaces, or the usual mode of a new file. Raises OSError with the reason.
    """
    target = Path(path)
    if target.is_symlink():
        raise OSError(errno.ELOOP, "it is a symbolic link; a record is never written through a link", str(path))
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, temp = tempfile.mkstemp(prefix=".clubs-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):  # the rename itself reaches the disk; some file systems cannot say
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def save_record(record: JsonObject, path: str | os.PathLike[str]) -> None:
    """Check a record's shape and write it to ``path`` as UTF-8 JSON, atomically (:func:`write_atomically`)."""
    check_record(record)
    write_atomically(path, dumps_record(record).encode("utf-8"))
