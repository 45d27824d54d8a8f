"""Reading a NumPy ``.npz`` archive that may come from anyone (a weights file, a shard of positions): data, never
code, and no more memory or time than its checks allow, whatever it claims.

The file's size is checked on the opened file before a byte of it is read (a pipe is never waited on, a sparse file
of gigabytes never read); the archive's directory is checked to be small before :mod:`zipfile` parses it (it reads
the whole directory, however many entries it holds); each entry's ``.npy`` header has its length checked before it
is read (NumPy's own reader reads all a header claims, up to 4 GiB, and checks its length after), and is then
checked (a type the caller accepts, C order, dimensions not negative and no more of them than allowed, their product
worked out in Python's integers so that none can wrap, whatever else the caller asks of the shape, the total under
the caller's bound) before its numbers are read; and the numbers are read in pieces into the room the header was
granted as they come, the entry refused as soon as it holds more (or fewer) than its header says. Nothing is ever
unpickled.
"""

from __future__ import annotations

import io
import math
import os
import stat
import struct
import zipfile
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol, cast

import numpy as np
import numpy.typing as npt

from clubsuite.errors import InvalidOptionsError
from clubsuite.safetext import quoted

PIECE = 1024 * 1024
"""The numbers of an entry are read (and inflated) this many bytes at a time."""
MAX_HEADER = 10_000
"""The longest ``.npy`` header read (NumPy's own limit; the headers NumPy writes take about 128 bytes)."""

Fail = Callable[[str], InvalidOptionsError]
"""Makes the refusal of one file from why it is refused (the caller names the file and what it is)."""
Array = npt.NDArray[np.generic]
"""An entry read: of one of the types its :class:`Bounds` allow, which the caller checks where it needs one."""
Numbers = npt.NDArray[np.integer | np.floating]
"""An entry found to hold integers or floating-point numbers (:func:`numbers`)."""
Check = Callable[[str, tuple[int, ...], np.dtype[np.generic]], str | None]
"""Asked of every entry once its header has been read and checked, before its numbers are read: why the entry (its
name without ``.npy``, its shape and type) is refused, or None."""


@dataclass(frozen=True)
class Bounds:
    """What an archive of one kind may be."""

    max_bytes: int
    """The most the entries may hold unpacked, in all; and the largest file read unless ``max_file`` says."""
    max_entries: int
    max_directory: int
    """The largest archive directory read (an archive's few entries take a few kilobytes)."""
    types: tuple[np.dtype[np.generic], ...]
    """The types an entry may be."""
    types_words: str
    """The types in words, as a refusal names them ("float32 numbers")."""
    kind: str
    """What the archive is, as a refusal names it ("a policy")."""
    max_dims: int = 2
    max_file: int | None = None
    """The largest file read (None: ``max_bytes``)."""


def _opened(path: Path, bounds: Bounds, fail: Fail) -> tuple[BinaryIO, int]:
    """The file at ``path`` opened to read, and its size: refused unless it is a regular file of at most the bounds'
    largest, its size checked on the opened file before anything is read (a pipe is never waited on)."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a pipe opened to read would wait for a writer
    except OSError as exc:
        raise fail(f"cannot be read: {exc.strerror or exc}") from None
    f = os.fdopen(handle, "rb")
    try:
        facts = os.fstat(f.fileno())
        if not stat.S_ISREG(facts.st_mode):
            raise fail("it is not a regular file")
        largest = bounds.max_bytes if bounds.max_file is None else bounds.max_file
        if facts.st_size > largest:
            raise fail(f"it is larger than {_size_words(largest)}")
    except BaseException:
        f.close()
        raise
    return f, facts.st_size


def file_bytes(path: Path, bounds: Bounds, fail: Fail) -> bytes:
    """The bytes of the file at ``path``: refused unless it is a regular file of at most ``bounds.max_bytes`` (or
    ``max_file``), its size checked on the opened file before anything is read."""
    f, size = _opened(path, bounds, fail)
    with f:
        try:
            data = f.read(size + 1)
        except OSError as exc:
            raise fail(f"cannot be read: {exc.strerror or exc}") from None
    if len(data) != size:
        raise fail("it changed while it was being read")
    return data


def _size_words(size: int) -> str:
    mb = 1024 * 1024
    return f"{size // mb} MB" if size % mb == 0 else f"{size:,} bytes"


_END = struct.Struct("<4s4H2LH")
"""The zip format's end-of-directory record (APPNOTE 4.3.16): signature, two disk numbers, the entries on this
disk and in all, the directory's size and offset, the comment's length."""


def _check_directory(data: bytes, bounds: Bounds, fail: Fail) -> None:
    """Refuse an archive whose directory is larger than ``bounds`` allow before :mod:`zipfile` parses it. An archive
    as NumPy writes it ends with a plain end-of-directory record: no comment, no zip64 record."""
    if len(data) < _END.size or data[-_END.size : -_END.size + 4] != b"PK\x05\x06":
        raise fail("it is not a NumPy .npz archive (or it ends with a comment)")
    _, _, _, _, _, size, _, comment = _END.unpack(data[-_END.size :])
    if comment or data[-_END.size - 20 : -_END.size - 16] == b"PK\x06\x07":
        raise fail("it is not a NumPy .npz archive (it has a comment or a zip64 record)")
    if size > bounds.max_directory:
        raise fail(
            f"its archive's directory is larger than {bounds.max_directory // 1024} KB ({bounds.kind}'s is a few KB)"
        )


class _Member(Protocol):
    """An archive's entry opened to read (what :meth:`zipfile.ZipFile.open` returns)."""

    def read(self, n: int = -1, /) -> bytes:
        """At most ``n`` more bytes of the entry (none at its end)."""
        ...


_NPY_MAGIC = b"\x93NUMPY"
_HEADER_LENGTH = {(1, 0): struct.Struct("<H"), (2, 0): struct.Struct("<I")}
"""The field that gives a ``.npy`` header's length, by format version (a version 3.0 header, UTF-8 field names,
is never one NumPy writes for plain numbers)."""


def _exactly(member: _Member, size: int, what: str, entry: str, fail: Fail) -> bytes:
    """The next ``size`` bytes of an entry (``size`` already bounded), refused if it ends before them."""
    got = b""
    while len(got) < size:
        more = member.read(size - len(got))
        if not more:
            raise fail(f"{entry} ends inside its {what}")
        got += more
    return got


def _header(member: _Member, entry: str, bounds: Bounds, fail: Fail) -> tuple[tuple[int, ...], np.dtype[np.generic]]:
    """The shape and type of an entry read from its ``.npy`` header, checked (see the module docstring): the
    header's length is read and refused over :data:`MAX_HEADER` before the header is read; NumPy then parses the
    bounded header."""
    prefix = _exactly(member, len(_NPY_MAGIC) + 2, ".npy header", entry, fail)
    if not prefix.startswith(_NPY_MAGIC):
        raise fail(f"{entry} is not a NumPy array (it does not start as a .npy file does)")
    version = (prefix[-2], prefix[-1])
    field = _HEADER_LENGTH.get(version)
    if field is None:
        raise fail(f"{entry} is of an unknown .npy version")
    length_bytes = _exactly(member, field.size, ".npy header", entry, fail)
    (length,) = field.unpack(length_bytes)
    if length > MAX_HEADER:
        raise fail(f"{entry} says its .npy header is {length:,} bytes, longer than {MAX_HEADER:,} bytes")
    text = _exactly(member, length, f".npy header ({length:,} bytes said)", entry, fail)
    head = io.BytesIO(prefix + length_bytes + text)
    np.lib.format.read_magic(head)
    read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
    shape, fortran, dtype = read_header(head)
    if dtype not in bounds.types or fortran or len(shape) > bounds.max_dims:
        raise fail(f"{entry} is not a plain array of {bounds.types_words}")
    if any(d < 0 for d in shape):
        raise fail(f"{entry} has a negative dimension ({shape_text(shape)})")
    return shape, dtype


def numbers(array: Array) -> Numbers | None:
    """``array`` itself where it holds integers or floating-point numbers (its type's kind), else None. NumPy's
    types do not follow a check of an array's type, so the one check is made here, for every reader."""
    return cast(Numbers, array) if array.dtype.kind in "fiu" else None


def shape_text(shape: tuple[int, ...]) -> str:
    """A shape as a refusal names it, a dimension of more than 20 digits cut short."""
    return " x ".join(str(d) if abs(d) < 10**20 else f"{str(d)[:20]}..." for d in shape)


def _numbers(member: _Member, size: int, entry: str, fail: Fail) -> bytearray:
    """The ``size`` bytes of numbers that follow an entry's header, read a piece at a time into room that grows with
    what was read (a header that claims more than its entry holds costs only what it holds; no more than a piece is
    inflated beyond ``size``), refused if the entry holds fewer or more."""
    out = bytearray()
    while len(out) < size:
        got = member.read(min(PIECE, size - len(out)))
        if not got:
            raise fail(f"{entry} holds fewer numbers than its header says")
        out += got
    if member.read(1):
        raise fail(f"{entry} holds more than its header says")
    return out


def arrays(
    data: bytes, bounds: Bounds, fail: Fail, check: Check | None = None, only: Collection[str] | None = None
) -> dict[str, Array]:
    """Every entry of the archive ``data`` (those named in ``only``, where given) as an array, by its name without
    ``.npy``, each ``.npy`` header read and checked (and ``check``-ed) before its numbers are read, at most
    ``bounds.max_bytes`` in all; an entry left out has its header checked too, its numbers never read. Raises what
    :mod:`zipfile`, :mod:`zlib` and NumPy raise for a damaged archive; the caller turns those into its refusal."""
    _check_directory(data[-(_END.size + 20) :], bounds, fail)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return _entries(archive, bounds, fail, check, only)


def file_arrays(
    path: Path, bounds: Bounds, fail: Fail, check: Check | None = None, only: Collection[str] | None = None
) -> dict[str, Array]:
    """As :func:`arrays`, of the archive in the file at ``path``, read from the file as its entries are (never
    whole: a large archive asked for one small entry costs that entry), the file checked first as
    :func:`file_bytes` checks it."""
    f, size = _opened(path, bounds, fail)
    with f:
        f.seek(max(0, size - (_END.size + 20)))
        _check_directory(f.read(), bounds, fail)
        f.seek(0)
        with zipfile.ZipFile(f) as archive:
            return _entries(archive, bounds, fail, check, only)


_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
"""How an entry may be stored: as NumPy writes them. :mod:`zipfile` inflates a bzip2 or LZMA entry a whole block
at a time, however little is asked of it, so a block of a few bytes could inflate to gigabytes before a header is
read: such an entry is refused unread."""


def _entries(
    archive: zipfile.ZipFile, bounds: Bounds, fail: Fail, check: Check | None, only: Collection[str] | None
) -> dict[str, Array]:
    out: dict[str, Array] = {}
    total = 0
    listed = archive.infolist()
    if len(listed) > bounds.max_entries:
        raise fail(f"it holds {len(listed)} entries, more than {bounds.kind} has ({bounds.max_entries})")
    for info in listed:
        name = info.filename
        entry = f"its entry {quoted(name, 40)}"
        if not name.endswith(".npy"):
            raise fail(f"{entry} is not a NumPy array (.npy)")
        if info.compress_type not in _METHODS or info.flag_bits & 1:
            raise fail(f"{entry} is compressed otherwise than NumPy writes (stored or deflated, never encrypted)")
        with archive.open(info) as member:
            shape, dtype = _header(member, entry, bounds, fail)
            if check is not None and (why := check(name[: -len(".npy")], shape, dtype)) is not None:
                raise fail(f"{entry} {why}")
            if only is not None and name[: -len(".npy")] not in only:
                continue
            size = math.prod(shape) * dtype.itemsize  # Python's integers: no product wraps to a small one
            total += size
            if total > bounds.max_bytes:
                most = _size_words(bounds.max_bytes)
                raise fail(f"its entries unpack to more than {most} ({entry} says {shape_text(shape)})")
            numbers = _numbers(member, size, entry, fail)
            out[name[: -len(".npy")]] = np.frombuffer(numbers, dtype=dtype).reshape(shape)
    return out
