# Games for the host tests, built with the core exactly as the device builds them: records, framed.
from tafel import journal
from tafel.game import Game
from tafel_host.link import export

PLAYERS = ("Anna", "Ben", "Cleo")
EVENING = 1740852000  # 2025-03-01 18:00 UTC


def play(rounds, players=PLAYERS, variant="standard", target=500, created=EVENING, game_id=1,
         values=None, finish=False):
    """(game, journal bytes): rounds are (winner or None, {name: hand}) in order."""
    game = Game(players, variant, target, values, created, game_id)
    payloads = [game.create_record()]
    for winner, hands in rounds:
        payloads.append(game.round_record(hands, winner))
        game.apply(payloads[-1])
    if finish:
        payloads.append(game.finish_record(created + 3600 if created else 0))
        game.apply(payloads[-1])
    return game, b"".join(journal.frame(seq, p) for seq, p in enumerate(payloads))


def worked_example(game_id=1, created=EVENING):
    """Anna goes out, Ben holds 7, 9 and a Draw Two (36), Cleo a Wild and a 3 (53): Anna 89."""
    return play([("Anna", {"Ben": [7, 9, 20], "Cleo": [50, 3]})], game_id=game_id, created=created)


def comeback_game(game_id=2, created=EVENING + 3600):
    """Ben leads 100 to 0, then Cleo wins two big rounds to reach 200: a comeback of 100."""
    return play([
        ("Ben", {"Anna": 40, "Cleo": 60}),
        ("Cleo", {"Anna": 50, "Ben": 60}),
        ("Cleo", {"Anna": 30, "Ben": 60}),
    ], target=200, game_id=game_id, created=created)


def doc(games, device="dev-a", firmware="0.1.0", cursor=None):
    """An export document of (game, journal) pairs, decoded from the journals."""
    return export.document(device, firmware, [export.game_from_journal(data) for _, data in games],
                           cursor=cursor, exported=EVENING + 20000)
