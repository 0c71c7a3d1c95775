# Round entry's check: the round's result shown before it is saved, its keys, and the save itself.
#
# The functions take the round entry screen (ui/round_entry.py) and work on its
# state: `result` holds what each seat scores while the check shows (None while
# typing), `deck_ok` and `reopen_ok` are the two questions a check may ask once
# (more points than a deck holds; an edit that takes a finished game's end
# back). Keys on the check: C/D scroll, * goes back to typing, # saves (after
# a question: # again).
from session import NotLoaded
from tafel.variants import code, round_score, settle
from ui.screen import FLASH_ERRORS


def check(entry):
    """Show the round's result, or say what is missing (the Sieger, a seat's hand)."""
    if entry.winner is None and entry.game.variant == "standard":
        entry.note = entry.app.t("pick_winner")
        return
    gap = entry._missing()
    if gap is not None:
        entry._move(gap)
        entry.note = "%s?" % entry.game.players[entry.seats[gap]]
        return
    ok = entry.game.deck_warning(entry.hands()) is None
    if ok != entry.deck_ok:  # set only when it changes: the screen's dict keeps small (ui/round_entry.py)
        entry.deck_ok = ok
    entry.result = _scores(entry)
    entry._layout()
    entry._move(0)  # the check starts at the first seat; C/D scroll through all
    entry.touch()


def review_key(entry, k):
    if k == "C" or k == "CCW":
        entry._move(entry.cursor - 1)
    elif k == "D" or k == "CW":
        entry._move(entry.cursor + 1)
    elif k == "*":
        entry.result = None
        entry._layout()
        entry.touch()
    elif k == "#" or k == "PUSH":
        if not entry.deck_ok:
            entry.deck_ok = True
            return
        if not entry.reopen_ok and _reopens(entry):
            entry.reopen_ok = True
            entry.note = entry.app.t("reopen_ask")
            return
        _save(entry)


def _scores(entry):
    # The core's own rule for what each seat scores in this round.
    game = entry.game
    row = [None] * len(game.players)
    hands = entry.hands()
    for s in entry.seats:
        name = game.players[s]
        row[s] = sum(hands[name]) if name in hands else 0
    variant = code(game.variant)
    return [round_score(variant, s, entry.winner, row) if row[s] is not None else 0
            for s in range(len(row))]


def _reopens(entry):
    # Whether this edit of a finished game's round takes its end back (nobody at the target any
    # more): the game would run again, so the check asks first.
    game = entry.game
    if entry.edit_index is None or not game.finished or game.ended_early:
        return False
    n = len(game.players)
    replaced = entry.replaced
    totals = [game.total(s) + entry.result[s] - (replaced[s] if replaced else 0) for s in range(n)]
    out = game.eliminated()
    active = [game.players[s] not in out for s in range(n)]
    last = len(game.rounds) - 1
    if entry.edit_index == last:
        winner = entry.winner
    else:
        name = game.rounds[last].winner
        winner = None if name is None else game.seat(name)
    if winner is None:
        winner = 0
    return not settle(code(game.variant), totals, active, game.target, winner)


def _save(entry):
    app = entry.app
    winner = None if entry.winner is None else entry.game.players[entry.winner]
    try:
        if entry.edit_index is None:
            app.session.save_round(entry.hands(), winner)
        else:
            app.session.edit_round(entry.edit_index, entry.hands(), winner)
    except ValueError as err:  # the core refused: show why, change nothing
        entry.note = app.refusal(err)
        return
    except NotLoaded:  # on flash, but the heap would not hold the game again
        entry.game = None  # let go of it too: the replay needs its room
        app.reload_saved("saved")
        return
    except FLASH_ERRORS as err:  # the flash refused: the round is NOT saved
        entry.note = app.t("not_saved")
        app.notify("%s: %s" % (app.t("not_saved"), app.refused_save(err)))
        return
    app.notify(app.t("saved"))
    app.show_game()
