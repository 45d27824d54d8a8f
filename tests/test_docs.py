"""The Python examples in the README run as written (the front door must not lie)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(path: Path) -> list[str]:
    """The fenced ```python blocks of a Markdown file."""
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_readme_engine_example_plays_a_hand_to_its_score(capsys: object) -> None:
    blocks = python_blocks(ROOT / "README.md")
    assert blocks, "the README shows how to use the engine from Python"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    match = namespace["match"]
    assert len(match.hand_scores) == 1  # type: ignore[attr-defined]
    assert sum(match.hand_scores[0]) == 1  # type: ignore[attr-defined]  # CW-5: 13 tricks - 3 x 4


def test_northstar_rules_page_example_plays_a_round_to_its_score() -> None:
    blocks = python_blocks(ROOT / "docs" / "rules" / "northstar.md")
    assert blocks, "the North Star rules page shows the engine from Python"
    namespace: dict[str, object] = {}
    for block in blocks:
        exec(compile(block, "northstar.md", "exec"), namespace)
    match = namespace["match"]
    assert len(match.hand_scores) == 1  # type: ignore[attr-defined]
    assert match.current is None and match.totals == list(match.hand_scores[0])  # type: ignore[attr-defined]
