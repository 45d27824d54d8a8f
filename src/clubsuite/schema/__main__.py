"""``python -m clubsuite.schema [--check] [--docs PATH]``: write the record schema file and the generated tables of
``docs/records.md`` from their source, or (``--check``) only say whether they are up to date (status 1 if not)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from clubsuite.schema.build import build_schema, game_schemas
from clubsuite.schema.docs import games_section, replace_section

SCHEMA_FILE = Path(__file__).resolve().parent / "record.schema.json"
DOCS_FILE = Path(__file__).resolve().parents[3] / "docs" / "records.md"
"""Where the documentation lives in a source checkout."""


def schema_text() -> str:
    """The schema file's text as the source gives it."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def docs_text(current: str) -> str:
    """The documentation with its generated part as the source gives it."""
    return replace_section(current, games_section(game_schemas()))


def main(argv: list[str] | None = None) -> int:
    """Write (or check) the schema file and the generated part of the documentation."""
    parser = argparse.ArgumentParser(prog="python -m clubsuite.schema", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only check; exit 1 naming what is out of date")
    parser.add_argument("--docs", type=Path, default=DOCS_FILE, help="the records documentation (docs/records.md)")
    args = parser.parse_args(argv)
    targets = [(SCHEMA_FILE, schema_text())]
    if args.docs.exists():
        targets.append((args.docs, docs_text(args.docs.read_text(encoding="utf-8"))))
    stale = [path for path, text in targets if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.name} is out of date: run python -m clubsuite.schema", file=sys.stderr)
        return 1 if stale else 0
    for path, text in targets:
        if path in stale:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
