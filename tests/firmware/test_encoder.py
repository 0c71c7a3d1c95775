# Encoder driver on the simulated KY-040: detents, partial turns, bounce, the push button, no allocation in the IRQ.
import micropython

import halsim
from drivers.encoder import Encoder
from halsim import drain


def test_one_detent_each_way():
    hw, board = halsim.make()
    enc = board.encoder
    hw.knob.turn(1)
    assert drain(enc.poll, 0) == ["CW"]
    hw.knob.turn(-1)
    assert drain(enc.poll, 0) == ["CCW"]
    assert drain(enc.poll, 0) == []


def test_several_detents_give_one_event_each():
    hw, board = halsim.make()
    hw.knob.turn(3)
    assert drain(board.encoder.poll, 0) == ["CW"] * 3
    hw.knob.turn(-5)
    assert drain(board.encoder.poll, 0) == ["CCW"] * 5


def test_partial_detents_give_nothing_until_completed():
    hw, board = halsim.make()
    enc = board.encoder
    for _ in range(3):
        hw.knob.step(1)
        assert drain(enc.poll, 0) == []
    for _ in range(3):
        hw.knob.step(-1)  # and back to the detent it left
    assert drain(enc.poll, 0) == []
    for _ in range(3):
        hw.knob.step(-1)
    assert drain(enc.poll, 0) == []
    hw.knob.step(-1)  # the fourth transition completes the click
    assert drain(enc.poll, 0) == ["CCW"]


def test_contact_bounce_cancels_out():
    hw, board = halsim.make()
    for _ in range(4):
        for _ in range(5):  # each contact chatters before it settles
            hw.knob.step(1)
            hw.knob.step(-1)
        hw.knob.step(1)
    assert drain(board.encoder.poll, 0) == ["CW"]


def test_push_gives_push_once_after_debounce():
    hw, board = halsim.make()
    poll = board.encoder.poll
    hw.knob.push()
    assert drain(poll, 0) == []
    assert drain(poll, 10) == []
    assert drain(poll, 20) == ["PUSH"]
    for t in range(30, 3000, 10):  # held: no repeat
        assert drain(poll, t) == []
    hw.knob.release()
    for t in range(3000, 3100, 10):
        assert drain(poll, t) == []
    hw.knob.push()
    got = []
    for t in range(3100, 3200, 10):
        got += drain(poll, t)
    assert got == ["PUSH"]


def test_button_bounce_shorter_than_the_window_gives_nothing():
    hw, board = halsim.make()
    poll = board.encoder.poll
    got = []
    for t in range(0, 400, 10):
        if t // 10 % 2:
            hw.knob.release()
        else:
            hw.knob.push()
        got += drain(poll, t)
    hw.knob.release()
    for t in range(400, 500, 10):
        got += drain(poll, t)
    assert got == []


def test_turning_while_pushed_gives_both():
    hw, board = halsim.make()
    poll = board.encoder.poll
    hw.knob.push()
    drain(poll, 0)
    hw.knob.turn(1)
    assert drain(poll, 30) == ["PUSH", "CW"]


def test_deinit_detaches_the_interrupts():
    hw, board = halsim.make()
    board.encoder.deinit()
    hw.knob.turn(2)
    assert drain(board.encoder.poll, 0) == []


class _FakePin:
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, level=1):
        self.level = level
        self.handler = None

    def value(self, v=None):
        return self.level

    def irq(self, handler=None, trigger=3):
        self.handler = handler


def test_the_interrupt_handler_and_poll_allocate_nothing():
    a, b, sw = _FakePin(), _FakePin(), _FakePin()
    enc = Encoder(a, b, sw)
    micropython.heap_lock()
    try:
        for _ in range(25):  # 25 clockwise detents, 100 edges
            for la, lb in ((0, 1), (0, 0), (1, 0), (1, 1)):
                a.level, b.level = la, lb
                a.handler(a)
        events = 0
        while enc.poll(0) is not None:
            events += 1
        sw.level = 0
        enc.poll(0)
        pushed = enc.poll(50)
    finally:
        micropython.heap_unlock()
    assert events == 25
    assert pushed == "PUSH"
