# Tafel's scoring core: its public names, each imported on first use.
#
# Importing a submodule (tafel.game) runs this file first, so it stays light:
# the device then holds only the modules it uses in RAM (the firmware never
# needs the referee), while `from tafel import Game, legal_plays` still works.
_HOME = {
    "card_points": "cards", "hand_points": "cards", "deck_total": "cards",
    "CardError": "errors", "ScoreError": "errors", "RecordError": "errors",
    "Game": "game", "legal_plays": "referee", "judge_wild4": "referee",
}


def __getattr__(name):
    module = _HOME.get(name)
    if module is not None:
        return getattr(__import__("tafel." + module, None, None, (name,)), name)
    # MicroPython asks here for submodules too ("from . import records").
    try:
        return __import__("tafel." + name, None, None, ("_",))
    except ImportError:
        raise AttributeError(name)
