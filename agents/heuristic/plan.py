"""The heuristic's fixed plan: whom to hire, play and train, in what order, and what salaries cost."""

from __future__ import annotations

from operator import itemgetter

from fcm_env.data import EMPLOYEES, EmployeeType, Good
from fcm_env.engine.state import GameState

E = EmployeeType

#: the entry-level card every type is trained from (its "career line")
LINE: dict[int, int] = {}
for _spec in EMPLOYEES:
    if _spec.entry_level:
        _todo = [int(_spec.type)]
        while _todo:
            _t = _todo.pop()
            LINE.setdefault(_t, int(_spec.type))
            _todo.extend(int(u) for u in EMPLOYEES[_t].trains_to)

#: hiring plan: (entry-level line, how many of that line we want by then), in order
HIRING_PLAN: tuple[tuple[int, int], ...] = (
    (E.MARKETING_TRAINEE, 1),
    (E.KITCHEN_TRAINEE, 1),
    (E.RECRUITING_GIRL, 1),
    (E.MANAGEMENT_TRAINEE, 1),
    (E.KITCHEN_TRAINEE, 2),
    (E.TRAINER, 1),
    (E.MARKETING_TRAINEE, 2),
    (E.WAITRESS, 1),
    (E.ERRAND_BOY, 1),
    (E.MANAGEMENT_TRAINEE, 2),
    (E.PRICING_MANAGER, 1),
    (E.WAITRESS, 2),
    (E.KITCHEN_TRAINEE, 3),
    (E.MARKETING_TRAINEE, 3),
    (E.MANAGEMENT_TRAINEE, 3),
    (E.WAITRESS, 3),
    (E.ERRAND_BOY, 2),
)

#: which card to play first in Restructuring (staff; managers are handled apart)
PLAY_PRIORITY: tuple[int, ...] = (
    E.BURGER_CHEF, E.PIZZA_CHEF, E.BURGER_COOK, E.PIZZA_COOK,
    E.BRAND_DIRECTOR, E.BRAND_MANAGER, E.CAMPAIGN_MANAGER, E.MARKETING_TRAINEE,
    E.KITCHEN_TRAINEE, E.CFO, E.LUXURIES_MANAGER,
    E.ZEPPELIN_PILOT, E.TRUCK_DRIVER, E.CART_OPERATOR, E.ERRAND_BOY,
    E.WAITRESS, E.NEW_BUSINESS_DEVELOPER, E.REGIONAL_MANAGER, E.LOCAL_MANAGER,
    E.PRICING_MANAGER, E.DISCOUNT_MANAGER,
    E.HR_DIRECTOR, E.RECRUITING_MANAGER, E.RECRUITING_GIRL,
    E.GURU, E.COACH, E.TRAINER,
)

#: what a trainee should become (first available target wins)
TRAIN_GOALS: dict[int, tuple[int, ...]] = {
    E.KITCHEN_TRAINEE: (E.BURGER_COOK, E.PIZZA_COOK),
    E.BURGER_COOK: (E.BURGER_CHEF,),
    E.PIZZA_COOK: (E.PIZZA_CHEF,),
    E.MARKETING_TRAINEE: (E.CAMPAIGN_MANAGER,),
    E.CAMPAIGN_MANAGER: (E.BRAND_MANAGER,),
    E.MANAGEMENT_TRAINEE: (E.JUNIOR_VICE_PRESIDENT,),
    E.JUNIOR_VICE_PRESIDENT: (E.VICE_PRESIDENT,),
    E.ERRAND_BOY: (E.CART_OPERATOR,),
}

SALARY = 5
FOOD = (Good.BURGER, Good.PIZZA)

#: card types that draw a salary, and the staff (non-manager) types of ``PLAY_PRIORITY``, as item getters
SALARIED = itemgetter(*(int(spec.type) for spec in EMPLOYEES if spec.salary))
STAFF = itemgetter(*(int(t) for t in PLAY_PRIORITY if not EMPLOYEES[t].is_manager))
#: the manager slots of each manager type
MANAGER_SLOTS: dict[int, int] = {int(spec.type): spec.manager_slots for spec in EMPLOYEES if spec.is_manager}
#: the cards ``_train_reserve`` may keep on the beach for a trainer, in its order of preference
TRAIN_RESERVE: tuple[int, ...] = (E.KITCHEN_TRAINEE, E.MANAGEMENT_TRAINEE, E.MARKETING_TRAINEE, E.ERRAND_BOY)


def _salaried(state: GameState, player: int) -> int:
    """How many of the player's cards (at work, on the beach or busy) draw a salary."""
    p = state.players[player]
    return sum(SALARIED((p.work + p.beach + p.busy).tolist()))
