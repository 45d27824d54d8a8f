"""Match records: a game-generic JSON format, reading and writing it, and replaying it through the engine."""

from clubsuite.records.format import (
    FORMAT,
    MAX_DEPTH,
    MAX_DIGITS,
    VERSION,
    CheckedRecord,
    HandEntry,
    check_record,
    dumps_json,
    dumps_record,
    load_record,
    loads_record,
    options_json,
    record_schema,
    save_record,
    validate_record,
)
from clubsuite.records.replay import ReplayResult, match_result_json, replay, result_json
from clubsuite.records.writer import default_seats, record_from_match

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "VERSION",
    "CheckedRecord",
    "HandEntry",
    "ReplayResult",
    "check_record",
    "default_seats",
    "dumps_json",
    "dumps_record",
    "load_record",
    "loads_record",
    "match_result_json",
    "options_json",
    "record_from_match",
    "record_schema",
    "replay",
    "result_json",
    "save_record",
    "validate_record",
]
