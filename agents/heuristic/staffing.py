"""The heuristic's staff: the reserve card, Restructuring, turn order, recruiting, training and firing."""

from __future__ import annotations

from fcm_env.data import EMPLOYEES
from fcm_env.engine.actions import Action, ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.phases.restructuring import open_slots
from fcm_env.engine.state import GameState

from .from_legal import _turn_order_from_legal
from .plan import (
    HIRING_PLAN,
    LINE,
    MANAGER_SLOTS,
    PLAY_PRIORITY,
    SALARY,
    STAFF,
    TRAIN_GOALS,
    TRAIN_RESERVE,
    E,
    _salaried,
)
from .views import SharedViews


class Staffing(SharedViews):
    """The answers about cards: which to put to work, hire, train, keep on the beach or fire.

    The plan's tables are class attributes (``plan.py``'s values): a player with another plan (the
    strategist's archetypes, ``fcm_agents.strategist``) sets its own and keeps these answers."""

    hiring_plan: tuple[tuple[int, int], ...] = HIRING_PLAN
    play_priority: tuple[int, ...] = PLAY_PRIORITY
    train_goals: dict[int, tuple[int, ...]] = TRAIN_GOALS
    train_reserve: tuple[int, ...] = TRAIN_RESERVE
    #: training waits until the cash covers this many salaries more than the chain pays now
    train_margin: int = 2
    #: after the hiring plan: these lines, each up to ``extra_cap`` cards
    extra_hires: tuple[int, ...] = (E.KITCHEN_TRAINEE, E.WAITRESS, E.MARKETING_TRAINEE)
    extra_cap: int = 5

    def _reserve_card(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        offer = game.state.players[player].reserve_offer
        # the $200 card (3 CEO slots) keeps the CEO as it is
        return min(legal, key=lambda a: abs(offer[a.args[0]] - 200))

    def _restructure(self, game: Game, player: int, legal: list[Action],
                     priority: tuple[int, ...] | None = None) -> Action | None:
        """The card to put to work next: a manager first when the staff waiting outnumber the open slots,
        then the first card of ``priority`` (the plan's play order by default) in hand."""
        state = game.state
        p = state.players[player]
        puts = {a.args[0]: a for a in legal if a.kind == ActionKind.PUT_TO_WORK}
        if not puts:
            return None
        hand = p.hand.tolist()
        keep_on_beach = self._train_reserve(state, player, hand)
        staff_waiting = sum(STAFF(hand)) - (1 if keep_on_beach is not None else 0)
        managers = sorted((t for t in puts if t in MANAGER_SLOTS), key=lambda t: -MANAGER_SLOTS[t])
        if managers and staff_waiting > open_slots(p.work, state.ceo_slots) - 1:
            return puts[managers[0]]
        for t in (self.play_priority if priority is None else priority):
            if t in puts and not (t == keep_on_beach and hand[t] <= 1):
                return puts[t]
        return Action.pass_() if Action.pass_() in legal else None

    def _train_reserve(self, state: GameState, player: int, hand: list[int] | None = None) -> int | None:
        """A card to leave on the beach so that a trainer at work can train it (``hand``: as a list)."""
        p = state.players[player]
        if hand is None:
            hand = p.hand.tolist()
        trainers = hand[E.TRAINER] + hand[E.COACH] + hand[E.GURU] + int(p.work[E.TRAINER])
        if not trainers or p.cash < 2 * SALARY * (1 + _salaried(state, player)):
            return None
        for t in self.train_reserve:
            if hand[t] > 0:
                return int(t)
        return None

    def _turn_order(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        return _turn_order_from_legal(legal)

    @staticmethod
    def _owned_lines(state: GameState, player: int) -> dict[int, int]:
        """Cards owned per career line (the CEO, type 0, is in none), eternal campaigns' marketeers included."""
        counts: dict[int, int] = {}
        for t, n in enumerate(state.owned_cards(player).tolist()):
            if n and t:
                line = LINE.get(t)
                if line is not None:
                    counts[line] = counts.get(line, 0) + n
        return counts

    def _recruit(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        hires = {a.args[0]: a for a in legal if a.kind == ActionKind.RECRUIT}
        counts = self._owned_lines(state, player)
        for line, want in self.hiring_plan:
            if line in hires and counts.get(line, 0) < want:
                return hires[line]
        for line in self.extra_hires:
            if line in hires and counts.get(line, 0) < self.extra_cap:
                return hires[line]
        return Action.pass_()

    def _train(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        p = state.players[player]
        moves = [a for a in legal if a.kind == ActionKind.TRAIN]
        if not moves:
            return None
        must = Action.pass_() not in legal  # a phantom hire must be trained
        affordable = p.cash >= SALARY * (self.train_margin + _salaried(state, player))
        if not (affordable or must):
            return Action.pass_()
        for source, goals in self.train_goals.items():
            for goal in goals:
                for move in moves:
                    if move.args[1] == source and move.args[2] == goal:
                        return move
        return moves[0] if must else Action.pass_()

    def _fire(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        if Action.pass_() in legal:
            return Action.pass_()  # only fire when the salaries cannot be paid
        state = game.state
        p = state.players[player]
        fires = [a for a in legal if a.kind == ActionKind.FIRE]
        order = {t: i for i, t in enumerate(self.play_priority)}

        def usefulness(action: Action) -> tuple[int, int, int]:
            t = action.args[0]
            idle = int(p.beach[t] - p.fired[t] > 0)  # an idle card on the beach goes first
            return (-idle, -int(EMPLOYEES[t].salary), -order.get(t, len(order)))

        return min(fires, key=usefulness)
