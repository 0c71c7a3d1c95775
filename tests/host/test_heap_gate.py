# The heap gate, long flows: an evening, an export, two updates fit the chip's heap (docs/design.md section 8).
#
# Played on the virtual chip (the 32-bit device build: the application frozen in as the image
# ships it, the board outside the chip's heap; tests/host/heap_scenarios.py) on the default
# board, in one heap area of 64 KB, the budget: a MemoryError, a C stack that runs out or a
# wrong screen fails. The Wi-Fi update also runs in the board's own heap (56 KB growing from
# the modelled ESP-IDF heap, Wi-Fi and its sockets taking their share). Every board's short
# flows are in test_heap_gate_boards.py; bench/device_heap.py (make heap) prints the figures.
# Where the build is missing the gate is skipped and says how to build it; CI builds it and
# sets TAFEL_REQUIRE_DEVICE_BUILD, so there it never skips.
import pytest

import heap_scenarios
from needs import needs_device_build
from tafel_host.sim import runtime as sim_runtime

BUDGET = 64 * 1024

pytestmark = needs_device_build()


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    return heap_scenarios.Scenarios(tmp_path_factory.mktemp("heap-gate"))


def within_budget(scenarios, name):
    result = scenarios.run(name, heap_scenarios.BOARD, BUDGET, watch=False)
    assert result.ok, "%s does not fit %d KB in one area: %s" % (name, BUDGET // 1024, result.why)


def test_an_evening_of_ten_seats_and_300_rounds_fits(scenarios):
    within_budget(scenarios, "evening")


def test_an_export_of_100_games_fits(scenarios):
    within_budget(scenarios, "export")


def test_an_update_over_usb_fits_and_the_new_version_runs(scenarios):
    within_budget(scenarios, "usb")


def test_an_update_over_wifi_fits_and_the_new_version_runs(scenarios):
    within_budget(scenarios, "wifi")


def test_an_update_over_wifi_fits_the_boards_heap_with_wifi_up(scenarios):
    board = heap_scenarios.board_path(heap_scenarios.BOARD)
    _, heap, system = sim_runtime.board_python(board)
    result = scenarios.run("wifi", heap_scenarios.BOARD, heap, system)
    assert result.ok, result.why
    assert 0 < result.idf_least < 177872  # Wi-Fi and the sockets took their share of ESP-IDF's heap
    assert result.stack > 0 and result.peak > 0


def test_the_gate_fails_when_the_heap_is_too_small(scenarios):
    # The gate can fail: the same evening in far less than the firmware needs runs out of memory.
    assert not scenarios.run("evening", heap_scenarios.BOARD, 32 * 1024, watch=False).ok
