# The main loop's step (runner.py): keys and knob turns reach the app in order, then it ticks and draws.
import halsim
from drivers.events import EventQueue
from runner import Runner


class _App:
    """What the runner asks of the app: key(), tick(), render(), its store and its club link."""

    club = None  # a paired table's (club/table.py), stepped by the runner

    def __init__(self):
        self.keys = []
        self.ticks = 0
        self.renders = 0
        self.store = None

    def key(self, k):
        self.keys.append(k)

    def tick(self):
        self.ticks += 1

    def render(self):
        self.renders += 1


def _steps(runner, start, end):
    for now in range(start, end, 10):
        runner.step(now)
    return end


def test_keypad_and_knob_events_reach_the_app_in_the_order_they_came():
    hw, board = halsim.make()
    app = _App()
    runner = Runner(app, board, EventQueue())
    hw.matrix.press("0")
    now = _steps(runner, 0, 100)
    hw.matrix.release()
    hw.matrix.press("B")
    now = _steps(runner, now, 200)
    hw.matrix.release()
    hw.knob.turn(2)
    now = _steps(runner, now, 250)
    hw.knob.turn(-1)
    hw.knob.push()
    now = _steps(runner, now, 350)
    assert app.keys == ["0", "B", "CW", "CW", "CCW", "PUSH"]
    assert app.ticks == app.renders == 35  # every step ticks and draws, keys or not


def test_a_board_without_a_knob_still_reads_its_keypad():
    profile = halsim.profile()
    del profile["encoder"]
    hw, board = halsim.make(profile)
    app = _App()
    runner = Runner(app, board, EventQueue())
    hw.matrix.press("#")
    _steps(runner, 0, 100)
    assert app.keys == ["#"]
