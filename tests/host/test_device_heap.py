# The heap gate: the firmware fits an ESP32-WROOM's Python heap, as the 32-bit device build shows.
#
# On the 32-bit unix build of the MicroPython the ESP32 runs, with the application frozen
# in as the image ships it (firmware/port/README.md), in the board's own heap (56 KB that
# grows by 56 KB, the simulator's share granted beside it): an evening at the table, an
# export of 100 games, an update over USB and one over Wi-Fi must run without a
# MemoryError and end as they should (tests/host/heap_scenarios.py). Where the build is
# missing the gate is skipped and says how to build it; CI builds it (.ci/run), so there
# a firmware that outgrows the chip fails here. bench/device_heap.py prints the figures.
import pytest

import heap_scenarios
from tafel_host import sim_runtime

pytestmark = pytest.mark.skipif(
    heap_scenarios.device_build() is None,
    reason="the 32-bit device build is missing: make device-build (or make heap) builds it")


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    return heap_scenarios.Scenarios(tmp_path_factory.mktemp("device-heap"))


def in_the_boards_heap(scenarios, name):
    _, heap, growth = sim_runtime.board_python(heap_scenarios.BOARD)
    result = scenarios.run(name, heap, growth)
    assert result.ok, "%s does not fit %d + %d KB: %s" % (name, heap // 1024, growth // 1024, result.why)
    assert 0 < result.share < result.peak  # the simulator's share was measured and taken out
    return result


def test_an_evening_of_ten_seats_and_300_rounds_fits(scenarios):
    in_the_boards_heap(scenarios, "evening")


def test_an_export_of_100_games_fits(scenarios):
    in_the_boards_heap(scenarios, "export")


def test_an_update_over_usb_fits_and_the_new_version_runs(scenarios):
    in_the_boards_heap(scenarios, "usb")


def test_an_update_over_wifi_fits_and_the_new_version_runs(scenarios):
    in_the_boards_heap(scenarios, "wifi")


def test_the_gate_fails_when_the_heap_is_too_small(scenarios):
    # The gate can fail: the same evening in far less than the firmware needs runs out of memory.
    result = scenarios.run("evening", 24 * 1024, 0)
    assert not result.ok
