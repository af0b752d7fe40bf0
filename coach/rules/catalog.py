"""The coach's own catalog of the rules it teaches and grades against.

Every verdict the coach gives (a legal call, a dead hand, a payment) has to
be traceable to a rule id from the shared rules digest (T1-T4, H1-H5, J1-J8,
S1-S5, C1-C6, K1-K7, E1-E4, P1-P6, D1), and verdict explanations quote the
rule to the player. The digest and its source pages live outside the app and
nothing reads them at run time, so the ids and their wording are kept here.

Each rule carries two wordings: ``text`` restates the digest line completely,
so a grader or a curious player can check the exact rule; ``plain`` is one or
two short sentences in the words players use at the table, which is what an
explanation quotes (see ``cite``).

The League rules are the default. Where the sources disagree, the other
version is a table rule a group may switch on; those are off by default.
C6 is such a table rule but keeps its digest id; the digest's list of
other table rules has no ids, so the project gives them its own, TR1-TR6,
in a section of their own. All of them are flagged ``table_rule``, and
``TABLE_RULES`` lists them as the switches of coach.rules.table_rules.
"""

from __future__ import annotations

from dataclasses import dataclass

# Topic names follow the digest's headings so a rule can be found in the
# digest from what the app shows.
TILES = "Tiles"
GROUPS = "Groups and hands"
JOKERS = "Jokers"
SETUP = "Set-up, deal, turns"
CHARLESTON = "The Charleston"
CALLS = "Calls"
END = "End of the hand, dead hands, payment"
PLAY_SENSE = "Play sense"
TABLE = "Table rules"  # the project's own ids (TR1-TR6) for the digest's list of table rules


@dataclass(frozen=True)
class Rule:
    id: str
    topic: str
    title: str
    text: str
    plain: str
    # True only for rules that are not League rules (C6). A grader must not
    # apply such a rule unless the table has switched it on.
    table_rule: bool = False


@dataclass(frozen=True)
class TableRule:
    """A house rule some groups play that the League does not.

    All of these are off by default: a teacher may switch some on for a drill
    set, and the verdict then shows which of them the drill assumed.
    """

    key: str  # the switch's name in coach.rules.table_rules.TableRules
    title: str
    text: str
    rule_id: str = ""


_CATALOG: tuple[Rule, ...] = (
    # --- Tiles ---
    Rule(
        "T1", TILES, "The 152-tile set",
        "The set has 152 tiles: Dots, Bams and Craks numbered 1 to 9, four of"
        " each (108 tiles); the Winds North, East, West and South, four of"
        " each (16); the Dragons Red, Green and White (called Soap), four of"
        " each (12); 8 Flowers; and 8 Jokers.",
        "A set has 152 tiles: Dots, Bams and Craks from 1 to 9, Winds,"
        " Dragons, 8 Flowers and 8 jokers. There are four of each suit tile,"
        " Wind and Dragon.",
    ),
    Rule(
        "T2", TILES, "Each Dragon matches a suit",
        "Each Dragon belongs with one suit: Red with Craks, Green with Bams,"
        " and White (Soap) with Dots.",
        "Red Dragon goes with Craks, Green Dragon with Bams, and Soap with"
        " Dots.",
    ),
    Rule(
        "T3", TILES, "All Flowers are alike",
        "All eight Flowers count as one and the same tile.",
        "Every Flower matches every other Flower, even when the pictures"
        " differ.",
    ),
    Rule(
        "T4", TILES, "Soap as zero in years",
        "In year hands (such as 2026) the White Dragon, Soap, also serves as"
        " the digit zero, and when used as zero it may go with any suit.",
        "In year hands like 2026, Soap stands for the zero. As a zero it fits"
        " with any suit.",
    ),
    # --- Groups and hands ---
    Rule(
        "H1", GROUPS, "Fourteen tiles, one line",
        "A winning hand is exactly 14 tiles that match one line of the card."
        " Exposed groups count toward the 14. Flowers stay in the hand: they"
        " are not bonus tiles.",
        "You win with exactly 14 tiles matching one line of the card,"
        " counting your exposed groups. Flowers stay in your hand; they are"
        " not bonus tiles.",
    ),
    Rule(
        "H2", GROUPS, "Groups are identical tiles",
        "Every group is made of identical tiles: a single is 1 tile, a pair 2,"
        " a pung 3, a kong 4, a quint 5 and a sextet 6. There are no runs;"
        " different tiles standing together on the card are separate singles.",
        "Groups are identical tiles: pair 2, pung 3, kong 4, quint 5, sextet"
        " 6. A run like 4-5-6 Bam is just three singles.",
    ),
    Rule(
        "H3", GROUPS, "Change your aim freely",
        "A player may aim at any line of the card and may switch to another"
        " line at any time.",
        "You can go for any hand on the card and change your mind whenever"
        " you like.",
    ),
    Rule(
        "H4", GROUPS, "Concealed and exposed lines",
        "A line marked C (concealed) allows no exposure before the winning"
        " tile, though the hand may still win on a discard. A line marked X"
        " (exposed) allows calls.",
        "A C hand stays hidden: no exposures, but you may still call your"
        " winning tile. An X hand lets you call discards and expose groups.",
    ),
    Rule(
        "H5", GROUPS, "Best-paying reading counts",
        "If a winning hand can be read as more than one line of the card, it"
        " is paid as the line that pays the most.",
        "If your winning hand fits two lines of the card, you are paid for"
        " the one worth more.",
    ),
    # --- Jokers ---
    Rule(
        "J1", JOKERS, "Jokers fill groups",
        "A joker may stand for any tile in a pung, kong, quint or sextet.",
        "A joker can take the place of any tile in a pung, kong, quint or"
        " sextet.",
    ),
    Rule(
        "J2", JOKERS, "Jokers only in groups of 3+",
        "A joker may never be a single or part of a pair. Jokers are never"
        " used in Singles & Pairs hands, nor in the four digits of the year,"
        " which are singles. A pung of Flowers may contain a joker; a pair of"
        " Flowers may not.",
        "A joker can never be a single or part of a pair, not even a Flower"
        " pair. Singles & Pairs hands and the four year digits never hold"
        " jokers.",
    ),
    Rule(
        "J3", JOKERS, "Discarded jokers are dead",
        "A joker that has been discarded can never be called, not even for"
        " Mah Jongg. A player may discard a joker.",
        "You may throw a joker away, but nobody can ever call a discarded"
        " joker, not even to win.",
    ),
    Rule(
        "J4", JOKERS, "How to exchange a joker",
        "Joker exchange: on your own turn, after you have acquired a tile (by"
        " drawing or by a legal call) and before you discard, you may give"
        " the exact natural tile a joker stands for and take the joker. It may"
        " come from any player's exposure, your own included. Your tile count"
        " does not change. Exchanging before you have acquired a tile makes"
        " your hand dead.",
        "On your turn, after drawing or calling and before discarding, trade"
        " the exact real tile for a joker on any rack, yours included."
        " Trading before you draw or call makes your hand dead.",
    ),
    Rule(
        "J5", JOKERS, "No calling just to swap",
        "A discard may not be called only in order to redeem a joker; the"
        " call must be legal on its own. A call must complete its exposure"
        " with tiles you already hold: you cannot expose four tiles of a"
        " quint and redeem a joker for the fifth.",
        "You cannot call a discard just to swap it for a joker. A call must"
        " complete its group with tiles you already hold.",
    ),
    Rule(
        "J6", JOKERS, "Swapping fixes your new exposure",
        "Once you start a joker exchange, the exposure you have just made can"
        " no longer be rearranged (League bulletin, 2026).",
        "Once you start a joker swap, the group you just exposed is fixed and"
        " can no longer be rearranged.",
    ),
    Rule(
        "J7", JOKERS, "Swaps keep the group",
        "Redeeming a joker replaces it with the natural tile it stood for;"
        " the exposure keeps its size and stays the same group.",
        "A joker swap only puts the real tile where the joker was. The"
        " exposed group stays the same size and kind.",
    ),
    Rule(
        "J8", JOKERS, "Concealed hands and jokers",
        "A concealed hand may hold jokers in its groups, and its player may"
        " redeem jokers from other players' racks.",
        "A concealed (C) hand may use jokers in its groups. You may also swap"
        " for jokers on other players' racks.",
    ),
    # --- Set-up, deal, turns ---
    Rule(
        "S1", SETUP, "Dice choose East",
        "The dice choose East: the highest total is East, and a tie is broken"
        " by a new roll among the tied players only.",
        "Everyone rolls the dice and the highest total is East. If there is a"
        " tie, only the tied players roll again.",
    ),
    Rule(
        "S2", SETUP, "Building and breaking walls",
        "Each wall is 19 stacks of 2 tiles. East breaks the wall by counting"
        " as many stacks as the dice show from the right end of East's own"
        " wall.",
        "Each wall is 19 stacks of two tiles. East rolls and counts that many"
        " stacks from the right end of East's wall to break it.",
    ),
    Rule(
        "S3", SETUP, "The deal: 14 and 13",
        "Tiles are dealt four at a time for three rounds; then East takes two"
        " (the first and the third top tile) and each other player takes one,"
        " so East has 14 tiles and the others 13.",
        "Players take four tiles at a time for three rounds. Then East takes"
        " two more and everyone else one: East has 14, the others 13.",
    ),
    Rule(
        "S4", SETUP, "How a turn goes",
        "East discards first, without drawing. A turn is: draw, exchange for"
        " jokers if you wish, then discard and name the tile. A discard is"
        " final as soon as it touches the table or is named.",
        "East throws first without drawing; then each turn is draw, maybe"
        " swap for a joker, discard and say its name. A discard counts once"
        " it touches the table or is named.",
    ),
    Rule(
        "S5", SETUP, "Play passes to the right",
        "Play passes to the right (counter-clockwise). After a hand, the"
        " player on East's right becomes East.",
        "Turns go to the right, counter-clockwise. After each hand, the"
        " player on East's right becomes East.",
    ),
    # --- The Charleston ---
    Rule(
        "C1", CHARLESTON, "First Charleston is compulsory",
        "The first Charleston must be played: three tiles are passed to the"
        " right, then across, then to the left.",
        "Everyone must do the first Charleston: pass three tiles right, then"
        " across, then left.",
    ),
    Rule(
        "C2", CHARLESTON, "Second Charleston is optional",
        "The second Charleston is optional and goes left, then across, then"
        " right. Any one player may stop it.",
        "A second Charleston (left, across, right) is optional. If any one"
        " player says no, it is skipped.",
    ),
    Rule(
        "C3", CHARLESTON, "The courtesy pass",
        "The courtesy pass is optional and goes across, 0 to 3 tiles; when"
        " the two players offer different numbers, the smaller number of"
        " tiles moves. Both pairs of opposite seats exchange at the same"
        " time.",
        "After the Charlestons you may swap 0 to 3 tiles with the player"
        " across; if you offer different numbers, the smaller one counts."
        " Both pairs swap at once.",
    ),
    Rule(
        "C4", CHARLESTON, "Never pass a joker",
        "Jokers are never passed, in any pass of either Charleston or in the"
        " courtesy pass.",
        "You can never pass a joker, in any Charleston pass or in the"
        " courtesy pass.",
    ),
    Rule(
        "C5", CHARLESTON, "The blind pass",
        "Blind pass: on the last pass of each Charleston (left in the first,"
        " right in the second), some or all of the three tiles coming to you"
        " on that pass may be passed on unseen, without entering your rack;"
        " the rest come from your rack. Three tiles must still move.",
        "On each Charleston's last pass, you may pass on some or all of the"
        " three tiles coming to you unseen: they never enter your rack. You"
        " still pass three tiles.",
    ),
    Rule(
        "C6", CHARLESTON, "All-blind pass ends Charleston",
        "Table rule (not a League rule): if every player blind-passes all three"
        " tiles on a blind pass, the Charleston ends and there is no courtesy"
        " pass.",
        "Table rule: if everyone blind-passes all three tiles, the Charleston"
        " stops and there is no courtesy pass.",
        # The digest names this a table rule, not a League rule, so a grader
        # must not apply it unless the table switched it on.
        table_rule=True,
    ),
    # --- Calls ---
    Rule(
        "K1", CALLS, "Only the latest discard",
        "Only the most recent discard can be called, and only until the next"
        " player racks the tile they drew or discards.",
        "You can only call the newest discard. Once the next player racks"
        " their drawn tile or discards, it is too late.",
    ),
    Rule(
        "K2", CALLS, "Calls must complete a group",
        "A call for an exposure must complete a pung, kong, quint or sextet"
        " that the card allows for your hand, with the other tiles of the"
        " group already in your hand.",
        "To expose, the discard must finish a pung, kong, quint or sextet"
        " your hand needs, with the other tiles already in your hand.",
    ),
    Rule(
        "K3", CALLS, "Calling your winning tile",
        "A call for Mah Jongg may take any discard, also for a single or a"
        " pair, when it is the last tile the hand needs; a discarded joker is"
        " the exception (J3).",
        "If a discard is the last tile you need to win, you can call it, even"
        " for a single or a pair. Discarded jokers are the exception.",
    ),
    Rule(
        "K4", CALLS, "Who gets a contested discard",
        "A call for Mah Jongg beats a call for an exposure. Between calls for"
        " the same purpose, the seat closest after the discarder in turn"
        " order gets the tile. Table variant: a caller who has already racked"
        " the tile or exposed tiles for it keeps it.",
        "A call to win beats a call to expose. If two players want a tile for"
        " the same reason, the one next in turn after the thrower gets it.",
    ),
    Rule(
        "K5", CALLS, "A call replaces the draw",
        "A call takes the place of the draw: expose, then discard, and play"
        " continues to the caller's right; the seats in between lose their"
        " turn. There is no replacement draw for a kong.",
        "Calling replaces your draw, even for a kong: expose, then discard,"
        " and play goes on to your right. Skipped players lose their turn.",
    ),
    Rule(
        "K6", CALLS, "When exposures lock",
        "Before the discard that follows a call, the new exposure may be"
        " rearranged as long as the called tile stays in it and the grouping"
        " is still one the card allows. After that discard the exposure is"
        " locked: a pung never grows into a kong.",
        "Before you discard, you may rearrange a new exposure if the called"
        " tile stays in it and it still fits the card. After the discard it"
        " is locked; a pung never becomes a kong.",
    ),
    Rule(
        "K7", CALLS, "Concealed hands call only Mah Jongg",
        "On a concealed line, you may call a discard only for Mah Jongg.",
        "With a concealed (C) hand, the only discard you may call is your"
        " winning tile.",
    ),
    # --- End of the hand, dead hands, payment ---
    Rule(
        "E1", END, "Declaring Mah Jongg",
        "To win, declare Mah Jongg and show the hand; the other players check"
        " it.",
        "Say \"Mah Jongg\" and show your whole hand. The other players check"
        " that it is right.",
    ),
    Rule(
        "E2", END, "The wall game",
        "Wall game: if the wall runs out with no winner, nobody pays and the"
        " tiles are dealt again.",
        "If the wall runs out and nobody wins, it is a wall game. Nobody pays,"
        " and a new hand is dealt.",
    ),
    Rule(
        "E3", END, "What makes a hand dead",
        "A hand is dead if: it has the wrong number of tiles after East's"
        " first discard; its exposures fit no line of the card; it has"
        " exposures when only a concealed line fits; its player drew out of"
        " turn or discarded before drawing; its player exchanged for a joker"
        " before acquiring a tile; or its player laid down a wrong Mah Jongg.",
        "A hand goes dead with the wrong tile count, exposures no line allows,"
        " or exposures when only a C line fits. Drawing out of turn,"
        " discarding before you draw, swapping a joker before you draw or"
        " call, or a false Mah Jongg also kill it.",
    ),
    Rule(
        "E4", END, "Playing on with a dead hand",
        "A dead hand no longer draws, discards or calls, but its player still"
        " pays the winner. A hand is called dead by another player and proven"
        " by the tiles; nobody declares their own hand dead.",
        "A dead hand stops playing but still pays the winner. Only another"
        " player can call your hand dead, and your tiles must show it.",
    ),
    Rule(
        "P1", END, "Losers pay the card value",
        "Each losing player pays the value printed on the card for the winning"
        " line.",
        "Each loser pays the winner the value printed beside the winning hand"
        " on the card.",
    ),
    Rule(
        "P2", END, "Winning on a discard",
        "When the win is on a discard, the player who discarded the tile pays"
        " double and the other two players pay the value.",
        "If you win on a discard, the player who threw it pays double. The"
        " other two pay the card value.",
    ),
    Rule(
        "P3", END, "Self-picked wins pay double",
        "When the winning tile was drawn from the wall (self-picked), all"
        " three other players pay double.",
        "If you draw your winning tile from the wall, all three players pay"
        " you double.",
    ),
    Rule(
        "P4", END, "Jokerless hands pay double",
        "A hand with no jokers doubles the payments again, except Singles &"
        " Pairs lines: they never hold jokers and get no jokerless bonus.",
        "A winning hand with no jokers doubles every payment again. Singles &"
        " Pairs hands never have jokers, so they get no such bonus.",
    ),
    Rule(
        "P5", END, "The doubles stack",
        "The doubles multiply together: when a win is both self-picked and"
        " jokerless, each player pays four times the value.",
        "The doubles stack: a self-picked, jokerless win makes each player pay"
        " four times the card value.",
    ),
    Rule(
        "P6", END, "Winning by a joker swap",
        "A win completed by a joker exchange from another player's exposure"
        " pays as self-picked. A win by exchanging out of your own exposure"
        " does not: the player who discarded the tile you called pays.",
        "Winning by swapping for a joker on another player's rack pays as"
        " self-picked. Swapping from your own exposure does not; the player"
        " whose discard you called pays.",
    ),
    # --- Play sense ---
    Rule(
        "D1", PLAY_SENSE, "Hot tiles and safe tiles",
        "A hot tile is one that plainly helps someone, often shown by their"
        " exposures. A safe tile has been discarded twice without being"
        " called, or fits no exposure on the table. Late in a hand, defence"
        " matters more than your own rack.",
        "A hot tile clearly helps someone, often by their exposures; a safe"
        " tile was thrown twice with no call or fits no exposure. Late in a"
        " hand, defence matters more than your own rack.",
    ),
    Rule(
        "TR1", TABLE, "Blank tiles (table rule)",
        "Blank tiles join the set and are dealt like any tile. On your turn, after"
        " you pick or call and before you discard, you may swap one blank from your"
        " rack for a discarded tile other than a joker; the blank goes to the"
        " discards, where nobody can take or call it. Blanks may be passed in the"
        " Charleston and discarded, and are never part of a hand.",
        "At this table you may swap a blank from your rack for a discarded tile, not"
        " a joker, on your turn. A blank is never part of a hand.",
        table_rule=True,
    ),
    Rule(
        "TR2", TABLE, "Hot or cold wall (table rule)",
        "From the first of the tiles left behind at the break (S2) to the end: at a"
        " cold wall no discard may be called, for an exposure or for Mah Jongg, so a"
        " win must be picked from the wall; at a hot wall a player who throws the"
        " winning tile pays what all three losers would pay, unless every other copy"
        " of that tile was in sight (discarded, exposed or in their own rack).",
        "At this table the last tiles of the wall are cold (no calls) or hot (throwing"
        " the winning tile pays for everyone).",
        table_rule=True,
    ),
    Rule(
        "TR3", TABLE, "Courtesy joker (table rule)",
        "A joker may be passed across in the courtesy pass; it is still never passed in"
        " the first or second Charleston (C4).",
        "At this table a joker may go across in the courtesy pass.",
        table_rule=True,
    ),
    Rule(
        "TR4", TABLE, "Three players (table rule)",
        "Three players sit East, South and West; North's tiles are not dealt and stay"
        " in the wall. The Charleston passes right then left (first) and left then right"
        " (second), with blind passes on the last pass of each and no courtesy pass."
        " Play goes East, South, West. The two losers pay: the discarder double, the"
        " other the value; self-picked, both double.",
        "At this table three play: North's seat is empty, the Charleston has no across"
        " pass, and two players pay.",
        table_rule=True,
    ),
    Rule(
        "TR5", TABLE, "Picking ahead (table rule)",
        "While the latest discard may still be called, the next player may pick the"
        " next wall tile and look at it without racking it. If the discard is called,"
        " the tile goes back on the wall unseen by the others.",
        "At this table the next player may look at the next tile before the calls end.",
        table_rule=True,
    ),
    Rule(
        "TR6", TABLE, "First to speak (table rule)",
        "When two players call the same discard for the same purpose, the one who"
        " spoke first gets it, not the seat nearest the discarder. A call for Mah"
        " Jongg still beats a call for an exposure.",
        "At this table the first to call gets the discard, though Mah Jongg still"
        " beats an exposure.",
        table_rule=True,
    ),
)

RULES: dict[str, Rule] = {r.id: r for r in _CATALOG}

# A repeated id would silently overwrite an earlier rule in RULES and make a
# cited id mean the wrong thing, so refuse to load rather than mislead.
if len(RULES) != len(_CATALOG):
    _ids = [r.id for r in _CATALOG]
    _dupes = sorted({i for i in _ids if _ids.count(i) > 1})
    raise ValueError(f"duplicate rule ids in catalog: {', '.join(_dupes)}")


# The table rules a group may switch on (coach.rules.table_rules holds the
# switches themselves), each with the id its rulings cite.
TABLE_RULES: tuple[TableRule, ...] = (
    TableRule(
        "blanks", "Blank tiles in play",
        "Blank tiles are used in the game, and a blank may be swapped for a"
        " discarded tile. Under League rules a blank is only a spare tile.", "TR1",
    ),
    TableRule(
        "wall_end", "Hot or cold wall",
        "A \"hot wall\" or \"cold wall\" puts special rules on the last tiles"
        " of the wall. League rules have no such rule.", "TR2",
    ),
    TableRule(
        "joker_in_courtesy", "Jokers in the courtesy pass",
        "A joker may be passed in the courtesy pass. League rules never allow"
        " passing a joker (C4).", "TR3",
    ),
    TableRule(
        "players", "Three players",
        "Three players play, with a Charleston of right and left passes only."
        " League play is for four players.", "TR4",
    ),
    TableRule(
        "picking_ahead", "Picking ahead",
        "A player looks at the next tile of the wall before their turn."
        " League rules do not include it.", "TR5",
    ),
    TableRule(
        "first_to_speak", "First to speak takes it",
        "The first player to speak gets the discard. Under League rules the"
        " seat closest after the discarder gets it (K4).", "TR6",
    ),
    TableRule(
        "air_mahjong", "All-blind pass ends the Charleston",
        "If all four players pass all three tiles on unseen, the Charleston"
        " ends. Under League rules the Charleston goes on.", "C6",
    ),
)


def rule(rule_id: str) -> Rule:
    """Return the rule with this id, e.g. ``rule("J2")``."""
    try:
        return RULES[rule_id]
    except KeyError:
        # Name the bad id and the valid ones: a typo in a verdict's citation
        # should be obvious from the message alone.
        raise KeyError(
            f"unknown rule id {rule_id!r}; known ids: {', '.join(RULES)}"
        ) from None


def cite(rule_id: str) -> str:
    """The plain wording followed by the id, as verdict explanations quote it."""
    r = rule(rule_id)
    return f"{r.plain} ({r.id})"


def rule_ids() -> tuple[str, ...]:
    """All rule ids in digest order."""
    return tuple(RULES)
