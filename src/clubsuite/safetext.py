"""Text from outside the program, made safe to print: control characters escaped, long values cut.

Anything clubsuite prints that it did not write itself (a seat name or an extension field of a record, a line typed
or piped in, a command-line argument, later a message from the network) may hold terminal escape sequences, which
can set a terminal's title, move its cursor or hide text, and may be of any length. Every message and every screen
quotes such text through this module, so the rules live in one place:

- A character that is not printable (``str.isprintable``: control characters C0 and C1 such as ESC, format
  characters such as the right-to-left override U+202E, line and paragraph separators, lone surrogates, unassigned
  code points) is shown as its Python escape, ``\\x1b``, ``\\u202e``; a tab and a newline as ``\\t`` and ``\\n``.
  Ordinary spaces and every printable character of any script are kept.
- A value longer than a readable length is cut, with a note of its full length: an error names the input, it does
  not reproduce a megabyte of it.

JSON output stays exact JSON: :func:`json_escaped` writes the characters that are not printable as JSON escapes
(``\u001b``), which mean the same string to any JSON reader and drive no terminal.
"""

from __future__ import annotations

import json

SHOWN = 60
"""The most characters of one outside value quoted in a message or shown on a screen (before escaping)."""
LINE = 2000
"""The most characters of one output line built around outside text (:func:`safe_lines` cuts longer lines)."""


def _escape_char(char: str) -> str:
    """The escape of one character that is not printable, as Python writes it in a string literal."""
    return repr(char)[1:-1]


def escape(text: str) -> str:
    """``text`` with every character that is not printable shown escaped (``\\x1b``, ``\\u202e``, ``\\n``).

    Printable text of any script comes back unchanged; the work is linear in the length of ``text``.
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape_char(c) for c in text)


def _cut_note(length: int) -> str:
    """The note that ends a value cut short."""
    return f"... ({length:,} characters)"


def shown(text: str, limit: int = SHOWN) -> str:
    """``text`` escaped and, when it is longer than ``limit`` characters, cut with a note of its full length.

    For text shown as it is, such as a seat name on a screen: ``ann``, ``ann\\x1b[2J``, ``aaaa... (20,000,000
    characters)``.
    """
    if len(text) <= limit:
        return escape(text)
    return escape(text[:limit]) + _cut_note(len(text))


def quoted(text: str, limit: int = SHOWN) -> str:
    """``text`` in quotes as Python writes a string (so escapes are unambiguous), cut like :func:`shown`.

    For the input named in an error message: ``'ZZ' is not a card``.
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + _cut_note(len(text))


def safe_lines(text: str, line_limit: int = LINE) -> str:
    """Text ready to print: every character that is not printable escaped except the newlines, and every line longer
    than ``line_limit`` cut with a note.

    The last guard of the command line's output streams (messages, usage errors, readable accounts), so that
    outside text which reached a message some other way still cannot drive the terminal.
    """
    if text.isprintable() and len(text) <= line_limit:
        return text
    lines = text.split("\n")
    return "\n".join(shown(line, line_limit) for line in lines)


def json_shown(value: object, limit: int = 2 * SHOWN) -> str:
    """A JSON value as it would be written, cut like :func:`shown` when long (JSON escapes control characters)."""
    return shown(json.dumps(value), limit)


def _json_escape(char: str) -> str:
    """The JSON escape of one character (a surrogate pair beyond the Basic Multilingual Plane)."""
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_escaped(text: str) -> str:
    """JSON text with every character that is not printable, other than the line breaks between values, written as
    its JSON escape: the same JSON, safe to print.

    ``json.dumps(..., ensure_ascii=False)`` escapes the C0 control characters but leaves DEL, the C1 controls (an
    8-bit CSI is an escape sequence to some terminals) and format characters such as U+202E as they are. Outside
    strings JSON holds only printable ASCII and white space, so every character escaped here is inside a string.
    """
    if text.isprintable() or text.replace("\n", "").isprintable():
        return text
    return "".join(c if c == "\n" or c.isprintable() else _json_escape(c) for c in text)
