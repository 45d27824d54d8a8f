"""The server's logs on standard error: one JSON object per line (time, level, logger, message) where a log
collector reads them, plain lines (time, level, message) where a person does. ``clubs serve --log-format`` chooses;
its default, ``auto``, writes plain lines on a terminal and JSON anywhere else (a file, a pipe, a service's journal).
Nothing logged names a card or a token."""

from __future__ import annotations

import json
import logging
import sys
import time


class JsonLines(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


class PlainLines(logging.Formatter):
    """A log record as a line a person reads: the local time, the level where it is not plain information, the
    message (and a failure's traceback after it)."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(record.created))
        level = "" if record.levelno == logging.INFO else f"{record.levelname.lower()}: "
        line = f"{stamp} {level}{record.getMessage()}"
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


LOG_FORMATS = ("auto", "plain", "json")
"""``--log-format``'s choices: ``auto`` is plain on a terminal, JSON elsewhere."""


def configure_logging(level: str, form: str = "json") -> None:
    """Send the server's and the web server's logs to standard error at ``level``, as JSON lines or plain ones
    (``form``, one of :data:`LOG_FORMATS`)."""
    plain = form == "plain" or (form == "auto" and sys.stderr.isatty())
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(PlainLines() if plain else JsonLines())
    for name in ("clubsuite.server", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
