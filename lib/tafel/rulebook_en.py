# The rulebook in English (read through tafel.rulebook): values, cards, +4, two players, UNO, scoring, deal, teams.
# Paragraphs are separated by "\n"; the reader wraps them to its width (no word is longer than 16).
MENU = ("Card values", "What cards do", "+4 challenge", "Check a bluff", "Two players", "Calling UNO",
        "Scoring to 500", "Dealing", "Teams")
# The pages' titles, 10 characters at most.
TITLES = ("Points", "Cards", "Challenge", "2 players", "UNO!", "Scoring", "Dealing", "Teams")
CHECK = "Bluff?"

# Ranks 10-16 of tafel.cards.RANKS as the table calls them.
NAMES = ("Skip", "Reverse", "Draw Two", "Wild", "Wild Draw 4", "Shuffle Hands", "Blank")
NUMBERS = "0-9"
FACE = "face value"
DECK = "%d cards"
HOUSE = "This game's values:"
VALUES = ("Whoever wins a round scores the points of every card the others still hold. A table "
          "may agree its own values.")

CARDS = (
    "A card that matches the top card in colour, number or symbol may be played. Else draw one card; "
    "only that one may be played at once, if it fits.\n"
    "Skip: the next player misses a turn.\n"
    "Reverse: the direction of play turns.\n"
    "Draw Two: the next player draws 2 cards and misses a turn.\n"
    "Wild: fits any card. Whoever plays it names the colour.\n"
    "Wild Draw Four: name the colour; the next player draws 4 cards and misses a turn. Allowed only "
    "without a card of the colour in play. May be challenged.\n"
    "Shuffle Hands: collect all hands, shuffle, deal them again, name the colour. Some editions: "
    "swap hands with another player.\n"
    "Blank: the table writes its own rule on it.\n"
    "Whoever must draw, draws: passing +2 on with a +2 is a house rule only.\n"
    "If a round ends on a +2 or +4, the next player still draws, and those cards count."
)

CHALLENGE = (
    "1. Only the player who is to draw the 4 cards may challenge.\n"
    "2. The player of the +4 shows the challenger alone the hand held before the +4.\n"
    "3. Only the colour in play before the +4 counts. Matching numbers in other colours and black "
    "cards do not.\n"
    "4. A card of that colour: bluff! The player of the +4 draws the 4 cards; the challenger plays "
    "on as normal.\n"
    "5. None: honest. The challenger draws 6 cards (the 4 and 2 more) and misses the turn."
)

TWO = (
    "With two players the rules stay the same, with these effects:\n"
    "Reverse acts as Skip: whoever plays it goes again at once.\n"
    "Skip: whoever plays it goes again.\n"
    "Draw Two and Wild Draw Four: the other player draws, then it is the same player's turn again.\n"
    "So an action card as the second-to-last card often lets you go out in one turn. Do not forget "
    "to call UNO!"
)

UNO = (
    "When you play your second-to-last card, call UNO.\n"
    "Forgot? If someone points it out before the next player starts a turn, draw 2 penalty cards. "
    "If nobody notices in time, there is no penalty."
)

SCORING = (
    "Standard: whoever goes out first wins the round and scores the points of every card still in the "
    "others' hands. Example: Ben holds a 7 and a Skip (27), Cleo a Wild (50): the winner scores 77. "
    "The first to reach the target, usually 500, wins the game.\n"
    "Penalty (German: Minuspunkte): everyone scores the cards left in their own hand. Once anybody "
    "reaches the target, the game is over and the lowest total wins; a tie shares the win.\n"
    "Pick the count and the target in the game's setup."
)

DEALING = (
    "Everybody turns up a card; the highest number deals (action cards count 0). Each player gets 7 "
    "cards face down, the rest is the draw pile, and its top card is turned up beside it. The player "
    "left of the dealer starts, then play goes clockwise.\n"
    "Each new round the deal passes to the left of the last dealer. The standings mark who deals next."
)

TEAMS = (
    "Partners sit opposite each other. When one of them goes out, the round is over and the team scores "
    "the cards left in the opponents' hands.\n"
    "On the Tafel a team takes one seat under one name (Anna & Ben). Mark the team that went out as the "
    "winner; for the other team type both partners' hands, joined with B (+)."
)

# The bluff check: the colour in play, then the question; the verdict names who draws how many (%d).
COLOURS = ("red", "yellow", "green", "blue")
PICK = "Which colour was in play before the +4?"
ASK = "Before the +4: any %s card in the hand?\nBlack cards do not count."
YES_NO = ("Yes", "No")
BLUFF = ("Bluff!", "The player held %s and draws %d cards. The challenger plays on as normal.")
HONEST = ("Honest", "The player held no %s. The challenger draws %d cards and misses the turn.")
AGAIN = "# = once more"
TRY = "# = check bluff"
