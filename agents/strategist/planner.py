"""The organisation planner: the path through the employee tree to a plan's target structure, within
the CEO's slots and the salaries the chain can pay.

A plan names the cards it wants to own (``Archetype.targets``: a local manager, a CFO, two cart
operators ...). Each round the planner assigns every owned card that can still be trained to the
nearest target it can become (fewest trainings through ``trains_to``), a target nobody is on the way
to is a hire of its entry-level line, and it asks for trainers when the trainings left outrun the
trainers it owns. The trainings of this round are the first step of each assignment, in the plan's
order, as far as the trainers at hand reach and the cash covers the salaries they add (a trained card
draws $5 a round: rules, Payday). The cards to be trained stay on the beach (a trainer trains only
cards not at work: rules, Recruiting & Training), and the trainers they need go to work first.
It plans one training per card a round (a coach's or guru's second training of one card is left
to the legal moves).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from fcm_env.data import EMPLOYEES, EmployeeType

from ..heuristic.plan import LINE, SALARY

E = EmployeeType
_N = len(EMPLOYEES)
#: trainings a trainer card gives a round (rules: trainer 1, coach 2, guru 3)
TRAINING_CARDS = {int(spec.type): int(spec.train) for spec in EMPLOYEES if spec.train}
#: how many rounds of training the planner plans for before it asks for another trainer
HORIZON = 3
#: at most this many trainer cards hired for a plan (each takes a slot)
MAX_TRAINERS = 2


def _distances() -> tuple[list[list[int | None]], list[list[int | None]]]:
    """(trainings from each type to each type, the type after the first of them): BFS over ``trains_to``."""
    dist: list[list[int | None]] = [[None] * _N for _ in range(_N)]
    step: list[list[int | None]] = [[None] * _N for _ in range(_N)]
    for source in range(_N):
        dist[source][source] = 0
        queue = deque([(source, None)])
        while queue:
            t, first = queue.popleft()
            for u in (int(v) for v in EMPLOYEES[t].trains_to):
                if dist[source][u] is None:
                    dist[source][u] = dist[source][t] + 1
                    step[source][u] = first if first is not None else u
                    queue.append((u, step[source][u]))
    return dist, step


DIST, NEXT = _distances()



@dataclass(frozen=True)
class Assignment:
    """One wanted card: ``goal``, reached from the owned ``card`` in ``steps`` trainings (``card`` None:
    not owned yet, a hire of ``LINE[goal]``)."""

    goal: int
    card: int | None
    steps: int


@dataclass(frozen=True)
class OrgPlan:
    """This round's part of the path to the plan's structure."""

    assignments: tuple[Assignment, ...]
    hires: tuple[int, ...]  # entry-level cards to recruit, in order (targets' lines, then trainers)
    trainings: tuple[tuple[int, int], ...]  # (card, the type it becomes) wanted this round, in order
    beach: dict[int, int]  # cards kept off work so that the trainers can train them
    trainers: dict[int, int]  # trainer cards wanted at work this round for those trainings (by type)

    @property
    def complete(self) -> bool:
        return all(a.steps == 0 for a in self.assignments)


def plan_organisation(available: Sequence[int], owned: Sequence[int], targets: Sequence[tuple[int, int]],
                      cash: int, salaried: int, margin: int, goals: Mapping[int, Sequence[int]] | None = None,
                      spare_to_train: Sequence[int] = ()) -> OrgPlan:
    """The next part of the path to ``targets`` ((type, how many), in order).

    ``available``: the cards per type that can be trained or put to work (owned, not busy on a
    campaign); ``owned``: every card per type (the trainers the chain has); ``salaried``: how many of
    its cards draw a salary now; ``margin``: training waits until the cash covers this many salaries
    more than the chain would then pay (``Archetype.train_margin``). Trainers left over after the
    targets' steps train one card no target needs by ``goals`` (the plan's training goals), of the first
    type in ``spare_to_train`` it owns (the cards a plan can spare from work for a round)."""
    pool = Counter({t: int(n) for t, n in enumerate(available) if n and t != E.CEO})
    assignments: list[Assignment] = []
    for goal, count in targets:
        for _ in range(count):
            options = [t for t in pool if pool[t] and DIST[t][goal] is not None]
            if options:
                card = min(options, key=lambda t: (DIST[t][goal], t))
                pool[card] -= 1
                assignments.append(Assignment(goal, card, DIST[card][goal]))
            else:
                line = LINE[goal]
                assignments.append(Assignment(goal, None, DIST[line][goal] + 1))  # +1: the hire
    hires = [LINE[a.goal] for a in assignments if a.card is None]
    left = sum(a.steps for a in assignments if a.card is not None) + sum(a.steps - 1 for a in assignments
                                                                        if a.card is None)
    capacity = sum(TRAINING_CARDS[t] * int(owned[t]) for t in TRAINING_CARDS)
    trainers_owned = sum(int(owned[t]) for t in TRAINING_CARDS)
    if left > capacity * HORIZON and trainers_owned < MAX_TRAINERS:
        hires.append(int(E.TRAINER))
    trainings: list[tuple[int, int]] = []
    beach: Counter[int] = Counter()
    budget = capacity
    for a in assignments:
        if a.card is None or a.steps == 0 or budget == 0:
            continue
        after = NEXT[a.card][a.goal]
        adds = int(bool(EMPLOYEES[after].salary)) - int(bool(EMPLOYEES[a.card].salary))
        if cash < SALARY * (margin + salaried + adds):
            break  # the plan's order: a later training waits for this one
        salaried += adds
        trainings.append((a.card, after))
        beach[a.card] += 1
        budget -= 1
    spare = 1  # like the heuristic, one card a round kept off work for its trainer beside the targets' own
    for card in spare_to_train if goals else ():
        for _ in range(pool[card]):
            if budget == 0 or spare == 0 or not goals.get(card):
                break
            spare -= 1
            after = goals[card][0]
            adds = int(bool(EMPLOYEES[after].salary)) - int(bool(EMPLOYEES[card].salary))
            if cash < SALARY * (margin + salaried + adds):
                break
            salaried += adds
            trainings.append((card, after))
            beach[card] += 1
            budget -= 1
    need, trainers = len(trainings), {}
    for t in sorted(TRAINING_CARDS, key=lambda t: -TRAINING_CARDS[t]):  # the strongest trainers first
        k = 0
        while need > 0 and k < int(owned[t]):
            need -= TRAINING_CARDS[t]
            k += 1
        if k:
            trainers[t] = k
    return OrgPlan(tuple(assignments), tuple(hires), tuple(trainings), dict(beach), trainers)
