# The live board's data: per table of the club, what it last said (online or offline, its game at a
# glance from STATE) and how far its records are stored. The hub's ingest updates it as messages
# come; a web page (a later step) reads board.tables() or board.snapshot(), in the hub's event loop.
# What it shows survives a restart: the last status and STATE per table are kept in the registry
# (club_live), the records' progress is the registry's club_games.
import logging

from tafel import club
from tafel.errors import RecordError

from .registry import Live

log = logging.getLogger("tafel.club")


class Table:
    """One table on the board. `state` is STATE decoded (game id, rounds, dealer seat, finished,
    names, totals) or None; `game` and `next_seq` the latest game whose records came, and how many
    of them are stored."""

    __slots__ = ("device", "name", "status", "status_at", "state", "state_at", "game", "next_seq", "record_at")

    def __init__(self, device, name):
        self.device = device
        self.name = name
        self.status = None
        self.status_at = None
        self.state = None
        self.state_at = None
        self.game = None
        self.next_seq = 0
        self.record_at = None

    def as_dict(self):
        """For a page: plain values only."""
        out = {key: getattr(self, key) for key in self.__slots__ if key != "state"}
        if self.state is not None:
            game, rounds, dealer, finished, names, totals = self.state
            out["state"] = {"game": game, "rounds": rounds, "dealer": dealer, "finished": finished,
                            "players": list(names), "totals": list(totals)}
        else:
            out["state"] = None
        return out


class Board:
    def __init__(self, registry, club_name):
        self.registry = registry
        self.club = club_name
        self._tables = {}
        for dev in registry.devices(club_name):
            self._tables[dev.device_id] = Table(dev.device_id, dev.table_name)
        for game in registry.games(club_name):
            table = self._tables.get(game.device)
            if table is not None:  # the latest game a table sent (games come oldest first)
                table.game, table.next_seq, table.record_at = game.game, game.next_seq, game.last_seen
        for live in registry.live():
            table = self._tables.get(live.device)
            if table is not None:
                table.status, table.status_at = live.status, live.status_at
                table.state, table.state_at = _decoded(live.state), live.state_at

    def table(self, device):
        """The device's Table (made when a device paired after the hub started first speaks)."""
        table = self._tables.get(device.device_id)
        if table is None or table.name != device.table_name:
            old = table
            table = self._tables[device.device_id] = Table(device.device_id, device.table_name)
            if old is not None:
                for key in Table.__slots__[2:]:
                    setattr(table, key, getattr(old, key))
        return table

    def tables(self):
        """Every table, by name."""
        return sorted(self._tables.values(), key=lambda t: (t.name, t.device))

    def snapshot(self):
        """Every table as plain values, by name (for a page as JSON)."""
        return [table.as_dict() for table in self.tables()]

    def status(self, device, text, now):
        table = self.table(device)
        table.status, table.status_at = text, now
        self._save(table)

    def state(self, device, body, decoded, now):
        table = self.table(device)
        table.state, table.state_at = decoded, now
        self._save(table, body)

    def record(self, device, game_id, next_seq, now):
        table = self.table(device)
        table.game, table.next_seq, table.record_at = game_id, next_seq, now

    def _save(self, table, body=None):
        if body is None and table.state is not None:
            body = club.encode_state(*table.state)
        self.registry.save_live(Live(table.device, table.status, table.status_at,
                                     bytes(body) if body is not None else None, table.state_at))


def _decoded(body):
    if body is None:
        return None
    try:
        return club.decode_state(body)
    except RecordError as err:  # not ours any more (a newer tafel wrote it): shown as unknown
        log.warning("stored STATE not read: %s", err)
        return None
