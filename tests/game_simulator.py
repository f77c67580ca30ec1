"""A simple Mexican Train simulator for the score checks' tests and benchmark.

It deals from a real set, finds the engine (or falls back to a lower double when
nobody holds it), lets the players play one tile a turn on their own train, the
Mexican Train or an open train, draw when they cannot, and ends when someone goes out
or the boneyard is empty and nobody can play. Doubles need no satisfying here: the
checks look only at what is left in the hands, which this simplification does not
change. Every game it plays is one the score checks must accept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domain.sheet_checks import SheetRules, Tile, TypedSheet, engine_choices, tile_pips
from tournaments.presets import preset_rows

MEXICAN = -1  # the Mexican Train's key among the trains


@dataclass(frozen=True)
class Preset:
    """One rule preset, as the score checks see it, and the table sizes it allows."""

    key: str
    rules: SheetRules
    table_sizes: tuple[int, ...]


def load_presets() -> list[Preset]:
    """Every preset of fixtures/rule_presets.json."""
    presets = []
    for row in preset_rows():
        lowest = row["first_engine"] - row["games_per_day"] + 1
        rules = SheetRules(
            top_double=row["top_double"],
            double_blank_value=row["double_blank_value"],
            highest_engine=row["first_engine"],
            lowest_engine=lowest,
            hand_sizes=row["hand_sizes"],
            engine_set_aside=row["engine_set_aside"],
        )
        sizes = tuple(n for n in range(2, row["max_table_size"] + 1) if rules.hand_size(n))
        presets.append(Preset(row["key"], rules, sizes))
    return presets


@dataclass
class PlayedGame:
    engine: int
    hands: dict[int, list[Tile]]  # tiles left, for every player who played the game
    went_out: int | None


def play_game(
    rules: SheetRules,
    players: list[int],
    used: list[int],
    rng: random.Random,
    *,
    set_aside: bool,
) -> PlayedGame:
    """Play one game at a table; ``used`` are the engines the table used earlier that day."""
    drew = rules.hand_size(len(players))
    assert drew is not None
    if set_aside:
        engine = engine_choices(rules, used)[0]
        boneyard = [t for t in rules.all_tiles() if t != (engine, engine)]
        rng.shuffle(boneyard)
        hands = {p: [boneyard.pop() for _ in range(drew)] for p in players}
        starter = rng.choice(players)
    else:
        boneyard = rules.all_tiles()
        rng.shuffle(boneyard)
        hands = {p: [boneyard.pop() for _ in range(drew)] for p in players}
        engine, starter = _find_engine(rules, used, hands, boneyard)
        hands[starter].remove((engine, engine))
    went_out = _play(players, hands, boneyard, engine, starter, rng)
    return PlayedGame(engine, hands, went_out)


def _find_engine(
    rules: SheetRules, used: list[int], hands: dict[int, list[Tile]], boneyard: list[Tile]
) -> tuple[int, int]:
    """The first unused double of the engine order that somebody holds; while nobody holds
    one, everyone draws one more tile."""
    while True:
        for engine in engine_choices(rules, used):
            holder = next((p for p, h in hands.items() if (engine, engine) in h), None)
            if holder is not None:
                return engine, holder
        for hand in hands.values():
            if boneyard:
                hand.append(boneyard.pop())


def _play(
    players: list[int],
    hands: dict[int, list[Tile]],
    boneyard: list[Tile],
    engine: int,
    starter: int,
    rng: random.Random,
) -> int | None:
    """Turns until someone goes out (returned) or the game is blocked (None)."""
    ends = dict.fromkeys(players, engine)
    ends[MEXICAN] = engine
    open_trains = {MEXICAN}
    greedy = {p: rng.random() < 0.5 for p in players}  # some shed their big tiles first
    turn = players.index(starter) + 1
    idle = 0
    while idle < len(players):
        player = players[turn % len(players)]
        turn += 1
        trains = [player, *open_trains]
        if _play_one(player, hands[player], ends, trains, greedy[player], rng):
            open_trains.discard(player)
            idle = 0
            if not hands[player]:
                return player
            continue
        if boneyard:
            hands[player].append(boneyard.pop())
            idle = 0
            if _play_one(player, hands[player], ends, trains, greedy[player], rng):
                open_trains.discard(player)
                if not hands[player]:
                    return player
                continue
        else:
            idle += 1
        open_trains.add(player)
    return None


def _play_one(
    player: int,
    hand: list[Tile],
    ends: dict[int, int],
    trains: list[int],
    greedy: bool,
    rng: random.Random,
) -> bool:
    moves = [(tile, train) for tile in hand for train in trains if ends[train] in tile]
    if not moves:
        return False
    if greedy:
        tile, train = max(moves, key=lambda m: m[0][0] + m[0][1])
    else:
        tile, train = rng.choice(moves)
    hand.remove(tile)
    ends[train] = tile[1] if tile[0] == ends[train] else tile[0]
    return True


def typed_sheet(
    rules: SheetRules, game_number: int, game: PlayedGame, rng: random.Random
) -> TypedSheet:
    """The sheet a scorekeeper would fill in, typed in the ways people type it."""
    scores: dict[int, object] = {}
    tiles: dict[int, object] = {}
    for pid, hand in game.hands.items():
        if pid == game.went_out:
            scores[pid] = rng.choice([0, "0", " 0 "])
            continue
        value = tile_pips(hand, rules.double_blank_value)
        how = rng.choice(["number", "number", "text", "tiles", "both"])
        if how in ("tiles", "both"):
            tiles[pid] = " ".join(f"{a}-{b}" if rng.random() < 0.5 else f"{b}/{a}" for a, b in hand)
        scores[pid] = {"number": value, "text": f" {value} ", "tiles": "", "both": str(value)}[how]
    return TypedSheet(
        game_number=game_number,
        engine=rng.choice([game.engine, str(game.engine), f"{game.engine}-{game.engine}"]),
        scores=scores,
        tiles=tiles,
        went_out=game.went_out,
        blocked=game.went_out is None,
    )


@dataclass
class TableDay:
    """One table's day: the seats, who withdrew before which game, and every game played."""

    rules: SheetRules
    seated: dict[int, str]
    games: list[tuple[TypedSheet, PlayedGame, list[int], list[int]]]  # sheet, game, used, gone


def play_day(
    rules: SheetRules,
    size: int,
    rng: random.Random,
    *,
    set_aside: bool,
    leaves_before: int | None = None,
) -> TableDay:
    """A table of ``size`` plays every engine of the day; with ``leaves_before``, the last
    seat withdraws before that game (1-based) and the table plays on with one fewer."""
    seated = {100 + i: f"Player {i + 1}" for i in range(size)}
    used: list[int] = []
    games = []
    for number in range(1, len(rules.engine_order()) + 1):
        gone = [100 + size - 1] if leaves_before and number >= leaves_before else []
        players = [p for p in seated if p not in gone]
        game = play_game(rules, players, used, rng, set_aside=set_aside)
        games.append((typed_sheet(rules, number, game, rng), game, list(used), gone))
        used.append(game.engine)
    return TableDay(rules, seated, games)
