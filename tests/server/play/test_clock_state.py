"""The clock's arithmetic (server/play/clocks.py): banks, timeouts in a row, pauses, copies."""

from __future__ import annotations

from roppyakken.server.play.clocks import CONTROLS, Clock


def test_a_move_beyond_its_own_time_comes_out_of_the_bank() -> None:
    clock = Clock.new("15+60", 2)
    clock.start_turn(0, 0, now=1000.0)
    assert clock.deadline == 1075.0
    clock.moved(0, now=1020.0)  # 5 s beyond the move's 15
    assert clock.banks == [55.0, 60.0]
    clock.start_turn(1, 1, now=1020.0)
    clock.moved(1, now=1030.0)  # within the move's time: the bank is untouched
    assert clock.banks == [55.0, 60.0]


def test_two_timeouts_in_a_row_abandon_in_real_time_one_turn_based() -> None:
    real = Clock.new("30+120", 3)
    assert real.timed_out(2, 7) is False and real.away[2] and real.banks[2] == 0.0
    assert real.timed_out(2, 10) is True and real.abandoned == [False, False, True]
    assert real.by_clock == [[7, 2], [10, 2]]
    back = Clock.new("30+120", 2)
    back.timed_out(1, 3)
    back.moved(1, now=0.0)  # the player came back and moved: the next timeout is the first again
    assert back.timed_out(1, 9) is False
    turn = Clock.new("3d", 2)
    assert turn.timed_out(0, 0) is True


def test_a_pause_gives_back_the_stopped_time_and_a_copy_is_independent() -> None:
    clock = Clock.new("1d", 2, scale=0.5)
    assert clock.per_move == CONTROLS["1d"].per_move / 2
    clock.start_turn(1, 4, now=100.0)
    clock.pause(now=160.0)
    assert clock.paused == clock.per_move - 60.0
    copy = clock.copy()
    assert copy.resume(now=1000.0) and copy.deadline == 1000.0 + clock.per_move - 60.0
    assert clock.paused is not None and clock.deadline == 100.0 + clock.per_move
    copy.banks[0] = -1.0
    assert clock.banks[0] != -1.0
    assert Clock.from_json(clock.to_json()) == clock
    none = Clock.new("none", 2)
    none.start_turn(0, 0, now=5.0)
    assert not none.timed and none.deadline is None and none.next_deadline() is None


def test_a_dead_holder_s_outage_is_given_back_from_its_last_sign_of_life_or_the_turn_s_start() -> None:
    clock = Clock.new("15+60", 2)
    clock.start_turn(0, 0, now=1000.0)  # deadline 1075
    assert clock.give_back(alive_at=1010.0, now=1030.0) == 20.0  # dead since 1010 at most
    assert (clock.deadline, clock.started) == (1095.0, 1020.0)
    later = Clock.new("15+60", 2)
    later.start_turn(1, 4, now=1000.0)
    # the turn started after the last beat: the holder was alive then, so only since the turn
    assert later.give_back(alive_at=990.0, now=1010.0) == 10.0 and later.deadline == 1085.0
    spent = Clock.new("15+60", 2)
    spent.start_turn(0, 0, now=1000.0)
    spent.give_back(alive_at=1100.0, now=1110.0)  # its time was up before the holder died
    assert spent.deadline is not None and spent.deadline < 1110.0  # still up: nothing was owed
    paused = Clock.new("15+60", 2)
    paused.start_turn(0, 0, now=1000.0)
    paused.pause(now=1005.0)
    assert paused.give_back(alive_at=1005.0, now=1050.0) == 0.0  # a clean stop: resumed instead
    idle = Clock.new("15+60", 2)
    assert idle.give_back(alive_at=0.0, now=10.0) == 0.0  # no clock runs
