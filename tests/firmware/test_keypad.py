# Keypad driver on the simulated matrix: every key once, debounce, no repeat, chords and phantom keys.
import micropython
import pytest

import halsim
from drivers.keypad import Keypad

KEYS = "123A456B789C*0#D"


def _scan_for(kp, t, ms, out):
    """Scan every 10 ms for ms milliseconds from t; keys reported go to out; returns the new t."""
    end = t + ms
    while t < end:
        key = kp.scan(t)
        if key is not None:
            out.append(key)
        t += 10
    return t


def test_every_key_comes_out_once_as_its_character():
    hw, board = halsim.make()
    kp = board.keypad
    t = 0
    for key in KEYS:
        got = []
        hw.matrix.press(key)
        t = _scan_for(kp, t, 200, got)
        hw.matrix.release(key)
        t = _scan_for(kp, t, 200, got)
        assert got == [key], (key, got)


def test_a_key_counts_only_after_the_debounce_time():
    hw, board = halsim.make()
    kp = board.keypad
    assert kp.debounce_ms == 20 and kp.scan_ms == 10
    hw.matrix.press("7")
    assert kp.scan(0) is None  # first seen
    assert kp.scan(10) is None  # 10 ms stable: not yet
    assert kp.scan(20) == "7"  # 20 ms stable
    assert kp.scan(30) is None


def test_bounces_shorter_than_the_window_give_nothing():
    hw, board = halsim.make()
    kp = board.keypad
    got = []
    t = 0
    for _ in range(20):  # contact chatter: 10 ms closed, 10 ms open
        hw.matrix.press("3")
        t = _scan_for(kp, t, 10, got)
        hw.matrix.release("3")
        t = _scan_for(kp, t, 10, got)
    t = _scan_for(kp, t, 100, got)
    assert got == []


def test_a_bouncy_press_that_settles_counts_once():
    hw, board = halsim.make()
    kp = board.keypad
    got = []
    t = 0
    for _ in range(3):
        hw.matrix.press("9")
        t = _scan_for(kp, t, 10, got)
        hw.matrix.release("9")
        t = _scan_for(kp, t, 10, got)
    hw.matrix.press("9")
    t = _scan_for(kp, t, 300, got)
    hw.matrix.release("9")
    _scan_for(kp, t, 100, got)
    assert got == ["9"]


def test_a_held_key_does_not_repeat_but_a_new_press_counts_again():
    hw, board = halsim.make()
    kp = board.keypad
    got = []
    hw.matrix.press("#")
    t = _scan_for(kp, 0, 5000, got)
    assert got == ["#"]
    assert kp.is_down("#") and not kp.is_down("*")
    hw.matrix.release("#")
    t = _scan_for(kp, t, 100, got)
    assert not kp.is_down("#")
    hw.matrix.press("#")
    _scan_for(kp, t, 100, got)
    assert got == ["#", "#"]


def test_two_keys_pressed_together_both_come_out_once_in_key_order():
    hw, board = halsim.make()
    kp = board.keypad
    got = []
    hw.matrix.press("D")
    hw.matrix.press("2")
    t = _scan_for(kp, 0, 300, got)
    assert got == ["2", "D"]
    hw.matrix.release()
    _scan_for(kp, t, 100, got)
    assert got == ["2", "D"]


def test_rollover_a_second_key_while_the_first_is_held():
    hw, board = halsim.make()
    kp = board.keypad
    got = []
    hw.matrix.press("8")
    t = _scan_for(kp, 0, 100, got)
    hw.matrix.press("1")  # 8 still held
    t = _scan_for(kp, t, 100, got)
    hw.matrix.release("8")
    t = _scan_for(kp, t, 100, got)
    hw.matrix.release("1")
    _scan_for(kp, t, 100, got)
    assert got == ["8", "1"]


def test_two_keys_in_one_column_read_right_without_a_short():
    # Open-drain rows: the released row does not fight the one pulled low.
    hw, board = halsim.make()  # strict: a short would raise
    got = []
    hw.matrix.press("1")
    hw.matrix.press("7")
    _scan_for(board.keypad, 0, 100, got)
    assert got == ["1", "7"]
    assert hw.faults == []


def test_three_keys_in_an_l_never_report_the_phantom_fourth():
    # 1, 2, 4 held: 5 reads as pressed too (no diodes). Nothing new while 4 read down.
    hw, board = halsim.make()
    kp = board.keypad
    got = []
    hw.matrix.press("1")
    t = _scan_for(kp, 0, 100, got)
    hw.matrix.press("2")
    t = _scan_for(kp, t, 100, got)
    assert kp.read() == 0b11  # the first two positions
    hw.matrix.press("4")
    assert kp.read() == 0b110011  # 1, 2, 4 and the phantom 5
    t = _scan_for(kp, t, 300, got)
    hw.matrix.release("1")  # the phantom goes; 4 stays swallowed until pressed anew
    t = _scan_for(kp, t, 300, got)
    hw.matrix.release()
    _scan_for(kp, t, 100, got)
    assert got == ["1", "2"]


class _FakePin:
    def __init__(self, level=1):
        self.level = level

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v


def test_scan_allocates_nothing():
    rows = [_FakePin() for _ in range(4)]
    cols = [_FakePin() for _ in range(4)]
    kp = Keypad(rows, cols, ["123A", "456B", "789C", "*0#D"])
    cols[2].level = 0  # every row "sees" column 2 low: 4 keys, phantom rule included
    kp.scan(0)
    micropython.heap_lock()
    try:
        for t in range(0, 200, 10):
            kp.scan(t)
        cols[2].level = 1
        for t in range(200, 400, 10):
            kp.scan(t)
    finally:
        micropython.heap_unlock()
    cols[1].level = 0  # column 1 low under every row
    assert kp.read() == 0b0010001000100010


def test_keys_must_match_the_matrix():
    with pytest.raises(ValueError):
        Keypad([_FakePin()] * 4, [_FakePin()] * 4, ["123", "456", "789", "*0#"])
