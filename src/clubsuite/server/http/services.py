"""The server's services as the routes receive them: FastAPI dependencies over the one :class:`Services` that
:func:`~clubsuite.server.http.app.create_app` builds and keeps at ``app.state.services``.

The route modules hold module-level routers, built once for every application of the process, so a route never
closes over a service: it names what it needs by type (``accounts: AccountsDep``) and FastAPI hands it the
application's own. Each dependency only reads the application's state: it never refuses, so a request is checked
(its body, then who is signed in) exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from clubsuite.server.community.clubnight import ClubNights
from clubsuite.server.community.matchmaking import Matchmaker
from clubsuite.server.community.tournaments import Tournaments
from clubsuite.server.community.watching import Watching
from clubsuite.server.http.lobby import Lobby
from clubsuite.server.limits import ServerLimits
from clubsuite.server.people.accounts import Accounts
from clubsuite.server.people.moderation import Moderation
from clubsuite.server.people.notices import Notices
from clubsuite.server.people.passkeys import Passkeys
from clubsuite.server.people.relations import Relations
from clubsuite.server.puzzles.library import Library
from clubsuite.server.puzzles.own import OwnPuzzles
from clubsuite.server.puzzles.progress import Progress
from clubsuite.server.store.handle import Database
from clubsuite.server.table.hub import Hub
from clubsuite.server.table.replaying import Replayer
from clubsuite.server.turns.keeper import Keeper
from clubsuite.server.turns.reminders import Reminders


@dataclass(frozen=True)
class Services:
    """Every service a route may use, each built once by the application over one database handle."""

    database: Database
    hub: Hub
    limits: ServerLimits
    accounts: Accounts
    passkeys: Passkeys
    lobby: Lobby
    matchmaker: Matchmaker
    nights: ClubNights
    tournaments: Tournaments
    watching: Watching
    relations: Relations
    notices: Notices
    moderation: Moderation
    library: Library
    progress: Progress
    own_puzzles: OwnPuzzles
    replayer: Replayer
    turns: Keeper
    reminders: Reminders


def services(conn: HTTPConnection) -> Services:
    """The services of the application a request or socket reached."""
    found: Services = conn.app.state.services
    return found


def _database(conn: HTTPConnection) -> Database:
    return services(conn).database


def _hub(conn: HTTPConnection) -> Hub:
    return services(conn).hub


def _limits(conn: HTTPConnection) -> ServerLimits:
    return services(conn).limits


def _accounts(conn: HTTPConnection) -> Accounts:
    return services(conn).accounts


def _passkeys(conn: HTTPConnection) -> Passkeys:
    return services(conn).passkeys


def _lobby(conn: HTTPConnection) -> Lobby:
    return services(conn).lobby


def _matchmaker(conn: HTTPConnection) -> Matchmaker:
    return services(conn).matchmaker


def _nights(conn: HTTPConnection) -> ClubNights:
    return services(conn).nights


def _tournaments(conn: HTTPConnection) -> Tournaments:
    return services(conn).tournaments


def _watching(conn: HTTPConnection) -> Watching:
    return services(conn).watching


def _relations(conn: HTTPConnection) -> Relations:
    return services(conn).relations


def _notices(conn: HTTPConnection) -> Notices:
    return services(conn).notices


def _moderation(conn: HTTPConnection) -> Moderation:
    return services(conn).moderation


def _library(conn: HTTPConnection) -> Library:
    return services(conn).library


def _progress(conn: HTTPConnection) -> Progress:
    return services(conn).progress


def _own_puzzles(conn: HTTPConnection) -> OwnPuzzles:
    return services(conn).own_puzzles


def _replayer(conn: HTTPConnection) -> Replayer:
    return services(conn).replayer


def _turns(conn: HTTPConnection) -> Keeper:
    return services(conn).turns


def _reminders(conn: HTTPConnection) -> Reminders:
    return services(conn).reminders


DatabaseDep = Annotated[Database, Depends(_database)]
HubDep = Annotated[Hub, Depends(_hub)]
LimitsDep = Annotated[ServerLimits, Depends(_limits)]
AccountsDep = Annotated[Accounts, Depends(_accounts)]
PasskeysDep = Annotated[Passkeys, Depends(_passkeys)]
LobbyDep = Annotated[Lobby, Depends(_lobby)]
MatchmakerDep = Annotated[Matchmaker, Depends(_matchmaker)]
NightsDep = Annotated[ClubNights, Depends(_nights)]
TournamentsDep = Annotated[Tournaments, Depends(_tournaments)]
WatchingDep = Annotated[Watching, Depends(_watching)]
RelationsDep = Annotated[Relations, Depends(_relations)]
NoticesDep = Annotated[Notices, Depends(_notices)]
ModerationDep = Annotated[Moderation, Depends(_moderation)]
LibraryDep = Annotated[Library, Depends(_library)]
ProgressDep = Annotated[Progress, Depends(_progress)]
OwnPuzzlesDep = Annotated[OwnPuzzles, Depends(_own_puzzles)]
ReplayerDep = Annotated[Replayer, Depends(_replayer)]
ServicesDep = Annotated[Services, Depends(services)]
"""All of them, for a route whose work spans several (a report: moderation, relations and the tables' chat)."""
TurnsDep = Annotated[Keeper, Depends(_turns)]
RemindersDep = Annotated[Reminders, Depends(_reminders)]
