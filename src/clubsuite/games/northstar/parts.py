"""The outer parts of CLUBS (North Star) (:class:`clubsuite.engine.GameParts`): one method per part, each importing its
part when called, so that the rules are read without a screen, a bot or a kernel.

Nothing is imported here at run time but the engine: each method imports its own module, and the types below are
read by the type checker only, which checks at the end that these parts are what each layer reading them declares.
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

from clubsuite.engine import GameParts

if TYPE_CHECKING:
    from collections.abc import Callable

    from clubsuite.bots.objective import Objective
    from clubsuite.bots.searching import Playout
    from clubsuite.coding import BenchmarkEntry, RlPart
    from clubsuite.games.northstar.match import NorthstarMatch
    from clubsuite.games.northstar.screen import NorthstarTable
    from clubsuite.jsonform import JsonObject
    from clubsuite.lesson import Lesson
    from clubsuite.present import AccountFn, AskedFn, LabelFn, OfferedFn, RecordedFn, Rulings, SaidFn, ShownFn
    from clubsuite.puzzles.criteria import Endgame
    from clubsuite.puzzles.themes import GameThemes
    from clubsuite.rl.tables import KernelTables
    from clubsuite.schema.parts import GameSchema
    from clubsuite.sim.bulk import CompiledMatches
    from clubsuite.sim.report import ReportPart
    from clubsuite.wording import GameWords


class NorthstarParts(GameParts):
    """The parts of CLUBS (North Star), each imported when asked for."""

    __slots__ = ()

    def screen(self) -> type[NorthstarTable]:
        """The terminal table."""
        from clubsuite.games.northstar.screen import NorthstarTable

        return NorthstarTable

    def recorded(self) -> RecordedFn:
        """What a replay's account adds after an event: the hidden cards a record holds."""
        from clubsuite.games.northstar.present import recorded

        return recorded

    def lesson(self) -> Lesson:
        """The guided first hand."""
        from clubsuite.games.northstar.lesson import LESSON

        return LESSON

    def shown(self) -> ShownFn:
        """What a view shows beside the cards."""
        from clubsuite.games.northstar.present import shown

        return shown

    def asked(self) -> AskedFn:
        """What the seat to act is asked."""
        from clubsuite.games.northstar.present import asked

        return asked

    def label(self) -> LabelFn:
        """An action as its button says it."""
        from clubsuite.games.northstar.present import label

        return label

    def said(self) -> SaidFn:
        """An event as the table tells it."""
        from clubsuite.games.northstar.present import said

        return said

    def account(self) -> AccountFn:
        """A scored hand's account."""
        from clubsuite.games.northstar.present import account

        return account

    def rulings(self) -> Rulings:
        """The rulings in plain words, for a "why?"."""
        from clubsuite.games.northstar.why import RULINGS

        return RULINGS

    def words(self) -> GameWords:
        """The game's options and variants in plain words."""
        from clubsuite.games.northstar.words import WORDS

        return WORDS

    def bots(self) -> types.ModuleType:
        """The module that registers the game's bots when imported."""
        from clubsuite.games.northstar import bot

        return bot

    def objective(self) -> Objective:
        """The search bots' objective."""
        from clubsuite.games.northstar.objective import OBJECTIVE

        return OBJECTIVE

    def playout(self) -> Playout:
        """The search bots' play-out in the compiled kernel."""
        from clubsuite.games.northstar.playout import compiled_finish

        return compiled_finish

    def spectator(self) -> Callable[[NorthstarMatch], JsonObject]:
        """What anyone watching may see."""
        from clubsuite.games.northstar.spectator import public_dict

        return public_dict

    def schema(self) -> GameSchema:
        """The game's part of the record schema."""
        from clubsuite.games.northstar.schema import SCHEMA

        return SCHEMA

    def coding(self) -> RlPart:
        """The coding of actions and observations for learning programs."""
        from clubsuite.games.northstar.rl import coding

        return coding

    def benchmark(self) -> tuple[BenchmarkEntry, ...]:
        """The frozen benchmark environments."""
        from clubsuite.games.northstar.benchmark import ENVS

        return ENVS

    def vector(self) -> KernelTables:
        """The compiled vector environment's tables."""
        from clubsuite.games.northstar.vector import kernel_tables

        return kernel_tables

    def report(self) -> ReportPart:
        """The balance report."""
        from clubsuite.games.northstar.report import REPORT

        return REPORT

    def bulk(self) -> CompiledMatches:
        """Whole matches played in the compiled kernel."""
        from clubsuite.games.northstar.bulk import compiled_matches

        return compiled_matches

    def themes(self) -> GameThemes:
        """A puzzle's themes."""
        from clubsuite.games.northstar import themes

        return themes

    def endgame(self) -> Endgame:
        """The exact search of a round's end, for endgame puzzles."""
        from clubsuite.games.northstar import endgame

        return endgame

    def offered(self) -> OfferedFn:
        """The seat to act's actions in the order a player is offered them, with what each does."""
        from clubsuite.games.northstar.present import offered_actions

        return offered_actions


PARTS = NorthstarParts()
"""The one parts object of CLUBS (North Star)."""

if TYPE_CHECKING:  # the parts are what each layer reading them declares
    from clubsuite.bots.base import HasBots
    from clubsuite.bots.objective import HasObjective
    from clubsuite.bots.searching import HasPlayout
    from clubsuite.coding import HasBenchmark, HasCoding
    from clubsuite.lesson import HasLesson
    from clubsuite.naming import HasWords
    from clubsuite.present import HasAccount, HasAsked, HasLabel, HasOffered, HasRecorded, HasRulings, HasSaid, HasShown
    from clubsuite.puzzles.criteria import HasEndgame
    from clubsuite.puzzles.themes import HasThemes
    from clubsuite.rl.tables import HasVector
    from clubsuite.schema.build import HasSchema
    from clubsuite.sim.bulk import HasBulk
    from clubsuite.sim.report import HasReport
    from clubsuite.tui.table import HasScreen
    from clubsuite.view_base import HasSpectator

    _screen: HasScreen = PARTS
    _recorded: HasRecorded = PARTS
    _shown: HasShown = PARTS
    _asked: HasAsked = PARTS
    _label: HasLabel = PARTS
    _said: HasSaid = PARTS
    _account: HasAccount = PARTS
    _rulings: HasRulings = PARTS
    _offered: HasOffered = PARTS
    _bots: HasBots = PARTS
    _objective: HasObjective = PARTS
    _playout: HasPlayout = PARTS
    _benchmark: HasBenchmark = PARTS
    _coding: HasCoding = PARTS
    _lesson: HasLesson = PARTS
    _words: HasWords = PARTS
    _themes: HasThemes = PARTS
    _endgame: HasEndgame = PARTS
    _vector: HasVector = PARTS
    _schema: HasSchema = PARTS
    _bulk: HasBulk = PARTS
    _report: HasReport = PARTS
    _spectator: HasSpectator[NorthstarMatch] = PARTS
