"""The arithmetic of turn-based clocks (``clubsuite.server.turns.clock``): playing hours on the player's local clock,
vacations, deadlines across daylight-saving changes, and the refusals of bad options."""

from __future__ import annotations

import time
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubsuite.errors import InvalidOptionsError
from clubsuite.server.turns.clock import (
    ALWAYS,
    MIN_WINDOW,
    ON_TIMEOUT,
    PACES,
    PlayingHours,
    Span,
    check_on_timeout,
    check_pace,
    deadline,
    local_minute,
    pace_words,
    paused,
    resumes,
    running,
)

HOUR = 3600.0
DAY = 86400.0
ZONES = ("UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham")
NO_DST_ZONES = ("UTC", "Asia/Kolkata")
PARIS_DAY = PlayingHours("Europe/Paris", 9 * 60, 21 * 60)


def at(zone: str, *wall: int) -> float:
    """The instant of a local wall time (the first one if it is repeated)."""
    return datetime(*wall, tzinfo=ZoneInfo(zone)).timestamp()  # type: ignore[arg-type,misc]


def utc(*wall: int) -> float:
    return at("UTC", *wall)


@st.composite
def playing_hours(draw: st.DrawFn, zones: tuple[str, ...] = ZONES) -> PlayingHours:
    zone = draw(st.sampled_from(zones))
    if draw(st.booleans()) and draw(st.booleans()):
        return PlayingHours(zone, 0, 1440)
    start = draw(st.integers(0, 1439))
    length = draw(st.integers(MIN_WINDOW, 1439))
    end = start + length
    return PlayingHours(zone, start, end if end <= 1440 else end - 1440)  # over midnight when end < start


instants = st.floats(utc(2020, 1, 1), utc(2030, 1, 1))


@st.composite
def vacations_near(draw: st.DrawFn, since: float) -> list[Span]:
    spans = []
    for _ in range(draw(st.integers(0, 4))):
        start = since + draw(st.floats(-10 * DAY, 30 * DAY))
        spans.append((start, start + draw(st.floats(-DAY, 20 * DAY))))  # some backwards: ignored
    return spans


paces = st.one_of(st.sampled_from(PACES), st.floats(1.0, 14 * DAY))


# -- properties ----------------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(hours=playing_hours(), since=instants, pace=paces, data=st.data())
def test_the_clock_runs_exactly_the_pace_until_the_deadline(
    hours: PlayingHours, since: float, pace: float, data: st.DataObject
) -> None:
    vacations = data.draw(vacations_near(since))
    end = deadline(since, pace, hours, vacations)
    assert end >= since
    assert running(since, end, hours, vacations) == pytest.approx(pace, rel=1e-6)
    assert running(since, end - 1.0, hours, vacations) < pace  # the earliest such instant


@settings(max_examples=200, deadline=None)
@given(hours=playing_hours(), since=instants, first=paces, second=paces, data=st.data())
def test_the_deadline_grows_with_the_pace(
    hours: PlayingHours, since: float, first: float, second: float, data: st.DataObject
) -> None:
    vacations = data.draw(vacations_near(since))
    low, high = sorted((first, second))
    assert deadline(since, low, hours, vacations) <= deadline(since, high, hours, vacations)


@settings(max_examples=200, deadline=None)
@given(zone=st.sampled_from(ZONES), since=instants, pace=paces)
def test_a_clock_that_always_runs_ends_after_the_pace_in_real_seconds(zone: str, since: float, pace: float) -> None:
    assert deadline(since, pace, ALWAYS) == pytest.approx(since + pace, abs=1e-6)
    assert deadline(since, pace, PlayingHours(zone)) == pytest.approx(since + pace, abs=1e-6)
    assert running(since, since + pace, PlayingHours(zone)) == pytest.approx(pace, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(hours=playing_hours(), now=instants, data=st.data())
def test_paused_and_resumes_agree_with_running(hours: PlayingHours, now: float, data: st.DataObject) -> None:
    vacations = data.draw(vacations_near(now))
    why = paused(now, hours, vacations)
    back = resumes(now, hours, vacations)
    if any(start <= now < end for start, end in vacations):
        assert why == "vacation"
    if why is None:
        assert back == now
        assert running(now, now + 0.5, hours, vacations) > 0
    else:
        assert back > now
        assert running(now, back, hours, vacations) == 0
        assert paused(back, hours, vacations) is None
        assert running(back, back + 0.5, hours, vacations) > 0


@settings(max_examples=200, deadline=None)
@given(hours=playing_hours(), since=instants, data=st.data())
def test_the_clock_never_runs_during_a_vacation(hours: PlayingHours, since: float, data: st.DataObject) -> None:
    vacations = data.draw(vacations_near(since))
    for start, end in vacations:
        assert running(start, end, hours, vacations) == 0
    far = since + 40 * DAY
    assert 0 <= running(since, far, hours, vacations) <= running(since, far, hours)


@settings(max_examples=200, deadline=None)
@given(hours=playing_hours(NO_DST_ZONES), now=instants)
def test_the_clock_runs_only_inside_the_local_playing_hours(hours: PlayingHours, now: float) -> None:
    minute = local_minute(now, hours.zone)
    if hours.start < hours.end:
        inside = hours.start <= minute < hours.end
    else:
        inside = minute >= hours.start or minute < hours.end
    assert (paused(now, hours) is None) == inside
    assert (paused(now, hours) == "night") == (not inside)


@settings(max_examples=200, deadline=None)
@given(hours=playing_hours(), a=instants, cuts=st.tuples(st.floats(0, 5 * DAY), st.floats(0, 5 * DAY)), data=st.data())
def test_running_time_adds_up_over_consecutive_spans(
    hours: PlayingHours, a: float, cuts: tuple[float, float], data: st.DataObject
) -> None:
    vacations = data.draw(vacations_near(a))
    b, c = a + cuts[0], a + cuts[0] + cuts[1]
    whole = running(a, c, hours, vacations)
    assert whole == pytest.approx(running(a, b, hours, vacations) + running(b, c, hours, vacations), abs=1e-6)
    assert 0 <= whole <= c - a + 1e-6
    assert running(c, a, hours, vacations) == 0


# -- golden examples -----------------------------------------------------------------------------------------------


def test_a_move_started_on_friday_evening_ends_on_saturday_evening() -> None:
    since = at("Europe/Paris", 2024, 6, 14, 20)  # a Friday, 20:00 local: one hour left of the day's window
    end = deadline(since, 12 * HOUR, PARIS_DAY)
    assert end == at("Europe/Paris", 2024, 6, 15, 20) == utc(2024, 6, 15, 18)
    assert paused(at("Europe/Paris", 2024, 6, 14, 22), PARIS_DAY) == "night"
    assert resumes(at("Europe/Paris", 2024, 6, 14, 22), PARIS_DAY) == utc(2024, 6, 15, 7)


def test_a_move_across_the_spring_daylight_saving_change_keeps_local_hours() -> None:
    # Europe/Paris goes from 02:00 CET to 03:00 CEST on Sunday 31 March 2024 (01:00 UTC), outside the window
    since = at("Europe/Paris", 2024, 3, 30, 20)
    assert since == utc(2024, 3, 30, 19)
    assert deadline(since, 12 * HOUR, PARIS_DAY) == utc(2024, 3, 31, 18)  # Sunday 20:00 CEST, 23 real hours on
    friday = at("Europe/Paris", 2024, 3, 29, 20)
    assert deadline(friday, DAY, PARIS_DAY) == utc(2024, 3, 31, 18)  # 1 h Friday, 12 h Saturday, 11 h Sunday


def test_a_window_holding_a_daylight_saving_change_counts_its_real_hours() -> None:
    mornings = PlayingHours("Europe/Paris", 0, 12 * 60)
    spring = (at("Europe/Paris", 2024, 3, 31), at("Europe/Paris", 2024, 4, 1))  # 23 real hours
    autumn = (at("Europe/Paris", 2024, 10, 27), at("Europe/Paris", 2024, 10, 28))  # 25 real hours
    assert spring[1] - spring[0] == 23 * HOUR and autumn[1] - autumn[0] == 25 * HOUR
    assert running(*spring, mornings) == 11 * HOUR
    assert running(*autumn, mornings) == 13 * HOUR
    assert deadline(spring[0], 12 * HOUR, mornings) == at("Europe/Paris", 2024, 4, 1, 1)  # 11 h Sunday, 1 h Monday
    lord_howe = PlayingHours("Australia/Lord_Howe", 0, 12 * 60)  # a 30-minute change
    spring = (at("Australia/Lord_Howe", 2024, 10, 6), at("Australia/Lord_Howe", 2024, 10, 7))
    autumn = (at("Australia/Lord_Howe", 2024, 4, 7), at("Australia/Lord_Howe", 2024, 4, 8))
    assert running(*spring, lord_howe) == 11.5 * HOUR
    assert running(*autumn, lord_howe) == 12.5 * HOUR


def test_a_window_opening_in_a_skipped_hour_opens_when_the_clock_jumps() -> None:
    hours = PlayingHours("Europe/Paris", 2 * 60 + 30, 21 * 60)  # 02:30 does not exist on 31 March 2024
    assert resumes(utc(2024, 3, 30, 23), hours) == utc(2024, 3, 31, 1)  # the jump from 02:00 CET to 03:00 CEST
    assert paused(utc(2024, 3, 31, 0, 59), hours) == "night"
    assert paused(utc(2024, 3, 31, 1), hours) is None
    # a repeated hour: the window opens at the first 02:30 (CEST, 00:30 UTC)
    assert resumes(utc(2024, 10, 26, 23), hours) == utc(2024, 10, 27, 0, 30)


def test_a_window_over_midnight_runs_from_evening_into_the_next_day() -> None:
    evenings = PlayingHours("UTC", 18 * 60, 2 * 60)
    assert evenings.minutes == 8 * 60
    since = utc(2024, 6, 3, 1)  # Monday 01:00, in Sunday's window
    # 1 h to Monday 02:00, 8 h from Monday 18:00 to Tuesday 02:00, 3 h from Tuesday 18:00
    assert deadline(since, 12 * HOUR, evenings) == utc(2024, 6, 4, 21)
    assert paused(utc(2024, 6, 3, 1, 59), evenings) is None
    assert paused(utc(2024, 6, 3, 2), evenings) == "night"
    assert paused(utc(2024, 6, 3, 23), evenings) is None
    assert running(utc(2024, 6, 3), utc(2024, 6, 4), evenings) == 8 * HOUR
    paris = PlayingHours("Europe/Paris", 18 * 60, 2 * 60)
    assert deadline(at("Europe/Paris", 2024, 6, 3, 1), 12 * HOUR, paris) == at("Europe/Paris", 2024, 6, 4, 21)


def test_a_vacation_in_the_middle_adds_exactly_its_overlap_with_the_windows() -> None:
    days = PlayingHours("UTC", 9 * 60, 21 * 60)
    since = utc(2024, 6, 3, 9)  # Monday 09:00
    assert deadline(since, 3 * DAY, days) == utc(2024, 6, 8, 21)  # six windows of 12 hours: Saturday 21:00
    vacation = (utc(2024, 6, 4, 15), utc(2024, 6, 5, 12))  # Tuesday 15:00 to Wednesday 12:00
    assert running(*vacation, days) == 9 * HOUR  # 6 hours on Tuesday, 3 on Wednesday
    assert deadline(since, 3 * DAY, days, [vacation]) == utc(2024, 6, 9, 18)  # Sunday 09:00 + 9 hours
    assert paused(utc(2024, 6, 4, 16), days, [vacation]) == "vacation"
    assert paused(utc(2024, 6, 4, 22), days, [vacation]) == "vacation"  # vacation wins over night
    assert resumes(utc(2024, 6, 4, 16), days, [vacation]) == utc(2024, 6, 5, 12)


def test_overlapping_unsorted_and_backwards_vacations_are_merged() -> None:
    days = PlayingHours("UTC", 9 * 60, 21 * 60)
    since = utc(2024, 6, 3, 9)
    merged = [(utc(2024, 6, 4, 15), utc(2024, 6, 5, 12))]
    messy = [
        (utc(2024, 6, 5, 10), utc(2024, 6, 5, 12)),
        (utc(2024, 6, 4, 15), utc(2024, 6, 5)),
        (utc(2024, 6, 4, 20), utc(2024, 6, 5, 11)),
        (utc(2024, 6, 7, 12), utc(2024, 6, 7, 10)),  # backwards: ignored
        (utc(2024, 6, 7, 12), utc(2024, 6, 7, 12)),  # empty: ignored
    ]
    assert deadline(since, 3 * DAY, days, messy) == deadline(since, 3 * DAY, days, merged) == utc(2024, 6, 9, 18)
    assert running(since, utc(2024, 6, 10), days, messy) == running(since, utc(2024, 6, 10), days, merged)


def test_a_move_starting_on_vacation_starts_counting_at_the_next_opening() -> None:
    vacation = (utc(2024, 6, 1), utc(2024, 6, 3, 12))
    days = PlayingHours("UTC", 9 * 60, 21 * 60)
    assert deadline(utc(2024, 6, 2), 12 * HOUR, days, [vacation]) == utc(2024, 6, 4, 12)  # 9 h Monday, 3 h Tuesday


def test_a_long_pace_with_short_windows_and_vacations_is_walked_day_by_day() -> None:
    hours = PlayingHours("Pacific/Chatham", 20 * 60, 4 * 60)
    since = at("Pacific/Chatham", 2024, 3, 1, 12)
    vacations = [
        (since + 4 * DAY, since + 9 * DAY),
        (since + 2 * DAY, since + 5 * DAY),
        (since + 60 * DAY, since + 90 * DAY),
    ]
    began = time.perf_counter()
    end = deadline(since, 14 * DAY, hours, vacations)
    assert time.perf_counter() - began < 1.0
    assert running(since, end, hours, vacations) == pytest.approx(14 * DAY, rel=1e-9)
    assert since + 14 * 3 * DAY < end < since + 14 * 3 * DAY + 60 * DAY  # 8 h a day, plus the vacations


def test_a_clock_that_could_never_run_out_is_refused() -> None:
    with pytest.raises(InvalidOptionsError, match="never runs again"):
        deadline(utc(2024, 1, 1), DAY, ALWAYS, [(utc(2023, 1, 1), float("inf"))])
    with pytest.raises(InvalidOptionsError, match="never runs again"):
        resumes(utc(2024, 1, 1), ALWAYS, [(utc(2023, 1, 1), float("inf"))])
    with pytest.raises(InvalidOptionsError, match="pace=-1"):
        deadline(utc(2024, 1, 1), -1, ALWAYS)
    assert deadline(utc(2024, 1, 1), 0, ALWAYS) == utc(2024, 1, 1)


def test_local_minute_reads_the_local_wall_clock() -> None:
    assert local_minute(utc(2024, 6, 14, 18, 30), "Europe/Paris") == 20 * 60 + 30
    assert local_minute(utc(2024, 6, 14, 18, 30), "Asia/Kolkata") == 0  # UTC+05:30: midnight
    assert local_minute(utc(2024, 6, 14, 18, 30), "UTC") == 18 * 60 + 30


# -- options and their refusals ------------------------------------------------------------------------------------


def test_paces_and_their_words() -> None:
    assert [pace_words(pace) for pace in PACES] == [
        "12 hours",
        "1 day",
        "2 days",
        "3 days",
        "5 days",
        "7 days",
        "14 days",
    ]
    assert check_pace(86400) == 86400.0
    assert isinstance(check_pace(86400), float)
    assert check_pace(43200.0) == 43200.0


@pytest.mark.parametrize("value", [100, 86401, True, "86400", None, float("nan")])
def test_a_pace_not_among_the_choices_is_refused_with_the_choices_in_words(value: object) -> None:
    with pytest.raises(InvalidOptionsError) as refusal:
        check_pace(value)
    message = str(refusal.value)
    assert f"pace={value!r}" in message
    assert "12 hours, 1 day, 2 days, 3 days, 5 days, 7 days, 14 days" in message


def test_on_timeout_choices() -> None:
    assert ON_TIMEOUT == ("bot", "adjourn", "lose")
    for choice in ON_TIMEOUT:
        assert check_on_timeout(choice) == choice
    with pytest.raises(InvalidOptionsError) as refusal:
        check_on_timeout("maybe")
    message = str(refusal.value)
    assert "on_timeout='maybe'" in message
    assert all(f"'{choice}'" in message for choice in ON_TIMEOUT)


@pytest.mark.parametrize("zone", ["../etc/passwd", "Not/AZone", "", "/etc/localtime", "Europe/Pärïs", "A" * 65, 3])
def test_an_unknown_or_unsafe_zone_is_refused(zone: object) -> None:
    with pytest.raises(InvalidOptionsError) as refusal:
        PlayingHours(zone)  # type: ignore[arg-type]
    assert f"zone={zone!r}" in str(refusal.value)
    assert "IANA time zone" in str(refusal.value)
    with pytest.raises(InvalidOptionsError, match="IANA time zone"):
        local_minute(0.0, zone)  # type: ignore[arg-type]


def test_a_window_shorter_than_eight_hours_is_refused() -> None:
    with pytest.raises(InvalidOptionsError) as refusal:
        PlayingHours("Europe/Paris", 9 * 60, 11 * 60)
    message = str(refusal.value)
    assert "09:00-11:00" in message and "start=540, end=660" in message
    assert "120 minutes" in message and "at least 8 hours" in message
    with pytest.raises(InvalidOptionsError, match="at least 8 hours"):
        PlayingHours("UTC", 23 * 60, 60)  # over midnight, 2 hours
    assert PlayingHours("UTC", 22 * 60, 6 * 60).minutes == MIN_WINDOW


def test_a_window_starting_and_ending_at_the_same_minute_is_refused() -> None:
    with pytest.raises(InvalidOptionsError, match=r"start=600, end=600: .*start=0, end=1440"):
        PlayingHours("UTC", 600, 600)


@pytest.mark.parametrize(
    ("field", "value"),
    [("start", True), ("end", False), ("start", 1.5), ("start", -1), ("start", 1440), ("end", 0), ("end", 1441)],
)
def test_window_bounds_must_be_whole_minutes_in_range(field: str, value: object) -> None:
    with pytest.raises(InvalidOptionsError) as refusal:
        PlayingHours(**{field: value})  # type: ignore[arg-type]
    assert f"playing hours {field}={value!r}: expected a whole number of minutes" in str(refusal.value)
