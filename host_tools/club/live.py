# The live board as the page shows it: each table's game from the history and its STATE, the evening's leaderboard.
#
# The hub's Board (board.py) knows per table its status, its last STATE and
# the latest game whose records came; the history holds that game whole (as
# ingest stored it). This turns both into the dict web.py serves (its header
# says the fields): players, totals, rounds, variant and target from the
# stored game, who deals next from the table's STATE, the minutes since the
# last round from when its record came. The leaderboard is leaderboard.rows()
# over this evening's games of the club's tables. publish_loop() sends a new
# board whenever the hub has taken a message, at most every PUBLISH_S, and
# every TICK_S regardless (the page's "minutes ago" and the hub's clock).
import asyncio
import time

from ..history.database import evening_of
from . import leaderboard

PUBLISH_S = 0.5
TICK_S = 30.0


def view(hub, stale_min, order, tournament=None, now=None):
    """The board's dict for the page. Only the games it shows are read (the tables' latest games and
    this evening's of the club), never the whole history: a club's year of games makes no board slower."""
    now = time.time() if now is None else now
    evening = evening_of(now)
    registry = hub.registry
    ours = {(g.device, g.game) for g in registry.games(hub.club, evening)}
    tables = hub.board.tables()
    shown = ours | {(t.device, t.game) for t in tables if t.game is not None}
    docs = {(g["device"], g["id"]): g for g in registry.history.games_of(shown)}
    rows = [_table(t, docs.get((t.device, t.game))) for t in tables]
    evening_games = [doc for key, doc in docs.items() if key in ours]
    return {"club": hub.club, "evening": evening, "now": int(now), "stale_min": stale_min, "tables": rows,
            "leaderboard": [{"variant": v, "rows": rows} for v, rows in leaderboard.rows(evening_games, order)],
            "tournament": tournament}


def _table(t, doc):
    state = t.state if t.state is not None and (doc is None or t.state[0] == doc["id"]) else None
    out = {"device": t.device, "table": t.name, "status": "online" if t.status == "online" else "offline",
           "finished": False, "variant": None, "target": None, "players": [], "totals": [], "round": 0,
           "dealer": None, "last_round": int(t.record_at) if t.record_at else None}
    if doc is not None:
        out.update(finished=bool(doc["finished"]), variant=doc["variant"], target=doc["target"],
                   players=list(doc["players"]), totals=list(doc["totals"]), round=len(doc["rounds"]))
    elif state is not None:
        _, rounds, _, finished, names, totals = state
        out.update(finished=finished, players=list(names), totals=list(totals), round=rounds)
    if state is not None and not out["finished"] and 0 <= state[2] < len(state[4]):
        out["dealer"] = state[4][state[2]]
    return out


async def publish_loop(hub, live, stale_min, order, tournament, stop):
    """Publish the board to `live` while the hub runs: after every message taken (hub.changed), and
    every TICK_S. `tournament()` gives the drawn round to show, or None."""
    last = 0.0
    while not stop.is_set():
        try:
            await asyncio.wait_for(hub.changed.wait(), TICK_S)
        except asyncio.TimeoutError:
            pass
        wait = PUBLISH_S - (time.monotonic() - last)
        if wait > 0:  # a burst of messages (a table catching up) is one board, not one per record
            await asyncio.sleep(wait)
        hub.changed.clear()
        live.publish(view(hub, stale_min, order, tournament()))
        last = time.monotonic()
