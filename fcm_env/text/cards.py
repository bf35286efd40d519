"""The employee cards in words: what each card does, its salary and what it trains into.

Why a module of its own: a newcomer at ``fcm play`` or ``fcm web`` needs to know what a card does
before hiring, training or putting it to work. The facts come from the component data
(``fcm_env/data/employees.json`` through ``fcm_env.data.EMPLOYEES``: salary, training paths, slots,
the 1x mark, entry level; the salary amount from ``PRICES``); only the one-line effect of each card is
written here, in ``CARD_EFFECTS``, keyed by the card's key, in the words of docs/rules-reference.md and
docs/rules-decisions.md (tests/text/test_card_reference.py checks every card has one and that its
numbers are the data's). The terminal's ``card NAME`` / ``info`` commands and its choice list, and the
web page's tooltips, all print these lines.
"""

from __future__ import annotations

import re

from fcm_env.data import EMPLOYEES, PRICES, EmployeeSpec, EmployeeType
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.phases.working.recruit_train import POOLED
from fcm_env.text.words import card_name

#: what each card does, one line (the numbers are the card's, as employees.json gives them)
CARD_EFFECTS: dict[str, str] = {
    "ceo": ("your chain's head, always at work: hires 1 card a turn; 3 slots for cards under it "
            "(after the first bank break: the slot number shown on most reserve cards)"),
    "management_trainee": "manager: 2 slots for cards under it",
    "junior_vice_president": "manager: 3 slots for cards under it",
    "vice_president": "manager: 4 slots for cards under it",
    "senior_vice_president": "manager: 5 slots for cards under it",
    "executive_vice_president": "manager: 10 slots for cards under it",
    "waitress": ("+$3 in tips at Dinnertime, sales or not ($5 with First waitress played); decides ties: at "
                 "equal price + distance the chain with more waitresses serves the house"),
    "new_business_developer": ("places a new house (with its garden) next to any road, or a garden beside a "
                               "printed house; anywhere on the map"),
    "cfo": "+50% (rounded up) of the cash your chain earned at Dinnertime, tips included",
    "local_manager": ("opens a new restaurant (coming soon: open next turn) on a tile within 3 tile borders "
                      "by road of your entrances; drive-in: while at work every corner of your restaurants "
                      "is an entrance"),
    "regional_manager": ("opens a new restaurant anywhere (open at once) or moves one of yours; drive-in: "
                         "while at work every corner of your restaurants is an entrance"),
    "pricing_manager": "your unit price -$1",
    "discount_manager": "your unit price -$3",
    "luxuries_manager": "your unit price +$10",
    "recruiting_girl": "hires 1 card",
    "recruiting_manager": "hires up to 2 cards; $5 off your salaries at Payday for each of them not used",
    "hr_director": "hires up to 4 cards; $5 off your salaries at Payday for each of them not used",
    "trainer": "trains 1 card 1 step",
    "coach": "2 training steps a turn, up to 2 on the same card",
    "guru": "3 training steps a turn, up to 3 on the same card",
    "errand_boy": "fetches 1 drink of any kind, no route needed (2 of one kind with First errand boy played)",
    "cart_operator": ("drives up to 2 tile borders by road from an entrance: 2 drinks from each drink source "
                      "beside its route"),
    "truck_driver": ("drives up to 3 tile borders by road from an entrance: 3 drinks from each drink source "
                     "beside its route"),
    "zeppelin_pilot": ("flies up to 4 tiles from an entrance's tile, ignoring roads, never over a tile twice: "
                       "2 drinks from each drink source on the tiles flown over, the first one included"),
    "marketing_trainee": "places a billboard within 2 tile borders by road of your entrances, for up to 2 turns",
    "campaign_manager": ("places a billboard or mailbox within 3 tile borders by road of your entrances, "
                         "for up to 3 turns"),
    "brand_manager": "places a billboard, mailbox or airplane, at any range, for up to 4 turns",
    "brand_director": "places a billboard, mailbox, airplane or radio, at any range, for up to 5 turns",
    "kitchen_trainee": "produces 1 burger or 1 pizza",
    "burger_cook": "produces 3 burgers",
    "burger_chef": "produces 8 burgers",
    "pizza_cook": "produces 3 pizzas",
    "pizza_chef": "produces 8 pizzas",
}


def _spec(card: int | str) -> EmployeeSpec:
    return EMPLOYEES[EmployeeType[card.upper()] if isinstance(card, str) else EmployeeType(card)]


def _key(card: int | str) -> str:
    return card if isinstance(card, str) else EmployeeType(card).key


def card_effect(card: int | str) -> str:
    """What the card does, one line: ``produces 1 burger or 1 pizza``."""
    return CARD_EFFECTS[_key(card)]


def card_salary(card: int | str) -> str:
    """``$5 salary`` or ``no salary`` (the card's salary icon in the data, the amount from the prices)."""
    return f"${PRICES.salary} salary" if _spec(card).salary else "no salary"


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def card_trains(card: int | str) -> str:
    """``trains into burger cook or pizza cook`` / ``trains no further`` (the career printed on the card)."""
    spec = _spec(card)
    if spec.type == EmployeeType.CEO:
        return "cannot be trained"
    if not spec.trains_to:
        return "trains no further"
    return "trains into " + _either([card_name(t) for t in spec.trains_to])


def card_line(card: int | str) -> str:
    """The card in one line: name (1x), effect, salary, training."""
    mark = " (1x)" if _spec(card).unique else ""
    return f"{card_name(card)}{mark}: {card_effect(card)}; {card_salary(card)}; {card_trains(card)}"


def card_note(card: int | str) -> str:
    """What a choice's card does and costs (beside a hire, train or put-to-work choice)."""
    return f"{card_effect(card)}; {card_salary(card)}"


def card_sheet(card: int | str) -> list[str]:
    """Everything the data says about one card, a few lines (``fcm play``'s ``card NAME``)."""
    spec = _spec(card)
    facts = {"ceo": ["every player has one, always at work, never fired"],
             "manager": ["manager (black): goes only under the CEO"]}.get(spec.category, [])
    if spec.entry_level:
        facts.append("entry level: may be hired")
    elif spec.type != EmployeeType.CEO:
        facts.append("reached by training only")
    if spec.unique:
        facts.append("1x: one copy with 2-3 players (two with 4, three with 5); a player may own only one")
    if spec.mandatory:
        facts.append("works automatically when at work")
    lines = [f"{spec.name}: {'; '.join(facts)}",
             f"  does: {card_effect(card)}"]
    if spec.salary:
        lines.append(f"  salary: ${PRICES.salary} every Payday, at work, on the beach or busy")
    else:
        lines.append("  salary: none")
    lines.append(f"  {card_trains(card)}")
    if spec.trained_from:
        lines.append("  trained from " + _either([card_name(t) for t in spec.trained_from]))
    return lines


def card_index() -> list[str]:
    """Every card in one line each, in the order of the data (``fcm play``'s ``info``)."""
    return [card_line(spec.type) for spec in EMPLOYEES]


def find_card(text: str) -> list[str]:
    """The keys of the cards ``text`` names: a key, a name (``kitchen trainee``, ``CFO``), initials
    (``jvp``) or a unique part of a name (``zeppelin``); one key when it is clear, several to choose
    from, none when no card matches."""
    query = re.sub(r"[\s_\-]+", " ", text.strip().lower())
    if not query:
        return []
    names = {spec.type.key: (card_name(spec.type), spec.name.lower()) for spec in EMPLOYEES}
    exact = [key for key, both in names.items() if query in both or query.rstrip("s") in both]
    if exact:
        return exact
    initials = [key for key, (name, _) in names.items() if "".join(w[0] for w in name.split()) == query]
    if initials:
        return initials
    return [key for key, (name, _) in names.items() if query in name]


# ------------------------------------------------------------------ the cards a choice names


def action_cards(action: Action) -> list[str]:
    """The keys of the employee cards ``action`` names, the one it is about first (a training: the card it
    becomes, then the card trained, then the trainer); empty for a choice that names none."""
    a, k = action.args, action.kind
    if k in (ActionKind.RECRUIT, ActionKind.PUT_TO_WORK, ActionKind.FIRE, ActionKind.SELECT_MARKETEER,
             ActionKind.PRODUCE, ActionKind.HAUL, ActionKind.SELECT_RESTAURANT):
        return [EmployeeType(a[0]).key]
    if k == ActionKind.TRAIN:
        keys = [EmployeeType(a[2]).key, EmployeeType(a[1]).key]
        if a[0] != POOLED:
            keys.append(EmployeeType(a[0]).key)
        return list(dict.fromkeys(keys))
    return []


def choice_note(action: Action) -> str | None:
    """What the card of a hire, training or put-to-work choice does and costs (a training: the card it
    becomes); None for other choices."""
    if action.kind in (ActionKind.RECRUIT, ActionKind.PUT_TO_WORK, ActionKind.TRAIN):
        return card_note(action_cards(action)[0])
    return None


def choice_tip(action: Action) -> str | None:
    """The cards a choice names, one line each (the web page's tooltip); None when it names none."""
    keys = action_cards(action)
    return "\n".join(card_line(key) for key in keys) if keys else None
