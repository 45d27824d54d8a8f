"""Run by ``test_core_standalone.py`` in a fresh interpreter: the page's core with every package but the standard
library blocked, and no compiled module of clubsuite's (the page has neither); it plays through the offline table
what the page offers and prints one line per check."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import sys
from collections.abc import Sequence
from types import ModuleType

ALLOWED = frozenset(sys.stdlib_module_names) | {"clubsuite"}


class Blocker(importlib.abc.MetaPathFinder):
    """Refuses every module outside the standard library and clubsuite, and every compiled module of clubsuite."""

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        top = name.split(".")[0]
        if top not in ALLOWED:
            raise ImportError(f"blocked: {name} (the page has only the standard library)")
        if top == "clubsuite":
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is not None and spec.origin not in (None, "built-in") and not spec.origin.endswith(".py"):
                raise ImportError(f"blocked: {name} is compiled ({spec.origin.rsplit('.', 1)[-1]})")
        return None


def call(handle: object, **request: object) -> dict[str, object]:
    """One request to the worker's entry; its answer, which must be ok."""
    assert callable(handle)
    answer = json.loads(handle(json.dumps(request)))
    assert answer["ok"], answer
    return answer


def main() -> None:
    sys.meta_path.insert(0, Blocker())
    from clubsuite.engine import games
    from clubsuite.offline import session
    from clubsuite.puzzles.sets import shipped
    from clubsuite.records.replay import replay

    for info in games():
        n = info.n_seats(info.options_class())
        for levels, hands in (("easy", None), ("normal", None), ("hard", 1)):
            tid = f"{info.name}-{levels}"
            call(session.handle, op="table", id=tid, game=info.name, name="Ann", seat=0, levels=[levels] * (n - 1),
                 coach=levels == "easy")  # fmt: skip
            answer = call(session.handle, op="send", table=tid, message={"type": "hello", "protocol": 1})
            last: dict[str, object] = {}
            stepped = False
            while True:
                for msg in answer["messages"]:  # type: ignore[attr-defined]
                    if msg["type"] in ("state", "update"):
                        last = msg
                        stepped = stepped or "lesson" in msg
                if answer["due"] is not None:
                    answer = call(session.handle, op="bot", table=tid, version=answer["due"]["version"])  # type: ignore[index]
                    continue
                if last["over"] or (hands is not None and len(last.get("hands", [])) >= hands):
                    break
                if hands is not None and "scored" in last:
                    break
                act = {"type": "act", "action": last["legal"][0], "version": last["version"]}  # type: ignore[index]
                answer = call(session.handle, op="send", table=tid, message=act)
            record = call(session.handle, op="record", table=tid)["record"]
            replay(record)  # type: ignore[arg-type]
            print(f"played {info.name} against {levels} bots: {'the match' if hands is None else 'a hand'}"
                  f"{', with the lesson' if stepped else ''}")  # fmt: skip
        for puzzle in shipped(info.name)[:1]:
            print(f"puzzle {puzzle.id} of {info.name}: solution {puzzle.solution} among {len(puzzle.values)}")
    solutions = {p.id: p.solution for info in games() for p in shipped(info.name)}
    for entry in call(session.handle, op="puzzles", path="/puzzles")["answer"]["pools"]:  # type: ignore[index]
        path = f"/puzzles/{entry['pool']}"
        shown = call(session.handle, op="puzzles", path=f"{path}/next", body=None, rating=None)
        pid = shown["answer"]["id"]  # type: ignore[index]
        judged = call(session.handle, op="puzzles", path=f"{path}/{pid}/attempt", body={"action": solutions[pid]},
                      rating=shown["rating"])["answer"]  # fmt: skip
        assert judged["right"] and judged["attempt"]["rated"], judged  # type: ignore[index]
        moved = judged["attempt"]["rating"]  # type: ignore[index]
        print(f"judged puzzle {pid} of {entry['pool']} offline: right, rated {moved['before']} -> {moved['after']}")
    compiled = sorted(m for m, mod in sys.modules.items() if m.startswith("clubsuite") and
                      getattr(mod, "__file__", None) and not str(mod.__file__).endswith(".py"))  # fmt: skip
    outside = sorted({m.split(".")[0] for m in sys.modules} - ALLOWED - {"__main__"})
    print(json.dumps({"compiled": compiled, "outside": outside}))


if __name__ == "__main__":
    main()
