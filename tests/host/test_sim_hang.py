# The simulator's hang detection (host_tools/sim/hang.py): the chip's own CPU time counts, not the laptop's load.
import subprocess
import sys

import pytest

from tafel_host.sim.hang import STALL_S, Unfed, cpu_seconds


class FakeChip:
    """CPU seconds a chip process has used, set by the test."""

    def __init__(self):
        self.cpu = 0.0

    def __call__(self, pid):
        return self.cpu


def test_a_chip_slowed_by_a_busy_laptop_is_not_hung():
    chip = FakeChip()
    unfed = Unfed(chip)
    unfed.start(4242)
    unfed.waiting(9.0)  # nine seconds of the wall clock waiting for a start...
    chip.cpu = 1.5  # ...of which the chip ran 1.5 (the laptop was busy with other work)
    assert unfed.seconds() == 1.5 and not unfed.hung(2.5)


def test_a_chip_that_works_without_feeding_is_hung_after_the_timeout_of_its_own_work():
    chip = FakeChip()
    unfed = Unfed(chip)
    unfed.start(4242)
    chip.cpu = 2.4
    unfed.waiting(2.4)
    assert not unfed.hung(2.5)
    chip.cpu = 2.6
    unfed.waiting(0.2)
    assert unfed.hung(2.5)
    unfed.fed()  # a feed starts the count again from the chip's time now
    assert unfed.seconds() == 0.0 and not unfed.hung(2.5)


def test_a_chip_that_waits_without_working_is_hung_after_the_stall_time():
    chip = FakeChip()
    unfed = Unfed(chip)
    unfed.start(4242)
    unfed.waiting(STALL_S - 1)
    assert not unfed.hung(2.5)
    unfed.waiting(2)
    assert unfed.hung(2.5)


def test_where_the_cpu_time_is_not_known_the_wall_clock_spent_waiting_counts():
    unfed = Unfed(lambda pid: None)
    unfed.start(4242)
    unfed.waiting(2.0)
    assert unfed.seconds() == 2.0 and not unfed.hung(2.5)
    unfed.waiting(1.0)
    assert unfed.hung(2.5)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: the CPU time is Linux's here")
def test_cpu_seconds_are_the_processes_own_work():
    # A child that works for a while, says so, then waits on its input without working.
    child = subprocess.Popen([sys.executable, "-c", "sum(range(3 * 10 ** 7)); print('worked', flush=True); input()"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "worked\n"
        worked = cpu_seconds(child.pid)
        assert worked > 0.1
        assert cpu_seconds(child.pid) - worked < 0.05  # waiting costs it nothing
    finally:
        child.communicate("\n")
    assert cpu_seconds(child.pid) is None  # gone
