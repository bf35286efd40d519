"""What a move may have changed: per-part move stamps, so that a reader redraws only those parts.

A front end or an observation encoder that keeps its last picture of a game needs to
know which parts of the state moved since then. Comparing the whole state costs more
than drawing it again, so ``Game`` keeps, for every move, conservative *stamps*: the
move number at which each part last (possibly) changed. A reader remembers the move
number of its last picture (``ChangeLog.moves`` then) and redraws a part only if that
part's stamp is newer.

The parts and the rule (a part may be stamped without having changed, never the other
way round; the encoder tests check the rule against a full redraw at every decision of
many random games):

* ``player_at[p]``: player ``p``'s own state (cards, cash, stock, restaurants' status,
  milestones, turn spot, ...). A decision stamps the player who made it and the player
  asked next (ending one's Working 9-5 turn starts the next one's).
* ``map_at``: the pieces on the map (houses and their demand, gardens, restaurants,
  campaigns). A decision stamps it when its kind can place or move a piece
  (``MAP_DECISIONS``).
* ``all_at``: every player, for the moves the two rules above cannot describe: any step
  the engine ran alone (the start of Working 9-5, Dinnertime, Payday, campaigns, Clean-up,
  a new round), a change of phase, round or turn order, a hidden choice revealed, a bank
  break, a new CEO slot count. The map is stamped too if one of the steps can touch it
  (``MAP_STEPS``: Dinnertime takes demand, campaigns bring it, Clean-up opens restaurants);
  any position not reached by a move (a new, loaded or hand-edited game: ``Game.advance``)
  stamps both.

The table (bank, supply, milestones, the turn's scratch) and the pending decision are
small and change with most moves: readers redraw them every time.
"""

from __future__ import annotations

import itertools

from fcm_env.engine.actions import Decision, Pending
from fcm_env.engine.state import GameState, Phase

#: decisions whose moves can place, move or change a piece on the map
MAP_DECISIONS = frozenset({
    Decision.INITIAL_RESTAURANT,
    Decision.MARKETEER,
    Decision.CAMPAIGN_TILE,
    Decision.CAMPAIGN_PLACE,
    Decision.CAMPAIGN_PRODUCT,
    Decision.CAMPAIGN_DURATION,
    Decision.NEW_BUSINESS,
    Decision.HOUSE_PLACE,
    Decision.RESTAURANT_MANAGER,
    Decision.RESTAURANT_PLACE,
})

#: the phases whose engine steps (``flow.advance``) can change the map: Dinnertime follows Working 9-5
#: (or runs from a position in Dinnertime), campaigns and Clean-up follow Payday or Marketing, Clean-up
#: ends the round
MAP_STEPS = frozenset({Phase.WORKING, Phase.DINNERTIME, Phase.PAYDAY, Phase.MARKETING, Phase.CLEANUP})

_game_ids = itertools.count(1)


def table_facts(state: GameState) -> tuple:
    """The facts whose change stamps everything (compared before and after a decision)."""
    return (
        state.phase, state.round, state.turn_order[:], state.structure_revealed, state.firing_revealed,
        state.reserve_revealed, state.bank_breaks, state.ceo_slots,
    )


class ChangeLog:
    """Move stamps of one game (see the module docstring). ``uid`` tells games apart."""

    __slots__ = ("all_at", "map_at", "moves", "player_at", "uid")

    def __init__(self, num_players: int):
        self.uid = next(_game_ids)  # never reused in a process, unlike id()
        self.moves = 0
        self.all_at = 0
        self.map_at = 0
        self.player_at = [0] * num_players

    def __reduce__(self) -> tuple:
        """A copy or an unpickled log is a different game's: it gets its own ``uid``, the same stamps."""
        return _restored, (self.moves, self.all_at, self.map_at, list(self.player_at))

    def everything(self) -> None:
        """Stamp every part (a position not reached by a single decision)."""
        self.moves += 1
        self.all_at = self.map_at = self.moves

    def decision(self, state: GameState, pending: Pending, before: tuple, engine_steps: list[Phase]) -> None:
        """Stamp what the decision ``pending`` may have changed, with the engine steps that followed it.

        ``before`` is ``table_facts(state)`` taken before the move; ``engine_steps`` what
        ``flow.advance`` returned after it.
        """
        self.moves += 1
        moves = self.moves
        if pending.decision in MAP_DECISIONS or not MAP_STEPS.isdisjoint(engine_steps):
            self.map_at = moves
        if engine_steps or table_facts(state) != before:
            self.all_at = moves
            return
        at = self.player_at
        at[pending.player] = moves
        if state.pending:
            at[state.pending[-1].player] = moves


def _restored(moves: int, all_at: int, map_at: int, player_at: list[int]) -> ChangeLog:
    log = ChangeLog(len(player_at))
    log.moves, log.all_at, log.map_at, log.player_at = moves, all_at, map_at, player_at
    return log
