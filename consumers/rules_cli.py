"""``tablewatch rules``: ask the Pai Gow rules engine a question from a shell."""

from __future__ import annotations

import argparse
from typing import Any

from audit.games.errors import InvalidDealError
from audit.games.paigow.dealer_rule import CLAUSES, permitted_settings, rule_clause
from audit.games.paigow.delivery import STYLE_NAMES, DeliveryStyle, deliver, form_stacks
from audit.games.paigow.hands import describe_hand
from audit.games.paigow.house_way import HOUSE_WAYS
from audit.games.paigow.layout import (
    NumberSource,
    deal_order,
    dice_total,
    position_name,
    starting_position,
)
from audit.games.paigow.options import TABLE_OPTIONS
from audit.games.paigow.outcome import wager_outcome
from audit.games.paigow.pair_fortunes import classify_pairs
from audit.games.paigow.rulesets import RULE_SETS, RuleSet, get_rule_set
from audit.games.paigow.setting import Setting
from audit.games.paigow.tiles import parse_tiles, tile_name


def register(commands: Any) -> None:
    """Add the ``rules`` command and its subcommands."""
    rules = commands.add_parser("rules", help="ask the Pai Gow Tiles rules engine")
    rules.add_argument(
        "--rules",
        default="pa-2019",
        choices=sorted(RULE_SETS),
        help="the rule set (jurisdiction) to apply (default: pa-2019)",
    )
    sub = rules.add_subparsers(dest="question", required=True, metavar="QUESTION")

    rank = sub.add_parser("rank", help="rank a two-tile hand, e.g. 6-6 4-5")
    rank.add_argument("tiles", nargs=2)
    rank.set_defaults(handler=_rank)

    compare = sub.add_parser("compare", help="settle a player setting against a banker setting")
    compare.add_argument("player", help="'HIGH HIGH / LOW LOW', e.g. '6-6 4-5 / 1-2 1-3'")
    compare.add_argument("banker", help="the dealer's or bank's setting, same notation")
    compare.set_defaults(handler=_compare)

    way = sub.add_parser("house-way", help="the house way's setting for four tiles")
    way.add_argument("tiles", nargs=4)
    way.add_argument("--way", choices=sorted(HOUSE_WAYS), help="override the rule set's way")
    way.set_defaults(handler=_house_way)

    start = sub.add_parser("start", help="the starting position for three dice or an RNG number")
    start.add_argument("dice", nargs="+", type=int, help="three dice faces, or one RNG number")
    start.add_argument("--bank", type=int, help="the betting position of a player bank")
    start.add_argument("--rng", action="store_true", help="the number came from an RNG")
    start.set_defaults(handler=_start)

    deal = sub.add_parser("deal", help="which four tiles each position receives")
    deal.add_argument("tiles", help="32 tiles in stack order: stack 1 (dealer's right) top first")
    deal.add_argument(
        "--style", default="house_way_right", choices=[s.value for s in DeliveryStyle]
    )
    deal.add_argument("--start", type=int, default=0, help="the starting position")
    deal.set_defaults(handler=_deal)

    fortunes = sub.add_parser("pair-fortunes", help="classify four tiles for Pair Fortunes")
    fortunes.add_argument("tiles", nargs=4)
    fortunes.set_defaults(handler=_pair_fortunes)

    listing = sub.add_parser("rule-sets", help="list the rule sets and their options")
    listing.set_defaults(handler=_rule_sets)


def _rank(args: argparse.Namespace) -> None:
    info = describe_hand(*parse_tiles(args.tiles))
    ruleset = get_rule_set(args.rules)
    print(f"{' '.join(tile_name(t) for t in info.tiles)}: {info.name}")
    if info.pair_rank is not None:
        print(
            f"  {info.category} pair, rank {info.pair_rank} of 20 ({ruleset.cite('pair-ranking')})"
        )
    else:
        print(
            f"  value {info.value}, highest tile rank {info.highest_rank} ({ruleset.cite('value')})"
        )
    print(f"  rank key {ruleset.ranking.key(*info.tiles)} (higher wins; equal is a copy)")


def _compare(args: argparse.Namespace) -> None:
    ruleset = get_rule_set(args.rules)
    player, banker = Setting.from_notation(args.player), Setting.from_notation(args.banker)
    ranking = ruleset.ranking
    for label, mine, theirs in (
        ("high", player.high, banker.high),
        ("low", player.low, banker.low),
    ):
        verdict = {1: "player", -1: "banker", 0: "copy: banker"}[ranking.compare(mine, theirs)]
        print(f"{label}: {describe_hand(*mine).name} vs {describe_hand(*theirs).name} -> {verdict}")
    outcome = wager_outcome(player, banker, ranking)
    print(f"wager: {outcome.value} ({ruleset.cite('wager-' + outcome.value)})")


def _house_way(args: argparse.Namespace) -> None:
    ruleset = get_rule_set(args.rules)
    way = HOUSE_WAYS[args.way] if args.way else ruleset.house_way
    tiles = parse_tiles(args.tiles)
    setting = way.setting(tiles, ruleset.ranking)
    high, low = describe_hand(*setting.high), describe_hand(*setting.low)
    print(f"{way.title}: {setting}  ({high.name} / {low.name}) ({ruleset.cite('house-way')})")
    if not ruleset.regulatory_dealer_rule:
        return
    clause = rule_clause(tiles, ruleset.ranking)
    permitted = permitted_settings(tiles, ruleset.ranking)
    shown = ", ".join(sorted(str(s) for s in permitted))
    print(f"dealer rule {ruleset.cite('dealer-setting')}{CLAUSES[clause]} permits: {shown}")
    print(
        "complies with the dealer rule" if setting in permitted else "DEPARTS from the dealer rule"
    )


def _start(args: argparse.Namespace) -> None:
    ruleset = get_rule_set(args.rules)
    layout = ruleset.layout
    source: NumberSource
    if args.rng and len(args.dice) == 1 and ruleset.rng_allowed:
        total, source = args.dice[0], "rng"
    elif args.rng:
        raise InvalidDealError(f"{ruleset.name} allows no RNG number here: {args.dice!r}")
    else:
        total, source = dice_total(args.dice), "dice"
    first = layout.dealer if args.bank is None else args.bank
    start = starting_position(total, layout, first=args.bank, source=source)
    rule = ruleset.cite("starting-position" if args.bank is None else "bank-starting-position")
    print(
        f"{source} {total}: count from {position_name(layout, first)} as 1 -> "
        f"{position_name(layout, start)} receives the first stack ({rule})"
    )


def _deal(args: argparse.Namespace) -> None:
    ruleset = get_rule_set(args.rules)
    style = DeliveryStyle(args.style)
    stacks = form_stacks(parse_tiles(args.tiles))
    layout = ruleset.layout
    for position, group in zip(deal_order(args.start, layout), deliver(stacks, style), strict=True):
        tiles = " ".join(tile_name(t) for t in group)
        print(f"{position_name(layout, position):>14}: {tiles}")
    print(f"({STYLE_NAMES[style]}, {ruleset.style_citations.get(style, 'not offered here')})")


def _pair_fortunes(args: argparse.Namespace) -> None:
    ruleset = get_rule_set(args.rules)
    category = classify_pairs(parse_tiles(args.tiles))
    paid = "" if ruleset.pair_fortunes is None else f", pays {_odds(ruleset, category)}"
    print(f"{category.name.lower().replace('_', ' ')}{paid} ({ruleset.cite('pair-fortunes')})")


def _odds(ruleset: RuleSet, category: Any) -> str:
    odds = ruleset.pair_fortunes.odds.get(category) if ruleset.pair_fortunes else None
    return (
        "nothing (the wager loses)" if odds is None else f"{odds.numerator} to {odds.denominator}"
    )


def _rule_sets(args: argparse.Namespace) -> None:
    for ruleset in RULE_SETS.values():
        _print_rule_set(ruleset)


_ONLY_WHERE_OFFERED = ("vig_rounding", "collection_schedule", "pair_fortunes")
"""Options a rule set without the thing itself (vigorish, a schedule, the wager) cannot take."""


def _print_rule_set(ruleset: RuleSet) -> None:
    """Print a rule set: what its jurisdiction fixes, then what a table may set, and its
    Pair Fortunes paytable whole (PA 621a.8(j), 2019)."""
    print(f"{ruleset.name}: {ruleset.title}")
    shown = ruleset.options()
    print("  fixed by the rules:")
    for key, value in shown.items():
        if key not in TABLE_OPTIONS:
            print(f"    {key}: {value}")
    print("  table options (table_opened.options):")
    for key, option in TABLE_OPTIONS.items():
        if key in _ONLY_WHERE_OFFERED and getattr(ruleset, key) is None:
            continue  # e.g. a collection schedule outside California
        rule = ruleset.citations.get(option.rule_key, "-")
        print(f"    {key}: {shown[key]}  [{option.values}; {rule}]")
    if ruleset.pair_fortunes is not None:
        rule = ruleset.citations.get("pair-fortunes-paytable", "the house's approved paytable")
        print(f"  pair_fortunes paytable ({shown['pair_fortunes']}; {rule}):")
        for category, odds in ruleset.pair_fortunes.odds.items():
            print(f"    {category.value}: {odds.numerator} to {odds.denominator}")
