"""The outer parts of the partnership game (:class:`clubsuite.engine.GameParts`): one method per part, each
importing its part when called, so that the rules are read without a screen, a bot or a kernel.

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
    from clubsuite.games.partnership.match import PartnershipMatch
    from clubsuite.games.partnership.screen import PartnershipTable
    from clubsuite.jsonform import JsonObject
    from clubsuite.lesson import Lesson
    from clubsuite.present import AccountFn, AskedFn, LabelFn, RecordedFn, RecordedLegalFn, Rulings, SaidFn, ShownFn
    from clubsuite.puzzles.themes import GameThemes
    from clubsuite.rl.tables import KernelTables
    from clubsuite.schema.parts import GameSchema
    from clubsuite.sim.bulk import CompiledMatches
    from clubsuite.sim.report import ReportPart
    from clubsuite.solver.game import TrickSolving
    from clubsuite.wording import GameWords


class PartnershipParts(GameParts):
    """The parts of the partnership game, each imported when asked for."""

    __slots__ = ()

    def screen(self) -> type[PartnershipTable]:
        """The terminal table."""
        from clubsuite.games.partnership.screen import PartnershipTable

        return PartnershipTable

    def recorded(self) -> RecordedFn:
        """What a replay's account adds after an event: the hidden cards a record holds."""
        from clubsuite.games.partnership.present import recorded

        return recorded

    def recorded_legal(self) -> RecordedLegalFn:
        """The legal actions at the end of an unfinished record, where a pass is said as one sentence."""
        from clubsuite.games.partnership.present import recorded_legal

        return recorded_legal

    def lesson(self) -> Lesson:
        """The guided first hand."""
        from clubsuite.games.partnership.lesson import LESSON

        return LESSON

    def shown(self) -> ShownFn:
        """What a view shows beside the cards."""
        from clubsuite.games.partnership.present import shown

        return shown

    def asked(self) -> AskedFn:
        """What the seat to act is asked."""
        from clubsuite.games.partnership.present import asked

        return asked

    def label(self) -> LabelFn:
        """An action as its button says it."""
        from clubsuite.games.partnership.present import label

        return label

    def said(self) -> SaidFn:
        """An event as the table tells it."""
        from clubsuite.games.partnership.present import said

        return said

    def account(self) -> AccountFn:
        """A scored hand's account."""
        from clubsuite.games.partnership.present import account

        return account

    def rulings(self) -> Rulings:
        """The rulings in plain words, for a "why?"."""
        from clubsuite.games.partnership.why import RULINGS

        return RULINGS

    def words(self) -> GameWords:
        """The game's options and variants in plain words."""
        from clubsuite.games.partnership.words import WORDS

        return WORDS

    def bots(self) -> types.ModuleType:
        """The module that registers the game's bots when imported."""
        from clubsuite.games.partnership import bot

        return bot

    def objective(self) -> Objective:
        """The search bots' objective."""
        from clubsuite.games.partnership.objective import OBJECTIVE

        return OBJECTIVE

    def solver(self) -> TrickSolving:
        """The exact solver's view of the card play."""
        from clubsuite.games.partnership.solving import SOLVING

        return SOLVING

    def playout(self) -> Playout:
        """The search bots' play-out in the compiled kernel."""
        from clubsuite.games.partnership.playout import compiled_finish

        return compiled_finish

    def spectator(self) -> Callable[[PartnershipMatch], JsonObject]:
        """What anyone watching may see."""
        from clubsuite.games.partnership.spectator import public_dict

        return public_dict

    def schema(self) -> GameSchema:
        """The game's part of the record schema."""
        from clubsuite.games.partnership.schema import SCHEMA

        return SCHEMA

    def coding(self) -> RlPart:
        """The coding of actions and observations for learning programs."""
        from clubsuite.games.partnership.rl import coding

        return coding

    def benchmark(self) -> tuple[BenchmarkEntry, ...]:
        """The frozen benchmark environments."""
        from clubsuite.games.partnership.benchmark import ENVS

        return ENVS

    def vector(self) -> KernelTables:
        """The compiled vector environment's tables."""
        from clubsuite.games.partnership.vector import kernel_tables

        return kernel_tables

    def report(self) -> ReportPart:
        """The balance report."""
        from clubsuite.games.partnership.report import REPORT

        return REPORT

    def bulk(self) -> CompiledMatches:
        """Whole matches played in the compiled kernel."""
        from clubsuite.games.partnership.bulk import compiled_matches

        return compiled_matches

    def themes(self) -> GameThemes:
        """A puzzle's themes."""
        from clubsuite.games.partnership import themes

        return themes


PARTS = PartnershipParts()
"""The one parts object of the partnership game."""

if TYPE_CHECKING:  # the parts are what each layer reading them declares
    from clubsuite.bots.base import HasBots
    from clubsuite.bots.objective import HasObjective
    from clubsuite.bots.searching import HasPlayout
    from clubsuite.coding import HasBenchmark, HasCoding
    from clubsuite.lesson import HasLesson
    from clubsuite.naming import HasWords
    from clubsuite.present import (
        HasAccount,
        HasAsked,
        HasLabel,
        HasRecorded,
        HasRecordedLegal,
        HasRulings,
        HasSaid,
        HasShown,
    )
    from clubsuite.puzzles.themes import HasThemes
    from clubsuite.rl.tables import HasVector
    from clubsuite.schema.build import HasSchema
    from clubsuite.sim.bulk import HasBulk
    from clubsuite.sim.report import HasReport
    from clubsuite.solver.game import HasSolver
    from clubsuite.tui.table import HasScreen
    from clubsuite.view_base import HasSpectator

    _screen: HasScreen = PARTS
    _recorded: HasRecorded = PARTS
    _recorded_legal: HasRecordedLegal = PARTS
    _shown: HasShown = PARTS
    _asked: HasAsked = PARTS
    _label: HasLabel = PARTS
    _said: HasSaid = PARTS
    _account: HasAccount = PARTS
    _rulings: HasRulings = PARTS
    _bots: HasBots = PARTS
    _objective: HasObjective = PARTS
    _playout: HasPlayout = PARTS
    _benchmark: HasBenchmark = PARTS
    _coding: HasCoding = PARTS
    _lesson: HasLesson = PARTS
    _words: HasWords = PARTS
    _themes: HasThemes = PARTS
    _vector: HasVector = PARTS
    _schema: HasSchema = PARTS
    _bulk: HasBulk = PARTS
    _report: HasReport = PARTS
    _solver: HasSolver = PARTS
    _spectator: HasSpectator[PartnershipMatch] = PARTS
