# Tafel's scoring core: the public names the device, the simulator and the host tools use.
from .cards import card_points, deck_total, hand_points
from .errors import CardError, RecordError, ScoreError
from .game import Game
from .referee import judge_wild4, legal_plays
