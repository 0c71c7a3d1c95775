# The organiser's tournament rounds: draw who plays where (draw.py) and send each table its players.
#
# The tables of a round are the club's paired devices in the order of their
# table names (numbers as numbers: 2 before 10), the first N for N tables.
# Each gets its round as a signed, retained TABLE message on
# tafel/CLUB/DEVICE/table (tafel/club.py): round, table number, variant,
# target and the names in seat order, so a table that comes online later
# still finds it. Round 1 is a shuffle; later rounds are drawn by this
# evening's leaderboard (the hub's order), parting players who met. The
# seed is drawn once per hub, so a round drawn again would differ; the
# rounds drawn are kept while the hub runs (after a restart the next round
# is a first round again: said in docs/club.md).
import random
import time

from tafel import club
from tafel.variants import NAMES, code

from ..history.database import evening_of
from ..lang import say
from . import draw, leaderboard


def _natural(name):
    return (0, int(name), "") if name.isdigit() else (1, 0, name.casefold())


class Tournament:
    def __init__(self, hub, order=leaderboard.DEFAULT, seed=None):
        self.hub = hub
        self.order = order
        self.seed = random.SystemRandom().randrange(1 << 30) if seed is None else seed
        self.rounds = []  # per round: its tables, each a list of names

    def shown(self):
        """The latest round for the board, or None before the first."""
        if not self.rounds:
            return None
        return {"round": len(self.rounds), "tables": self.rounds[-1]}

    async def draw(self, players, tables, variant="standard", target=500):
        """Draw the next round and send it to the tables: {"round", "tables", "devices"}; ValueError
        (said in the laptop's language) when it cannot be drawn or sent."""
        if variant not in NAMES:
            raise ValueError(say("club_bad_variant", variant))
        if type(target) is not int or not 0 < target <= 100000:
            raise ValueError(say("club_bad_target", target))
        hub = self.hub
        devices = sorted(hub.registry.devices(hub.club), key=lambda d: _natural(d.table_name))
        if len(devices) < tables:
            raise ValueError(say("club_too_few_tables", tables, len(devices)))
        if self.rounds:
            ranking = self._ranking()
            seating = draw.next_round(players, tables, ranking, self.rounds, self.seed + len(self.rounds))
        else:
            seating = draw.first_round(players, tables, self.seed)
        number = len(self.rounds) + 1
        for i, names in enumerate(seating):
            device = devices[i]
            secret = hub.registry.secret(device.device_id)
            name = club.topic(hub.club, device.device_id, "table")
            body = club.encode_table(number, i + 1, code(variant), target, names)
            await hub.publish(name, club.sign(secret, name, body), retain=True)
        self.rounds.append(seating)
        hub.changed.set()  # the board shows the round at once
        return {"round": number, "tables": seating, "devices": [d.table_name for d in devices[:tables]]}

    def _ranking(self):
        hub = self.hub
        ours = {(g.device, g.game) for g in hub.registry.games(hub.club, evening_of(time.time()))}
        games = [g for g in hub.registry.history.games() if (g["device"], g["id"]) in ours]
        ranked = leaderboard.rows(games, self.order)
        return [row["name"] for row in ranked[0][1]] if ranked else []
