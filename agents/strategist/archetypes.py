"""The strategist's archetypes: six coherent plans a good player would recognise, as tables.

Each archetype says which reserve card it keeps (and so its first CEO slots and the bank it plays with),
whom it hires and in what order, what it puts to work first, what it trains its people into, which
campaign kinds it prefers and which goods it advertises. The strategist (``agent``) plays every decision
from these tables, the map reading and the shadow Dinnertime; docs/strategist.md has a paragraph per plan.
"""

from __future__ import annotations

from dataclasses import dataclass

from fcm_env.data import CampaignType, EmployeeType, Good

from ..heuristic.plan import HIRING_PLAN, PLAY_PRIORITY, TRAIN_GOALS

E = EmployeeType
C = CampaignType
DRINK = "drink"  # in ``products``: the drink the chain can haul (or the nearest on the map)
FOOD = "food"  # in ``products``: the chain's main food (burgers or pizzas, by its cooks)


@dataclass(frozen=True)
class Archetype:
    """One plan: the tables the strategist plays it with."""

    name: str
    summary: str
    reserve: int  # the reserve card kept: $100 (2 CEO slots), $200 (3) or $300 (4)
    hiring_plan: tuple[tuple[int, int], ...]  # (entry-level line, how many of it by then), in order
    play_priority: tuple[int, ...]  # which card goes to work first in Restructuring (staff)
    train_goals: dict[int, tuple[int, ...]]  # what each card should become (first available goal wins)
    campaign_kinds: tuple[int, ...] = (C.BILLBOARD, C.MAILBOX, C.AIRPLANE, C.RADIO)  # preferred first
    products: tuple[str | int, ...] = (FOOD,)  # what its campaigns advertise, in order of preference
    train_reserve: tuple[int, ...] = (E.KITCHEN_TRAINEE, E.MANAGEMENT_TRAINEE, E.MARKETING_TRAINEE, E.ERRAND_BOY)
    extra_hires: tuple[int, ...] = (E.KITCHEN_TRAINEE, E.WAITRESS, E.MARKETING_TRAINEE)  # after the plan
    extra_cap: int = 5  # each extra line up to this many cards (the heuristic's 5)
    train_margin: int = 2  # training waits until the cash covers this many salaries more (the heuristic's 2)
    #: the cards the plan wants to own, (type, how many) in order: the organisation planner's goal
    #: (``planner``); empty: the training goals alone
    targets: tuple[tuple[int, int], ...] = ()


_KITCHEN = (E.BURGER_CHEF, E.PIZZA_CHEF, E.BURGER_COOK, E.PIZZA_COOK)
_MARKETEERS = (E.BRAND_DIRECTOR, E.BRAND_MANAGER, E.CAMPAIGN_MANAGER, E.MARKETING_TRAINEE)
_HAULERS = (E.ZEPPELIN_PILOT, E.TRUCK_DRIVER, E.CART_OPERATOR, E.ERRAND_BOY)
_MANAGERS = (E.NEW_BUSINESS_DEVELOPER, E.REGIONAL_MANAGER, E.LOCAL_MANAGER, E.PRICING_MANAGER,
             E.DISCOUNT_MANAGER, E.LUXURIES_MANAGER, E.CFO)
_SUPPORT = (E.HR_DIRECTOR, E.RECRUITING_MANAGER, E.RECRUITING_GIRL, E.GURU, E.COACH, E.TRAINER)


def _priority(*first: tuple[int, ...]) -> tuple[int, ...]:
    """The play order: the given groups first, then every other staff card in the heuristic's order."""
    order: list[int] = []
    for group in (*first, _KITCHEN, _MARKETEERS, (E.KITCHEN_TRAINEE,), _HAULERS, (E.WAITRESS,), _MANAGERS, _SUPPORT):
        order.extend(int(t) for t in group if int(t) not in order)
    return tuple(order)


#: every plan opens as a good player does: a marketeer for the first billboard (eternal campaigns, no
#: marketeer salaries: rules, First billboard placed), a cook, a recruiter and a manager for the slots
OPENER = ((E.MARKETING_TRAINEE, 1), (E.KITCHEN_TRAINEE, 1), (E.RECRUITING_GIRL, 1), (E.MANAGEMENT_TRAINEE, 1))

_COOKS = {E.KITCHEN_TRAINEE: (E.BURGER_COOK, E.PIZZA_COOK), E.BURGER_COOK: (E.BURGER_CHEF,),
          E.PIZZA_COOK: (E.PIZZA_CHEF,)}

def _goals(*signature: tuple[int, tuple[int, ...]], cooks_first: bool = False) -> dict[int, tuple[int, ...]]:
    """Training goals: the plan's signature line first (trained before the cooks), then the cooks; or the
    cooks first (a plan that lives on its sales from the start)."""
    goals = dict(_COOKS) if cooks_first else {}
    goals.update(signature)
    for source, targets in _COOKS.items():
        goals.setdefault(source, targets)
    return goals


def _reserve(*signature: int) -> tuple[int, ...]:
    """Cards kept on the beach for a trainer: the signature line's first, then the heuristic's."""
    return tuple(dict.fromkeys((*signature, E.KITCHEN_TRAINEE, E.MANAGEMENT_TRAINEE, E.MARKETING_TRAINEE,
                                E.ERRAND_BOY)))


#: the heuristic's hiring plan, play order and training goals: the economy a plan driven by the organisation
#: planner (``targets``) keeps beside its signature cards
HEURISTIC_ECONOMY = {"hiring_plan": HIRING_PLAN, "play_priority": PLAY_PRIORITY, "train_goals": TRAIN_GOALS}

ARCHETYPES: dict[str, Archetype] = {a.name: a for a in (
    Archetype(
        name="marketing",
        summary="a marketing economy: the heuristic's burger economy whose organisation planner trains a brand "
                "manager and then a brand director; billboards near its restaurant, then airplanes (and radios) "
                "for demand across the map",
        reserve=200,
        **HEURISTIC_ECONOMY,
        train_reserve=_reserve(E.BRAND_MANAGER, E.CAMPAIGN_MANAGER, E.MARKETING_TRAINEE),
        campaign_kinds=(C.RADIO, C.AIRPLANE, C.MAILBOX, C.BILLBOARD),
        products=(FOOD,),
        targets=((E.BURGER_COOK, 1), (E.BRAND_MANAGER, 1), (E.BRAND_DIRECTOR, 1)),
    ),
    Archetype(
        name="drinks",
        summary="a drinks chain: errand boys, then cart operators and trucks haul beer, lemonade and soda; "
                "campaigns sell drinks beside its burgers or pizzas",
        reserve=200,
        hiring_plan=(*OPENER, (E.ERRAND_BOY, 1), (E.KITCHEN_TRAINEE, 2), (E.TRAINER, 1), (E.ERRAND_BOY, 2),
                     (E.PRICING_MANAGER, 1), (E.WAITRESS, 1), (E.MARKETING_TRAINEE, 2), (E.ERRAND_BOY, 3)),
        play_priority=_priority(_KITCHEN, _HAULERS, (E.PRICING_MANAGER, E.WAITRESS)),
        train_goals=_goals((E.ERRAND_BOY, (E.CART_OPERATOR,)), (E.CART_OPERATOR, (E.TRUCK_DRIVER,)),
                           (E.TRUCK_DRIVER, (E.ZEPPELIN_PILOT,))),
        train_reserve=_reserve(E.CART_OPERATOR, E.ERRAND_BOY),
        products=(DRINK, FOOD),
        extra_hires=(E.KITCHEN_TRAINEE, E.WAITRESS, E.ERRAND_BOY),
    ),
    Archetype(
        name="discount",
        summary="a price war: pricing managers first, discount managers trained up, waitresses to win the "
                "ties; it sells below everyone on the houses it reaches",
        reserve=200,
        hiring_plan=(*OPENER, (E.PRICING_MANAGER, 1), (E.KITCHEN_TRAINEE, 2), (E.WAITRESS, 1),
                     (E.TRAINER, 1), (E.MANAGEMENT_TRAINEE, 2), (E.PRICING_MANAGER, 2), (E.WAITRESS, 2),
                     (E.MARKETING_TRAINEE, 2)),
        play_priority=_priority(_KITCHEN, (E.DISCOUNT_MANAGER, E.PRICING_MANAGER, E.WAITRESS)),
        train_goals=_goals((E.MANAGEMENT_TRAINEE, (E.JUNIOR_VICE_PRESIDENT,)),
                           (E.JUNIOR_VICE_PRESIDENT, (E.DISCOUNT_MANAGER,)),
                           (E.MARKETING_TRAINEE, (E.CAMPAIGN_MANAGER,)), cooks_first=True),
        extra_hires=(E.KITCHEN_TRAINEE, E.WAITRESS, E.MARKETING_TRAINEE),
    ),
    Archetype(
        name="luxury",
        summary="a luxury chain: a luxuries manager (+$10 a unit, put to work where the forecast says it "
                "pays) and gardens (double the bill) from new business developers; fewer sales at a higher price",
        reserve=200,
        hiring_plan=(*OPENER, (E.TRAINER, 1), (E.KITCHEN_TRAINEE, 2), (E.MANAGEMENT_TRAINEE, 2),
                     (E.WAITRESS, 1), (E.MARKETING_TRAINEE, 2), (E.MANAGEMENT_TRAINEE, 3)),
        play_priority=_priority(_KITCHEN, (E.LUXURIES_MANAGER, E.NEW_BUSINESS_DEVELOPER)),
        train_goals=_goals((E.MANAGEMENT_TRAINEE, (E.LUXURIES_MANAGER, E.NEW_BUSINESS_DEVELOPER))),
        train_reserve=_reserve(E.MANAGEMENT_TRAINEE),
    ),
    Archetype(
        name="expansion",
        summary="an expansion chain: the heuristic's burger economy whose organisation planner trains a local "
                "manager (management trainee, junior vice president, local manager) to open a second and third "
                "restaurant (or drive-ins) where the houses are, then lets it go",
        reserve=200,
        **HEURISTIC_ECONOMY,
        train_reserve=_reserve(E.VICE_PRESIDENT, E.JUNIOR_VICE_PRESIDENT, E.MANAGEMENT_TRAINEE),
        targets=((E.LOCAL_MANAGER, 1),),
    ),
    Archetype(
        name="cfo",
        summary="a CFO and milestone racer: the first trainer, waitress and billboard, the management line "
                "trained to a CFO (or the CEO as one after the first $100) for half again on every sale",
        reserve=100,
        hiring_plan=(*OPENER, (E.WAITRESS, 1), (E.TRAINER, 1), (E.KITCHEN_TRAINEE, 2), (E.TRAINER, 2),
                     (E.MANAGEMENT_TRAINEE, 2), (E.WAITRESS, 2), (E.MARKETING_TRAINEE, 2)),
        play_priority=_priority((E.CFO,), _KITCHEN, (E.WAITRESS,)),
        train_goals=_goals((E.MANAGEMENT_TRAINEE, (E.JUNIOR_VICE_PRESIDENT,)),
                           (E.JUNIOR_VICE_PRESIDENT, (E.VICE_PRESIDENT,)),
                           (E.VICE_PRESIDENT, (E.SENIOR_VICE_PRESIDENT,)),
                           (E.SENIOR_VICE_PRESIDENT, (E.CFO,)), (E.MARKETING_TRAINEE, (E.CAMPAIGN_MANAGER,)),
                           cooks_first=True),
        extra_hires=(E.KITCHEN_TRAINEE, E.WAITRESS, E.MARKETING_TRAINEE),
    ),
)}

#: how close to the best score a placement must be to be drawn among (the agent's seeded variation)
NEAR_BEST = 0.06
#: the stock every chain is given when the agent's forecast weighs prices alone
AMPLE = 10
#: the chance that a hire of the plan swaps places with the next one in a game (the agent's seeded timings)
SWAP = 0.2
#: the range of a game's cap on each extra line hired after the plan (the heuristic's: 5)
EXTRA_CAPS = (4, 5)

#: the goods a drink source square gives, for ``products``' DRINK
DRINKS = (Good.BEER, Good.LEMONADE, Good.SODA)


def archetype(name: str) -> Archetype:
    """The archetype called ``name`` (ValueError listing the names otherwise)."""
    try:
        return ARCHETYPES[name]
    except KeyError:
        raise ValueError(f"unknown archetype {name!r}: use one of {', '.join(ARCHETYPES)}") from None


def parse_strategist_params(text: str) -> dict[str, object]:
    """``archetype=NAME,seed=S,variation=F`` (any of them, in any order) -> the checked values; a clear
    ValueError naming what is wrong."""
    out: dict[str, object] = {}
    for piece in (p.strip() for p in text.split(",") if p.strip()):
        key, eq, value = piece.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not value:
            raise ValueError(f"strategist: expected KEY=VALUE, got {piece!r} (keys: archetype, seed, variation)")
        if key == "archetype":
            if value != "auto":
                archetype(value)  # raises naming the archetypes
            out[key] = value
        elif key == "seed":
            try:
                out[key] = int(value)
            except ValueError:
                raise ValueError(f"strategist: seed must be an integer, got {value!r}") from None
        elif key == "variation":
            try:
                variation = float(value)
            except ValueError:
                raise ValueError(f"strategist: variation must be a number, got {value!r}") from None
            if not 0.0 <= variation <= 1.0:
                raise ValueError(f"strategist: variation must lie in [0, 1], got {variation}")
            out[key] = variation
        else:
            raise ValueError(f"strategist: unknown key {key!r} (keys: archetype, seed, variation)")
    return out
