# The heap gate, every board: the short flows fit the chip's heap, and the simulator adds almost nothing to it.
#
# On the virtual chip (tests/host/heap_scenarios.py) each board profile plays the tour: a game
# with the table view, the language switched both ways during and after it, display sleep,
# contrast, the rules pages, the card values, the history opened, scrolled and a game
# deleted. It must run in one heap area of 64 KB (the budget) and in the board's own heap.
# A club evening's table (paired, Wi-Fi and the hub's broker up, the hub restarted and away for
# ten minutes) must run in the board's own heap, ESP-IDF's share for Wi-Fi and the socket taken.
# With the firmware replaced by nothing, what the simulator holds in the chip's heap is within
# 2 KB of the same build's bare start, with the stand-ins of the USB serial or the Wi-Fi too
# (the Wi-Fi's adds nothing, C as on the chip): the board (displays, glass, keys) is outside it.
import pytest

import heap_scenarios
from needs import needs_device_build
from tafel_host.sim import runtime as sim_runtime
from tafel_host.sim.launcher import find_micropython

BUDGET = 64 * 1024

pytestmark = needs_device_build()


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    return heap_scenarios.Scenarios(tmp_path_factory.mktemp("heap-gate-boards"))


@pytest.mark.parametrize("board", heap_scenarios.BOARDS)
def test_every_short_flow_fits_64_kb_on_every_board(scenarios, board):
    result = scenarios.run("tour", board, BUDGET, watch=False)
    assert result.ok, "%s: the tour does not fit %d KB in one area: %s" % (board, BUDGET // 1024, result.why)


@pytest.mark.parametrize("board", heap_scenarios.BOARDS)
def test_every_short_flow_fits_the_boards_own_heap(scenarios, board):
    _, heap, system = sim_runtime.board_python(heap_scenarios.board_path(board))
    result = scenarios.run("tour", board, heap, system)
    assert result.ok, "%s: %s" % (board, result.why)
    assert result.peak > 0 and result.stack > 0


@pytest.mark.parametrize("board", heap_scenarios.BOARDS)
def test_a_club_evenings_table_runs_in_the_boards_own_heap(scenarios, board):
    pytest.importorskip("amqtt", reason="the club extra: pip install -e '.[club]' (make's .venv has it)")
    _, heap, system = sim_runtime.board_python(heap_scenarios.board_path(board))
    result = scenarios.run("club", board, heap, system)
    assert result.ok, "%s: %s" % (board, result.why)
    assert result.peak > 0 and result.idf_least > 0


@pytest.mark.parametrize("board", heap_scenarios.BOARDS)
def test_the_simulator_holds_under_2_kb_of_the_chips_heap(scenarios, board):
    idle, bare = scenarios.idle(board)
    assert idle is not None and idle - bare < 2048, (idle, bare)


@pytest.mark.parametrize("flow", ["usb", "wifi"])
def test_with_the_usb_serials_or_the_wifis_stand_ins_too(scenarios, flow):
    # The USB serial's (the REPL beside the link, its pipes) and the Wi-Fi station's (network.WLAN
    # and the sockets, C on the chip) are the simulator's too, and are the same on every board.
    idle, bare = scenarios.idle(heap_scenarios.BOARDS[0], flow)
    assert idle is not None and idle - bare < 2048, (flow, idle, bare)
    if flow == "wifi":  # the station is C as on the chip (simchip.WLAN, simnet.c): it adds nothing
        without, _ = scenarios.idle(heap_scenarios.BOARDS[0])
        assert idle - without <= 16, (idle, without)


@pytest.mark.parametrize("board", heap_scenarios.BOARDS)
def test_the_host_port_passes_what_the_chip_passes(scenarios, board):
    # Without the device build, tafel sim runs the PyPI unix port (64-bit, the application from
    # source) in the board's heap scaled by HOST_SCALE, an approximation: it must never fail a flow
    # the virtual chip passes. The short flows, there, in that heap:
    runtime = sim_runtime.choose(heap_scenarios.board_path(board), heap_scenarios.ROOT, find_micropython, "host")
    result = scenarios.run("tour", board, runtime.heap, None, "host")
    assert result.ok, "%s: the tour fails on the host port in %d KB: %s" % (board, runtime.heap // 1024, result.why)
