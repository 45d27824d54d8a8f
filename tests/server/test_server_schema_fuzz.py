"""The lobby fuzzed from its own OpenAPI schema by Schemathesis, against a real server on a loopback port.

Schemathesis reads the schema the application publishes at ``/openapi.json`` and draws requests for every operation
with Hypothesis, both fitting the schema and not (wrong types, missing and extra fields, odd strings and numbers,
path values of any shape); every answer must be one the schema documents, with its content type and shape, and
never a server error. The server is a real one over a temporary SQLite database, with a public and a private table
made beforehand so that some requests reach a table.

Each operation is tried with :data:`EXAMPLES` requests of each kind, drawn from the run's seed (``fresh_seed``, printed
with the test's output; ``CLUBS_SEED`` plays a run again): every run tries other requests than the last.

(Schemathesis's own pytest plugin is not used: the operations are listed from the schema here and each is driven
with Hypothesis directly, so that the test does not depend on the plugin keeping up with pytest.)
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance
from serverkit import ThreadServer, new_table

from clubsuite.server.http.app import create_app
from clubsuite.server.store.database import Store

SCHEMA = schemathesis.openapi.from_dict(create_app(Store("sqlite://")).openapi())
"""The lobby's schema, as the application publishes it (read here to list the operations)."""
OPERATIONS = {op.label: op for op in (result.ok() for result in SCHEMA.get_all_operations())}
WITH_INPUT = sorted(
    label for label, op in OPERATIONS.items() if op.definition.raw.keys() & {"parameters", "requestBody"}
)
"""The operations that take something (a path value, a query, a body): only these have requests that do not fit."""
CASES = [(label, GenerationMode.POSITIVE) for label in sorted(OPERATIONS)]
CASES += [(label, GenerationMode.NEGATIVE) for label in WITH_INPUT]
EXAMPLES = 2
"""Requests tried per operation and kind (fitting the schema, or not), new ones each run (from the run's seed)."""


@pytest.fixture(scope="module")
def lobby(web: ThreadServer) -> ThreadServer:
    """The module's server, with a public table and a private one to list, read and join."""
    new_table(web.base, "whist")
    new_table(web.base, "whist", public=False)
    return web


@pytest.fixture(scope="module")
def served_schema(lobby: ThreadServer) -> dict[str, object]:
    """The schema the running server publishes at ``/openapi.json``, read once for the module (the server is the
    same for every test of it)."""
    return dict(schemathesis.openapi.from_url(lobby.base + "/openapi.json").raw_schema)


@pytest.mark.parametrize(("label", "mode"), CASES, ids=[f"{label}-{mode.value}" for label, mode in CASES])
def test_every_lobby_call_answers_as_its_schema_documents_and_never_with_a_server_error(
    lobby: ThreadServer, served_schema: dict[str, object], fresh_seed: int, label: str, mode: GenerationMode
) -> None:
    assert served_schema == SCHEMA.raw_schema  # the running server publishes the schema listed here
    operation = OPERATIONS[label]

    @given(operation.as_strategy(generation_mode=mode))
    @seed(fresh_seed)
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    def call(case: schemathesis.Case) -> None:
        # Every check but "a request that fits the schema is accepted": a request may fit the schema and still be
        # refused for what it means (a game that does not exist, a record that breaks a rule), with a documented 4xx.
        case.call_and_validate(base_url=lobby.base, timeout=30, excluded_checks=[positive_data_acceptance])

    call()


def test_every_call_of_the_lobby_is_in_the_schema() -> None:
    """The fuzzing covers every call of the lobby (the pages and static files are not part of the API)."""
    assert set(OPERATIONS) == {
        "GET /health",
        "GET /ready",
        "GET /offline-app",
        "GET /games",
        "GET /tables",
        "POST /tables",
        "POST /quickplay",
        "POST /tutorial",
        "GET /tables/{table_id}",
        "GET /invites/{code}",
        "POST /tables/{table_id}/join",
        "POST /tables/{table_id}/seat",
        "POST /tables/{table_id}/invitations",
        "POST /tables/{table_id}/reports",
        "POST /invites/{code}/join",
        "POST /tables/{table_id}/leave",
        "POST /tables/{table_id}/rematch",
        "GET /tables/{table_id}/record.json",
        "POST /replays",
        "POST /account/signup",
        "POST /account/login",
        "POST /account/logout",
        "GET /account",
        "GET /account/sessions",
        "POST /account/sessions/{public_id}/end",
        "POST /account/password",
        "POST /account/claim",
        "POST /account/delete",
        "POST /account/passkeys/options",
        "POST /account/passkeys",
        "GET /account/passkeys",
        "POST /account/passkeys/{passkey_id}/delete",
        "POST /account/passkey-login/options",
        "POST /account/passkey-login",
        "GET /players/{name}",
        "GET /players/{name}/history",
        "GET /players/{name}/ratings/{pool}",
        "GET /leaderboard/{pool}",
        "GET /ratings",
        "POST /rated/queue",
        "GET /rated/queue",
        "POST /rated/queue/leave",
        "POST /clubnights",
        "GET /clubnights/{night_id}",
        "POST /clubnights/{night_id}/enter",
        "POST /clubnights/{night_id}/bots",
        "POST /clubnights/{night_id}/rounds",
        "POST /clubnights/{night_id}/seat",
        "GET /clubnights/{night_id}/standings.json",
        "GET /clubnights/{night_id}/standings.csv",
        "GET /tournaments",
        "POST /tournaments",
        "GET /tournaments/{tournament_id}",
        "POST /tournaments/{tournament_id}/join",
        "POST /tournaments/{tournament_id}/withdraw",
        "POST /tournaments/{tournament_id}/start",
        "GET /tournaments/{tournament_id}/seat",
        "GET /tournaments/{tournament_id}/standings.json",
        "GET /tournaments/{tournament_id}/standings.csv",
        "GET /tournament-tables/{table_id}",
        "POST /players/{name}/follow",
        "POST /players/{name}/unfollow",
        "POST /players/{name}/block",
        "POST /players/{name}/unblock",
        "POST /players/{name}/mute",
        "POST /players/{name}/unmute",
        "GET /account/people",
        "POST /account/privacy",
        "GET /friends",
        "GET /notices",
        "POST /notices/{notice_id}/dismiss",
        "POST /notices/{notice_id}/decline",
        "POST /invitations",
        "POST /reports",
        "GET /moderation/reports",
        "POST /moderation/reports/{report_id}",
        "GET /tables/{table_id}/review",
        "GET /tables/{table_id}/replay",
        "GET /tables/{table_id}/results",
        "GET /presence",
        "GET /rules/{game}/brief",
        "GET /turns",
        "GET /turns/count",
        "POST /tables/{table_id}/turn/resume",
        "POST /tables/{table_id}/turn/autoplay",
        "GET /account/turns",
        "PUT /account/turns",
        "POST /account/vacations",
        "POST /account/vacations/{vacation_id}/end",
        "POST /push/subscriptions",
        "POST /push/subscriptions/delete",
        "GET /mail/confirm",
        "POST /mail/confirm",
        "GET /mail/unsubscribe",
        "POST /mail/unsubscribe",
        "GET /puzzles",
        "GET /daily-puzzle",
        "GET /puzzles/history",
        "GET /puzzles/{pool}",
        "GET /puzzles/{pool}/next",
        "GET /puzzles/{pool}/{puzzle_id}",
        "POST /puzzles/{pool}/{puzzle_id}/attempt",
        "POST /puzzles/{pool}/{puzzle_id}/solution",
        "GET /puzzles/mine",
        "POST /puzzles/mine/{puzzle_id}/share",
        "POST /tables/{table_id}/puzzles",
    }
