"""The playban ladder (server/people/playban.py): a warning first, then bans that grow when repeated soon,
shrink after a clean stretch, stay within 10 minutes and 3 days, and scale with ``--clock-scale``."""

from __future__ import annotations

import pytest

from roppyakken.server.people.playban import (
    BASE_MINUTES,
    CAP_MINUTES,
    HISTORY,
    REPEAT_WINDOW,
    ladder,
    next_minutes,
    playban,
)

HOUR = 3600.0
DAY = 86_400.0
T0 = 1_800_000_000.0


def test_a_first_abandonment_is_only_a_warning() -> None:
    assert ladder([T0], T0 + 1) == []
    assert playban([T0], T0 + 1) is None


def test_repeats_in_an_evening_cost_10_then_22_then_48_minutes() -> None:
    times = [T0, T0 + HOUR, T0 + 2 * HOUR, T0 + 3 * HOUR]
    minutes = [round(m, 1) for _, m in ladder(times, T0 + 4 * HOUR)]
    # each abandonment comes after the last ban ended: h is the hours since, close to 0 here
    assert minutes[0] == BASE_MINUTES
    assert 21.0 < minutes[1] <= 22.0
    assert 46.0 < minutes[2] <= 48.4


def test_a_ban_is_in_effect_from_the_abandonment_for_its_minutes() -> None:
    times = [T0, T0 + HOUR]
    ban = playban(times, T0 + HOUR + 60)
    assert ban is not None
    assert ban.until == pytest.approx(T0 + HOUR + BASE_MINUTES * 60)
    assert ban.left(T0 + HOUR + 60) == pytest.approx(9 * 60)
    assert ban.recent == 2
    assert ban.to_json(T0 + HOUR + 60)["seconds"] == 540
    assert playban(times, T0 + HOUR + BASE_MINUTES * 60 + 1) is None


def test_a_repeat_after_the_window_is_a_warning_again() -> None:
    times = [T0, T0 + REPEAT_WINDOW + HOUR]
    assert ladder(times, times[-1] + 1) == []


def test_abandonments_older_than_the_history_are_forgotten() -> None:
    times = [T0, T0 + HOUR, T0 + 2 * HOUR]
    late = T0 + HISTORY + 3 * HOUR
    assert ladder(times, late) == []


def test_the_multiplier_falls_from_2_2_to_1_over_three_days_then_decays() -> None:
    assert next_minutes(None, 0) == BASE_MINUTES
    assert next_minutes(100, 0) == pytest.approx(220)
    assert next_minutes(100, 36) == pytest.approx(160)
    assert next_minutes(100, 71.9) == pytest.approx(100.1, abs=0.2)
    decayed = [next_minutes(100, h) for h in (72, 240, 480, 720)]
    assert decayed == sorted(decayed, reverse=True)
    assert decayed[-1] == pytest.approx(BASE_MINUTES, abs=0.5), "about 10 minutes after 30 clean days"


def test_bans_never_exceed_three_days_nor_fall_below_ten_minutes() -> None:
    assert next_minutes(CAP_MINUTES, 0) == CAP_MINUTES
    assert next_minutes(BASE_MINUTES, 5000) == BASE_MINUTES
    times = [T0 + i * 60 for i in range(30)]
    assert max(m for _, m in ladder(times, times[-1])) == CAP_MINUTES


def test_the_clock_scale_shortens_every_duration_alike() -> None:
    scale = 0.01
    times = [T0, T0 + 60 * scale]
    ban = playban(times, times[-1] + 1, scale)
    assert ban is not None
    assert ban.until - times[-1] == pytest.approx(BASE_MINUTES * 60 * scale)
    # the repeat window is scaled too: 7 days become under two hours
    assert ladder([T0, T0 + REPEAT_WINDOW * scale + 1], T0 + REPEAT_WINDOW * scale + 2, scale) == []
