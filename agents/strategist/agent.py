"""``StrategistAgent``: the heuristic's answers played from an archetype's tables, with a map reading, the
shadow Dinnertime and seeded variation.

What it changes from the heuristic:

* the plan: the reserve card, hiring plan, play order and training goals of its archetype
  (``archetypes``), chosen per map and table by the default (``reading.choose_archetype``);
* production: every production or haul is scored by the shadow Dinnertime (``forecast``): the cash the
  chain would earn at this Dinnertime with those goods in stock, against today's demand and rivals;
* campaigns: the archetype's preferred kinds first, its products (its main food, or a drink it can haul);
* seeded variation: where placements (restaurants, campaigns) score within a few percent of the best,
  the agent's generator picks among them, and each game draws the plan's timings (``_varied``), so two
  games on one map are not one game.

Like the heuristic it reads only its seat's view (``Game.seat_view``): the base class builds it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import ClassVar

from fcm_env.data import EMPLOYEES, PRICES, Good, marketing_tile
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState, Phase

from ..heuristic import HeuristicAgent
from ..heuristic.from_legal import FROM_LEGAL
from ..heuristic.plan import _salaried
from .archetypes import AMPLE, DRINK, DRINKS, EXTRA_CAPS, FOOD, NEAR_BEST, OPENER, SWAP, Archetype
from .archetypes import archetype as archetype_named
from .forecast import shadow_dinnertime
from .planner import OrgPlan, plan_organisation
from .reading import choose_archetype, read_map


class StrategistAgent(HeuristicAgent):
    """A player of one coherent plan (``archetype``), or of the plan the map suggests (``archetype=None``)."""

    # its own answers replace the heuristic's quick ones for these decisions
    from_legal: ClassVar[dict] = {d: f for d, f in FROM_LEGAL.items()
                                  if d not in (Decision.RESTRUCTURE, Decision.PRODUCE, Decision.FIRE)}

    def __init__(self, archetype: str | None = None, seed: int | None = None, name: str = "strategist",
                 variation: float = NEAR_BEST):
        super().__init__(seed, name)
        self.fixed = None if archetype in (None, "auto") else archetype_named(archetype)
        self.variation = float(variation)
        self._chosen: dict[tuple, Archetype] = {}
        self._adopt(self.fixed if self.fixed is not None else archetype_named("discount"))  # until a game asks

    def reset(self) -> None:
        super().reset()
        self._chosen.clear()

    # ------------------------------------------------------------------ the plan

    def plan_for(self, state: GameState, player: int) -> Archetype:
        """The plan this seat plays in this game: its archetype (fixed, or chosen from the map reading by
        the default) with this game's seeded timings (``_varied``). It is drawn once the first restaurant
        is down (at the reserve card, which the plan decides, or at the first decision after setup) and
        kept for the game; before that (placing the first restaurant) the answer is provisional."""
        key = (state.board.layout, player, state.num_players)
        chosen = self._chosen.get(key)
        asked = state.pending[-1].decision if state.pending else None
        if asked == Decision.RESERVE_CARD or (chosen is None and state.phase != Phase.SETUP_RESTAURANTS):
            chosen = self._chosen[key] = self._varied(self._base(state, player))
        elif chosen is None or state.phase == Phase.SETUP_RESTAURANTS:  # a new game: nothing kept yet
            return self._base(state, player)
        return chosen

    def _base(self, state: GameState, player: int) -> Archetype:
        return self.fixed if self.fixed is not None else archetype_named(choose_archetype(read_map(state, player)))

    def _varied(self, plan: Archetype) -> Archetype:
        """This game's timings (seeded draws; none without variation), so one plan is many games: after the
        opener each hire of the plan swaps places with the next one with probability ``SWAP``, training
        waits for the plan's cash margin or one salary more, and the extra hires after the plan stop at 4
        or 5 cards a line."""
        if self.variation <= 0.0:
            return plan
        hiring = list(plan.hiring_plan)
        for i in range(len(OPENER), len(hiring) - 1):
            if self._rng.random() < SWAP:
                hiring[i], hiring[i + 1] = hiring[i + 1], hiring[i]
        margin = plan.train_margin + int(self._rng.integers(0, 2))  # train as soon as the plan says, or a turn later
        cap = int(self._rng.integers(EXTRA_CAPS[0], EXTRA_CAPS[1] + 1))  # how far the extra hires go
        return replace(plan, hiring_plan=tuple(hiring), train_margin=margin, extra_cap=cap)

    def _adopt(self, plan: Archetype) -> None:
        self._plan = plan
        self.hiring_plan = plan.hiring_plan
        self.play_priority = plan.play_priority
        self.train_goals = plan.train_goals
        self.train_reserve = plan.train_reserve
        self.train_margin = plan.train_margin
        self.extra_hires = plan.extra_hires
        self.extra_cap = plan.extra_cap

    def act_on_game(self, game: Game, player: int) -> Action:
        if game.pending is not None and game.pending.player == player:
            self._adopt(self.plan_for(game.state, player))
        return super().act_on_game(game, player)

    # ------------------------------------------------------------------ answers of its own

    def _reserve_card(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        offer = game.state.players[player].reserve_offer
        want = self._plan.reserve
        return min(legal, key=lambda a: abs(offer[a.args[0]] - want))

    def _restructure(self, game: Game, player: int, legal: list[Action],
                     priority: tuple[int, ...] | None = None) -> Action | None:
        """The plan's play order, except a manager that changes the unit price (pricing, discount, luxuries):
        put to work only when the shadow Dinnertime says it earns more, every chain stocked for every
        order (so the forecast weighs prices and distances alone). A plan with targets keeps the cards
        its organisation planner trains this round on the beach and puts the trainers they need first."""
        remaining = list(legal)
        state = game.state
        org = self._org(state, player)
        if org is not None:
            p = state.players[player]
            remaining = [a for a in remaining if not (a.kind == ActionKind.PUT_TO_WORK
                                                      and p.hand[a.args[0]] <= org.beach.get(a.args[0], 0))]
            if _all_restaurants_out(state, player):  # a local or regional manager has nothing left to open
                remaining = [a for a in remaining if not (a.kind == ActionKind.PUT_TO_WORK
                                                          and EMPLOYEES[a.args[0]].restaurant_placement)]
            wanted = tuple(t for t, k in org.trainers.items() if p.work[t] < k)
            priority = (*wanted, *self.play_priority)
        keep = self._train_reserve(state, player)
        if org is None and keep is not None and EMPLOYEES[keep].is_manager and state.players[player].hand[keep] <= 1:
            # the plan trains its managers up (a junior vice president into a local manager): the one
            # kept for the trainer stays on the beach while another manager can give the slots
            others = [a for a in remaining if a.kind == ActionKind.PUT_TO_WORK and a.args[0] != keep
                      and EMPLOYEES[a.args[0]].is_manager]
            if others:
                remaining = [a for a in remaining if not (a.kind == ActionKind.PUT_TO_WORK and a.args[0] == keep)]
        while True:
            choice = super()._restructure(game, player, remaining, priority)
            if choice is None or choice.kind != ActionKind.PUT_TO_WORK or not EMPLOYEES[choice.args[0]].price_delta:
                return choice
            if self._price_change_pays(game.state, player, choice.args[0]):
                return choice
            remaining = [a for a in remaining if a != choice]
            if not remaining:
                return choice

    def _org(self, state: GameState, player: int) -> OrgPlan | None:
        """This round's part of the plan's organisation path (``planner``); None for a plan without targets."""
        if not self._plan.targets:
            return None
        p = state.players[player]
        targets = self._plan.targets
        if _all_restaurants_out(state, player):  # nothing left for a local or regional manager to open
            targets = tuple((t, n) for t, n in targets if not EMPLOYEES[t].restaurant_placement)
        return plan_organisation((p.hand + p.work + p.beach).tolist(), state.owned_cards(player).tolist(),
                                 targets, int(p.cash), _salaried(state, player), self._plan.train_margin,
                                 self._plan.train_goals, self._plan.train_reserve)

    def _train_reserve(self, state: GameState, player: int, hand: list[int] | None = None) -> int | None:
        org = self._org(state, player)
        if org is None:
            return super()._train_reserve(state, player, hand)
        held = state.players[player].hand
        return next((t for t in org.beach if held[t] > 0), None)

    def _recruit(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """After the opener, the hires the organisation planner asks for (its targets' lines, a trainer);
        then the plan's hiring table."""
        state = game.state
        org = self._org(state, player)
        if org is not None and org.hires:
            lines = self._owned_lines(state, player)
            if all(lines.get(line, 0) >= want for line, want in OPENER):
                hires = {a.args[0]: a for a in legal if a.kind == ActionKind.RECRUIT}
                for line in org.hires:
                    if line in hires:
                        return hires[line]
        return super()._recruit(game, player, legal)

    def _train(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """The organisation planner's trainings first; a card the planner has a path for is trained only
        along it, the others by the plan's training goals."""
        state = game.state
        org = self._org(state, player)
        if org is None:
            return super()._train(game, player, legal)
        moves = [a for a in legal if a.kind == ActionKind.TRAIN]
        for card, after in org.trainings:
            move = next((a for a in moves if a.args[1] == card and a.args[2] == after), None)
            if move is not None:
                return move
        p = state.players[player]
        spare = Counter({t: int(n) for t, n in enumerate((p.work + p.beach).tolist()) if n})
        for a in org.assignments:
            if a.card is not None and a.steps:
                spare[a.card] -= 1
        free = [a for a in legal if a.kind != ActionKind.TRAIN or spare[a.args[1]] > 0]
        if not any(a.kind == ActionKind.TRAIN for a in free) and Action.pass_() not in legal:
            free = legal  # a phantom hire must be trained (rules: Recruiting & Training)
        return super()._train(game, player, free)

    def _fire(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """A plan with targets lets go of the managers whose work is done (a local or regional manager
        once every restaurant is out: $5 a round for nothing); otherwise the heuristic's answer."""
        if self._plan.targets and Action.pass_() in legal and _all_restaurants_out(game.state, player):
            for a in legal:  # a card is offered while one of its type is left unmarked (rules: Payday)
                if a.kind == ActionKind.FIRE and EMPLOYEES[a.args[0]].restaurant_placement:
                    return a
        return super()._fire(game, player, legal)

    def _price_change_pays(self, state: GameState, player: int, etype: int) -> bool:
        ample = {q: {good: AMPLE for good in Good} for q in range(state.num_players)}
        without = shadow_dinnertime(state, stock=ample).income(player)
        with_it = shadow_dinnertime(state, stock=ample, work={player: {etype: 1}}).income(player)
        return with_it >= without  # no demand to tell: the plan decides

    def _produce(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """The production or haul with the most cash at this Dinnertime (shadow Dinnertime); ties: the
        heuristic's choice. Nothing sells: the heuristic's choice (it stocks for the demand to come)."""
        state = game.state
        fallback = super()._produce(game, player, legal)
        moves = [a for a in legal if a.kind in (ActionKind.PRODUCE, ActionKind.HAUL)]
        if len(moves) <= 1:
            return fallback
        base = shadow_dinnertime(state).income(player)
        best, best_gain = fallback, 0
        for action in moves:
            gain = shadow_dinnertime(state, stock={player: _goods_of(action)}).income(player) - base
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _campaign_tile(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """The heuristic's best tile among the archetype's most preferred kind on offer."""
        kinds = self._plan.campaign_kinds
        offered = {marketing_tile(a.args[0]).type for a in legal if a.kind == ActionKind.CHOOSE_TILE}
        for kind in kinds:
            if kind in offered:
                choice = super()._campaign_tile(
                    game, player, [a for a in legal if marketing_tile(a.args[0]).type == kind])
                if choice is not None:
                    return choice
        return super()._campaign_tile(game, player, legal)

    def _campaign_product(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        state = game.state
        for product in self._plan.products:
            good = self._main_food(state, player) if product == FOOD else \
                self._drink_to_sell(state, player) if product == DRINK else Good(product)
            if good is None:
                continue
            choice = next((a for a in legal if a.args[0] == good), None)
            if choice is not None:
                return choice
        return super()._campaign_product(game, player, legal)

    def _best_placement(self, state: GameState, player: int, number: int, legal: list[Action],
                        values: dict[int, float] | None = None) -> tuple[Action | None, float]:
        """The heuristic's scoring; among the spots within ``variation`` of the best, a seeded draw."""
        if values is None:
            values = self._house_values(state, player)
        reached = self._spot_reach(_layout_of(state), number)
        scored = [(a, sum(values.get(n, 0.0) for n in reached(*a.args))) for a in legal]
        if not scored:
            return None, float("-inf")
        top = max(score for _, score in scored)
        near = [a for a, score in scored if score >= top - abs(top) * self.variation]
        if self.variation <= 0.0:
            return near[0], top  # no variation: the first best, as the heuristic
        return near[int(self._rng.integers(len(near)))], top

    def _pick_spot(self, legal: list[Action], scores: list[float]) -> Action:
        """A restaurant spot: among those within ``variation`` of the best score, a seeded draw."""
        if self.variation <= 0.0:
            return super()._pick_spot(legal, scores)
        top = max(scores)
        near = [a for a, score in zip(legal, scores, strict=True) if score >= top - abs(top) * self.variation]
        return near[int(self._rng.integers(len(near)))]

    # ------------------------------------------------------------------ reads

    def _drink_to_sell(self, state: GameState, player: int) -> Good | None:
        """The drink its haulers can fetch (a source in range), once it owns two haulers; else None."""
        owned = state.players[player].owned()
        haulers = sum(int(owned[t]) for t in range(len(EMPLOYEES)) if EMPLOYEES[t].drink_mode)
        if haulers < 2:
            return None
        sources = read_map(state, player).drink_sources
        return next((good for good in DRINKS if good in sources), None)


def _all_restaurants_out(state: GameState, player: int) -> bool:
    return len(state.players[player].restaurants) >= PRICES.restaurants_per_player


def _goods_of(action: Action) -> dict[int, int]:
    """The goods a production or haul would add to stock (a cook's or chef's output; a haul's drinks)."""
    spec = EMPLOYEES[action.args[0]]
    if action.kind == ActionKind.HAUL:  # sources visited per drink kind, each giving drinks_per_source
        beer, lemonade, soda = action.args[1:]
        per = spec.drinks_per_source
        return {Good.BEER: beer * per, Good.LEMONADE: lemonade * per, Good.SODA: soda * per}
    return {action.args[1]: spec.produce_amount if spec.produces else spec.drinks_per_source}


def _layout_of(state: GameState):
    from ..heuristic.layout import _layout

    return _layout(state)
