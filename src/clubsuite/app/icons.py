"""The app's icons: a white club on the felt green of the table, as PNG (drawn here, no image library) and SVG.

An installed app needs square icons of 192 and 512 pixels (the manifest's), one of them ``maskable``: the club
keeps inside the middle 80 per cent, the safe zone a launcher's mask never cuts.
"""

from __future__ import annotations

import functools
import math
import struct
import zlib

FELT = (0x1F, 0x5E, 0x3B)
"""The background: the table's green."""
INK = (0xFF, 0xFF, 0xFF)
"""The club."""
SIZES = (192, 512)
"""The PNG sizes the manifest lists."""


def _inside(x: float, y: float) -> bool:
    """Whether the point (in a unit square, y down) is on the club: three leaves and a stem."""
    leaves = ((0.5, 0.36), (0.355, 0.56), (0.645, 0.56))
    if any(math.hypot(x - cx, y - cy) <= 0.135 for cx, cy in leaves):
        return True
    if 0.44 <= y <= 0.7 and abs(x - 0.5) <= 0.06:
        return True
    if 0.62 <= y <= 0.76:  # the foot: wider toward the bottom
        return abs(x - 0.5) <= 0.05 + (y - 0.62) * 0.9
    return False


@functools.cache
def club_png(size: int) -> bytes:
    """The icon as a PNG of ``size`` x ``size`` pixels (2 x 2 samples a pixel for smooth edges; drawn once)."""
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # no filter
        for i in range(size):
            hits = sum(
                _inside((i + (a + 0.5) / 2) / size, (j + (b + 0.5) / 2) / size) for a in range(2) for b in range(2)
            )
            share = hits / 4
            rows.extend(round(f + (k - f) * share) for f, k in zip(FELT, INK, strict=True))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: its length, kind, data and CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def club_svg() -> str:
    """The icon as SVG (for browsers that take any size)."""
    felt = "#{:02x}{:02x}{:02x}".format(*FELT)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{felt}"/>'
        '<g fill="#fff"><circle cx="50" cy="36" r="13.5"/><circle cx="35.5" cy="56" r="13.5"/>'
        '<circle cx="64.5" cy="56" r="13.5"/><rect x="44" y="44" width="12" height="26"/>'
        '<path d="M45 62 L55 62 L62.6 76 L37.4 76 Z"/></g></svg>\n'
    )
