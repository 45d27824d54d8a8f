"""Reading what a player types, one line at a time, safely: bytes decoded as UTF-8 by the program itself, a line
of bounded length, and input that is not a player's (a device that never sends a line break) recognised.

Python's own text reading of standard input raises on bytes that are not UTF-8 in a strict locale and grows without
bound on a line without an end; reading bytes with a limit makes both a message instead.
"""

from __future__ import annotations

import sys

from rich.console import Console

from clubsuite.cli.common import fail
from clubsuite.safetext import shown

MAX_LINE = 1024
"""The most bytes of one line of input (a move is a few characters; the longest play of any game, fifteen
cards with what each wild 15 stands for, is under a hundred)."""
MAX_SKIPPED = 1024 * 1024
"""The most bytes of one overlong line that are skipped to find its end; input with no line break in more than this
is not a player typing, and ends the command (status 2)."""


class UnreadableLineError(Exception):
    """A line of input that cannot be a move (too long, not UTF-8); the message says why, the game goes on."""


def read_line(prompt: str, console: Console) -> str | None:
    """One line of input, stripped, or None at end of input; raises :class:`UnreadableLineError` for a line that is
    longer than :data:`MAX_LINE` bytes or not UTF-8 text (the line is used up, so the next read gets the next one).

    Reads bytes and decodes them itself, so that input in any encoding gives a message, never a traceback, and a
    line of any length costs bounded memory. A last line without a line break is read like any other.
    """
    console.print(prompt, end="", highlight=False, markup=False)
    console.file.flush()
    stdin = sys.stdin.buffer
    raw = stdin.readline(MAX_LINE + 1)
    if not raw:
        console.print(highlight=False)  # end the prompt's line
        return None
    if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
        skipped = len(raw)
        while raw and not raw.endswith(b"\n"):
            raw = stdin.readline(65536)
            skipped += len(raw)
            if skipped > MAX_SKIPPED:
                fail(f"standard input sent more than {MAX_SKIPPED:,} bytes without a line break: it is not moves")
        console.print(highlight=False)
        raise UnreadableLineError(
            f"the line is {skipped:,} bytes long, more than the {MAX_LINE:,} a move may have; type your move again "
            "(? lists the legal moves)"
        )
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        console.print(highlight=False)
        raise UnreadableLineError(
            f"the line is not UTF-8 text (the byte 0x{raw[exc.start]:02x} at byte {exc.start + 1}); type your move "
            "again (? lists the legal moves)"
        ) from None
    if not sys.stdin.isatty():  # echo piped input, escaped and cut, so transcripts read naturally
        console.print(shown(line.rstrip("\r\n"), MAX_LINE), highlight=False, markup=False)
    return line.strip()
