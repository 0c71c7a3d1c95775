# The organiser's tournament rounds: draw who plays where (draw.py), send each table its players, keep the rounds.
#
# The tables of a round are the club's paired devices in the order of their
# table names (numbers as numbers: Tisch 2 before Tisch 10), the first N for N tables.
# Each gets its round as a signed, retained TABLE message on
# tafel/CLUB/DEVICE/table (tafel/club.py): round, table number, variant,
# target and the names in seat order, so a table that comes online later
# still finds it. Round 1 is a shuffle; later rounds are drawn by this
# evening's leaderboard (the hub's order), parting players who met.
#
# Every round sent is kept in the registry (club_rounds: per table its
# device, name, players, variant, target, and the seed of the draw), so a
# hub started again on the same evening (history.database.evening_of) goes
# on where it was: the board shows the latest round, the next draw parts
# whoever met, and its seed is the one the hub would have used (the first
# round's, plus the rounds before), so the round is the one it would have
# drawn had it never stopped; and once connected it sends the tables the
# latest round again (the broker built in keeps no retained message across
# a restart). A new evening starts at round 1 again.
import asyncio
import random
import time

from tafel import club
from tafel.variants import NAMES, code

from ..history.clubs import natural
from ..history.database import evening_of
from ..lang import say
from . import draw, leaderboard
from .registry import Round, Seat


class Refused(ValueError):
    """A round that cannot be drawn or sent: `key` and `values` say why (lang.say), str() in the hub's language.
    `key` travels in POST /round's answer, so `tafel club round` says it in its own language."""

    def __init__(self, key, *values):
        super().__init__(say(key, *values))
        self.key = key
        self.values = values


class Tournament:
    def __init__(self, hub, order=leaderboard.DEFAULT, seed=None, clock=time.time):
        self.hub = hub
        self.order = order
        self.clock = clock
        self._seed = seed
        self.evening = None
        self.rounds = []  # this evening's rounds: per round its tables, each a list of names
        self._sending = asyncio.Lock()  # a round sent again is never mixed into the sending of the next
        self._current()

    def _current(self):
        # The evening's rounds as kept (once per evening: a hub running past 6 in the morning starts afresh).
        evening = evening_of(self.clock())
        if evening == self.evening:
            return evening
        hub = self.hub
        kept = hub.registry.rounds(hub.club, evening)
        self.evening = evening
        self.rounds = [[list(seat.players) for seat in r.tables] for r in kept]
        self.latest = kept[-1] if kept else None  # the Round the tables have
        if kept:
            self.seed = kept[-1].seed - (kept[-1].number - 1)  # the seed round 1 was drawn with
        else:
            self.seed = random.SystemRandom().randrange(1 << 30) if self._seed is None else self._seed
        return evening

    def shown(self):
        """The latest round for the board, or None before the first."""
        self._current()
        if not self.rounds:
            return None
        return {"round": len(self.rounds), "tables": self.rounds[-1]}

    async def draw(self, players, tables, variant="standard", target=500):
        """Draw the next round, send it to the tables and keep it: {"round", "tables", "devices"}; Refused
        (said in the laptop's language) when it cannot be drawn or sent."""
        if variant not in NAMES:
            raise Refused("club_bad_variant", variant)
        if type(target) is not int or not 0 < target <= 100000:
            raise Refused("club_bad_target", target)
        async with self._sending:
            return await self._draw(players, tables, variant, target)

    async def _draw(self, players, tables, variant, target):
        hub = self.hub
        evening = self._current()
        devices = sorted(hub.registry.devices(hub.club), key=lambda d: natural(d.table_name))
        if len(devices) < tables:
            raise Refused("club_too_few_tables", tables, len(devices))
        if len(set(players)) != len(players):
            raise Refused("club_named_twice")
        try:
            draw.sizes(len(players), tables)
        except ValueError:
            raise Refused("club_do_not_fit", len(players), tables, draw.MIN_SEATS, draw.MAX_SEATS) from None
        seed = self.seed + len(self.rounds)
        if self.rounds:
            seating = draw.next_round(players, tables, self._ranking(evening), self.rounds, seed)
        else:
            seating = draw.first_round(players, tables, seed)
        number = len(self.rounds) + 1
        kept = Round(number, variant, target, seed, self.clock(),
                     [Seat(d.device_id, d.table_name, names) for d, names in zip(devices, seating)])
        try:
            await self._send(kept)
        except ValueError:  # no broker just now: the round is not kept, and may be drawn again
            raise Refused("club_not_connected") from None
        hub.registry.add_round(hub.club, evening, number, variant, target, seed, kept.tables, kept.drawn)
        self.rounds.append(seating)
        self.latest = kept
        hub.changed.set()  # the board shows the round at once
        return {"round": number, "tables": seating, "devices": [d.table_name for d in devices[:tables]]}

    async def resend(self):
        """Send the latest round of the evening to its tables again (the hub does when it is connected: the
        broker built in forgot its retained messages when it stopped). ValueError while there is no broker."""
        async with self._sending:
            self._current()
            if self.latest is not None:
                await self._send(self.latest)

    async def _send(self, kept):
        hub = self.hub
        for i, seat in enumerate(kept.tables):
            secret = hub.registry.secret(seat.device)
            if secret is None:  # unpaired since: nobody to send it to
                continue
            name = club.topic(hub.club, seat.device, "table")
            body = club.encode_table(kept.number, i + 1, code(kept.variant), kept.target, seat.players)
            await hub.publish(name, club.sign(secret, name, body), retain=True)

    def _ranking(self, evening):
        hub = self.hub
        ours = {(g.device, g.game) for g in hub.registry.games(hub.club, evening)}
        games = hub.registry.history.games_of(ours)  # this evening's only, not the whole history
        ranked = leaderboard.rows(games, self.order)
        return [row["name"] for row in ranked[0][1]] if ranked else []
