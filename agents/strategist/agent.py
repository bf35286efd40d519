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

from dataclasses import replace
from typing import ClassVar

from fcm_env.data import EMPLOYEES, Good, marketing_tile
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState, Phase

from ..heuristic import HeuristicAgent
from ..heuristic.from_legal import FROM_LEGAL
from .archetypes import DRINK, DRINKS, FOOD, OPENER, Archetype
from .archetypes import archetype as archetype_named
from .forecast import shadow_dinnertime
from .reading import choose_archetype, read_map

#: how close to the best score a placement must be to be drawn among (seeded variation)
NEAR_BEST = 0.06
#: the stock every chain is given when the forecast weighs prices alone
AMPLE = 10
#: the chance that a hire of the plan swaps places with the next one in a game (seeded timings)
SWAP = 0.2
#: the range of a game's cap on each extra line hired after the plan (the heuristic's: 5)
EXTRA_CAPS = (4, 5)


class StrategistAgent(HeuristicAgent):
    """A player of one coherent plan (``archetype``), or of the plan the map suggests (``archetype=None``)."""

    # its own answers replace the heuristic's quick ones for these decisions
    from_legal: ClassVar[dict] = {d: f for d, f in FROM_LEGAL.items()
                                  if d not in (Decision.RESTRUCTURE, Decision.PRODUCE)}

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

    def _restructure(self, game: Game, player: int, legal: list[Action]) -> Action | None:
        """The plan's play order, except a manager that changes the unit price (pricing, discount, luxuries):
        put to work only when the shadow Dinnertime says it earns more, every chain stocked for every
        order (so the forecast weighs prices and distances alone)."""
        remaining = list(legal)
        state = game.state
        keep = self._train_reserve(state, player)
        if keep is not None and EMPLOYEES[keep].is_manager and state.players[player].hand[keep] <= 1:
            # the plan trains its managers up (a junior vice president into a local manager): the one
            # kept for the trainer stays on the beach while another manager can give the slots
            others = [a for a in remaining if a.kind == ActionKind.PUT_TO_WORK and a.args[0] != keep
                      and EMPLOYEES[a.args[0]].is_manager]
            if others:
                remaining = [a for a in remaining if not (a.kind == ActionKind.PUT_TO_WORK and a.args[0] == keep)]
        while True:
            choice = super()._restructure(game, player, remaining)
            if choice is None or choice.kind != ActionKind.PUT_TO_WORK or not EMPLOYEES[choice.args[0]].price_delta:
                return choice
            if self._price_change_pays(game.state, player, choice.args[0]):
                return choice
            remaining = [a for a in remaining if a != choice]
            if not remaining:
                return choice

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
