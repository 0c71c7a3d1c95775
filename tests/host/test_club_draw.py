# Specification of the tournament draw: even tables, a random first round, later rounds by standings without repeats.
import pytest

from tafel_host.club import draw

PLAYERS = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Greta", "Hanna", "Ida", "Jonas", "Karl", "Lena"]


def test_tables_are_as_even_as_they_go_the_larger_first():
    assert draw.sizes(12, 3) == [4, 4, 4]
    assert draw.sizes(14, 3) == [5, 5, 4]
    assert draw.sizes(2, 1) == [2]
    assert draw.sizes(10, 1) == [10]


def test_players_that_do_not_fit_the_tables_are_refused():
    for players, tables in ((5, 3), (11, 1), (3, 0), (1, 1)):
        with pytest.raises(ValueError):
            draw.sizes(players, tables)
    with pytest.raises(ValueError):
        draw.first_round(["Anna", "Anna", "Ben", "Cleo"], 2, seed=1)


def test_the_first_round_seats_everybody_once_and_the_seed_decides():
    seating = draw.first_round(PLAYERS, 3, seed=7)
    assert sorted(sum(seating, [])) == sorted(PLAYERS)
    assert [len(t) for t in seating] == [4, 4, 4]
    assert draw.first_round(PLAYERS, 3, seed=7) == seating
    assert any(draw.first_round(PLAYERS, 3, seed=s) != seating for s in range(8, 12))


def test_a_later_round_seats_like_strength_together():
    # Nobody met yet: the leaderboard's order is dealt to the tables, the best at table 1.
    assert draw.next_round(PLAYERS, 3, PLAYERS, [], seed=1) == [PLAYERS[0:4], PLAYERS[4:8], PLAYERS[8:12]]


def test_players_who_sat_together_are_parted_where_possible():
    first = [PLAYERS[0:4], PLAYERS[4:8], PLAYERS[8:12]]
    second = draw.next_round(PLAYERS, 3, PLAYERS, [first], seed=1)
    assert sorted(sum(second, [])) == sorted(PLAYERS)
    assert draw.repeats(second, []) == 0
    # with four at a table and three tables every table must hold two who met; the draw keeps it at that
    assert draw.repeats(second, [first]) < draw.repeats(first, [first])
    assert draw.repeats(second, [first]) <= 3  # twelve at three tables of four: a pair that met at each
    # the best player stays at table 1, the worst at table 3: the swaps only cross to a neighbour
    assert "Anna" in second[0] and "Lena" in second[2]


def test_repeats_fall_to_zero_when_the_tables_allow_it():
    players = PLAYERS[:8]
    first = [players[0:2], players[2:4], players[4:6], players[6:8]]  # four pairs
    second = draw.next_round(players, 4, players, [first], seed=3)
    assert draw.repeats(second, [first]) == 0


def test_late_arrivals_come_after_everyone_the_leaderboard_knows():
    ranking = PLAYERS[:8]
    seating = draw.next_round(PLAYERS, 3, ranking, [], seed=5)
    assert set(seating[2]) == set(PLAYERS[8:12])
    assert draw.next_round(PLAYERS, 3, ranking, [], seed=5) == seating


def test_over_many_evenings_the_draw_repeats_fewer_pairs_than_a_random_seating_would():
    # 40 evenings of 8 to 30 players at 2 to 5 tables, four rounds each, the standings shuffled between
    # rounds: the Swiss draw never seats more pairs who met before than random seatings do on average.
    import random

    for evening in range(40):
        rng = random.Random(evening)
        players = ["P%d" % i for i in range(rng.randint(8, 30))]
        tables = rng.randint(2, min(5, len(players) // 2))
        while len(players) > tables * draw.MAX_SEATS:
            tables += 1
        rounds = [draw.first_round(players, tables, evening)]
        for number in range(3):
            ranking = players[:]
            rng.shuffle(ranking)
            seating = draw.next_round(players, tables, ranking, rounds, evening + number)
            assert sorted(sum(seating, [])) == sorted(players)
            chance = []
            for _ in range(30):
                order = players[:]
                rng.shuffle(order)
                chance.append(draw.repeats(draw._deal(order, draw.sizes(len(players), tables)), rounds))
            assert draw.repeats(seating, rounds) <= sum(chance) / len(chance), (evening, number)
            rounds.append(seating)
