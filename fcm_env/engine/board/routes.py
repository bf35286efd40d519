"""What a drink buyer can bring back: the distinct *hauls* of cart operators, truck drivers and zeppelins.

A buyer's route is not played square by square. What matters to the game is only
the multiset of drinks the buyer brings home, so the engine offers each distinct
outcome as one atomic choice: two routes that collect the same drinks are the same
choice, however they wind. This module enumerates those outcomes from the board's
precomputed road tables (``node_of``, ``node_neighbors``, ``tile``, ``drink``).

A *haul* is ``(beer_sources, lemonade_sources, soda_sources)``: how many drink
source squares of each type one route collects. Drinks per source depend on the
card and on milestones (rules: Get food & drinks; "First errand boy played"), so
the caller turns a haul into drinks with :func:`haul_drinks`; range bonuses
("First cart operator played") are likewise added by the caller to ``max_range``.

* :func:`road_hauls` (cart operator, truck driver; C18, R22-R26, R29, R30): leave
  a restaurant entrance onto an orthogonally adjacent road square (+1 range if
  that square lies on another tile, R30), then drive from road node to road node,
  each step between squares of different tiles costing 1 range (C9). No U-turns,
  not even at a dead end (R23); loops are fine; the route may stop anywhere (R22).
  A source is collected once (C18, R24) when it is orthogonally next to a road
  square driven along (R26; a diagonal touch does not count). A bridge square has
  two road nodes that never meet (R49). The search runs over states
  ``(node, previous node, collected sources)`` level by level of range used, so
  each state is expanded once, at the least range that reaches it.
* :func:`air_hauls` (zeppelin pilot; C19, R27): fly tile to tile orthogonally,
  never entering a tile twice, collecting every source on every tile flown over,
  the start tile included.

Hauls come back as a sorted tuple, so a haul's position in it is deterministic and
can serve as the index of a choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from fcm_env.data import DRINKS, Direction, Good
from fcm_env.engine.board.geometry import Board, axis_of

Haul = tuple[int, int, int]
"""Drink sources collected by one route: (beer, lemonade, soda)."""

HAUL_GOODS: tuple[Good, ...] = DRINKS
"""The good counted at each position of a haul (Good.BEER, Good.LEMONADE, Good.SODA)."""

_HAUL_SLOT = {int(g): i for i, g in enumerate(HAUL_GOODS)}
_NO_PREV = -1  # "previous node" of the first road square: the route came from the restaurant


def haul_drinks(haul: Haul, per_source: int) -> tuple[int, ...]:
    """Drink counts of a haul as a count vector indexed by :class:`Good` (length ``len(Good)``).

    ``per_source`` is the card's drinks per symbol (2 for a cart operator or a
    zeppelin, 3 for a truck driver), +1 with "First errand boy played".
    rules: Get food & drinks; R25
    """
    counts = [0] * len(Good)
    for good, n in zip(HAUL_GOODS, haul):
        counts[good] = n * per_source
    return tuple(counts)


def _mask_haul(mask: int, slot_of_bit: list[int]) -> Haul:
    counts = [0, 0, 0]
    bit = 0
    while mask:
        if mask & 1:
            counts[slot_of_bit[bit]] += 1
        mask >>= 1
        bit += 1
    return counts[0], counts[1], counts[2]


class _RoadTables:
    """Per-call lazy view of the road graph: each node's source bits and costed moves."""

    def __init__(self, board: Board):
        self.board = board
        self.width = board.width
        self.tile_flat = board.tile.reshape(-1).tolist()
        self.drink_flat = board.drink.reshape(-1).tolist()
        self.node_square = board.node_square
        self.bit_of_square: dict[int, int] = {}
        self.slot_of_bit: list[int] = []
        self._mask: dict[int, int] = {}
        self._moves: dict[int, tuple[tuple[int, int], ...]] = {}

    def source_mask(self, node: int) -> int:
        """Bits of the drink sources orthogonally adjacent to the node's square (R26, C18)."""
        mask = self._mask.get(node)
        if mask is None:
            mask = 0
            sq = int(self.node_square[node])
            r, c = divmod(sq, self.width)
            for d in Direction:
                dr, dc = d.delta
                rr, cc = r + dr, c + dc
                if 0 <= rr < self.board.height and 0 <= cc < self.width:
                    near = rr * self.width + cc
                    good = self.drink_flat[near]
                    if good >= 0:
                        bit = self.bit_of_square.get(near)
                        if bit is None:  # local source index, assigned on first sight
                            bit = self.bit_of_square[near] = len(self.slot_of_bit)
                            self.slot_of_bit.append(_HAUL_SLOT[good])
                        mask |= 1 << bit
            self._mask[node] = mask
        return mask

    def moves(self, node: int) -> tuple[tuple[int, int], ...]:
        """(neighbour node, range cost) for each road link of ``node`` (C9: 1 per tile border)."""
        out = self._moves.get(node)
        if out is None:
            here = self.tile_flat[int(self.node_square[node])]
            out = tuple(
                (nxt, int(self.tile_flat[int(self.node_square[nxt])] != here))
                for _, nxt in self.board.node_neighbors[node]
            )
            self._moves[node] = out
        return out


def road_hauls(board: Board, entrances: Iterable[tuple[int, int]], max_range: int) -> tuple[Haul, ...]:
    """Distinct hauls of a cart operator / truck driver leaving from any of ``entrances``.

    ``entrances`` are entrance squares of the player's restaurants (all four corners
    with a drive-in, R32); ``max_range`` is the card's range plus any milestone bonus.
    Returns the sorted distinct hauls; ``()`` only when no entrance can reach a road
    within ``max_range`` (stepping onto a road of another tile already costs 1, R30).
    rules: Get food & drinks; C9, C18, C20, R22-R26, R29, R30, R49
    """
    if max_range < 0:
        return ()
    tables = _RoadTables(board)
    H, W = board.height, board.width
    # level[u]: states (node, prev, mask) first reached having used u range
    levels: list[list[tuple[int, int, int]]] = [[] for _ in range(max_range + 1)]
    for r, c in entrances:
        if not board.in_bounds(r, c):
            raise ValueError(f"entrance square {(r, c)} is off the {H} x {W} map")
        for d in Direction:
            dr, dc = d.delta
            rr, cc = r + dr, c + dc
            if not (0 <= rr < H and 0 <= cc < W) or not board.road_mask[rr, cc]:
                continue
            # R29: each road the entrance touches is a separate way out; on a bridge square
            # the entrance joins the road running away from it (axis of the step), as geometry.py does
            node = int(board.node_of[rr, cc, axis_of(d)])
            cost = int(board.tile[r, c] != board.tile[rr, cc])  # R30
            if cost <= max_range:
                levels[cost].append((node, _NO_PREV, tables.source_mask(node)))

    seen: set[tuple[int, int, int]] = set()
    masks: set[int] = set()
    for used in range(max_range + 1):
        stack = [s for s in dict.fromkeys(levels[used]) if s not in seen]
        seen.update(stack)
        can_cross = used < max_range
        while stack:
            state = stack.pop()
            node, prev, mask = state
            masks.add(mask)
            for nxt, cost in tables.moves(node):
                if nxt == prev:  # R23: no U-turn, not even at a dead end
                    continue
                new = (nxt, node, mask | tables.source_mask(nxt))
                if cost == 0:
                    if new not in seen:
                        seen.add(new)
                        stack.append(new)
                elif can_cross:
                    levels[used + 1].append(new)
    return tuple(sorted({_mask_haul(m, tables.slot_of_bit) for m in masks}))


def air_hauls(board: Board, start_tiles: Iterable[int], max_steps: int) -> tuple[Haul, ...]:
    """Distinct hauls of a zeppelin pilot starting on any of ``start_tiles``.

    ``start_tiles`` are the tile indices of the player's restaurant entrances;
    ``max_steps`` is the card's range plus any milestone bonus. Every prefix of a
    flight is an outcome (R22).
    rules: Get food & drinks; C19, R27
    """
    if max_steps < 0:
        return ()
    per_tile = [[0, 0, 0] for _ in range(board.num_tiles)]
    for (r, c), good in board.drink_sources:
        per_tile[int(board.tile[r, c])][_HAUL_SLOT[good]] += 1
    neighbors = [board.tile_neighbors(t) for t in range(board.num_tiles)]
    hauls: set[Haul] = set()
    best_left: dict[tuple[int, int], int] = {}  # (tile, visited bits) -> most steps left seen

    def fly(tile: int, visited: int, haul: Haul, left: int) -> None:
        hauls.add(haul)
        if best_left.get((tile, visited), -1) >= left:
            return
        best_left[(tile, visited)] = left
        if left == 0:
            return
        for nxt in neighbors[tile]:
            if not visited >> nxt & 1:  # C19: never the same tile twice
                b, lem, s = per_tile[nxt]
                fly(nxt, visited | 1 << nxt, (haul[0] + b, haul[1] + lem, haul[2] + s), left - 1)

    for t in sorted({int(t) for t in start_tiles}):
        if not 0 <= t < board.num_tiles:
            raise ValueError(f"start tile {t} is not one of the {board.num_tiles} tiles")
        fly(t, 1 << t, (per_tile[t][0], per_tile[t][1], per_tile[t][2]), max_steps)
    return tuple(sorted(hauls))


__all__ = ["HAUL_GOODS", "Haul", "air_hauls", "haul_drinks", "road_hauls"]
