"""Phase 6 Marketing campaigns: every campaign on the board adds demand; no decisions.

rules: Phase 6; First radio campaign; C15, C17, C21; R45-R47. Campaigns run in
tile-number order. Each house a campaign reaches gets one demand token of the
advertised product (two from a radio of a player holding "First radio campaign"
now), as far as its limit allows (3, or 5 with a garden). Then a timed campaign
loses one advertising token; at none left its tile returns to the supply and its
marketeer to the owner's hand. Eternal campaigns keep their token for ever.
Campaigns of a bankrupt chain run on as well (C21).
"""

from __future__ import annotations

import bisect

import numpy as np

from fcm_env.data import HOUSES, MILESTONES, CampaignType, EmployeeType, Milestone, marketing_tile
from fcm_env.engine import events
from fcm_env.engine.board.occupancy import house_grid
from fcm_env.engine.board.placement import airplane_from_anchor
from fcm_env.engine.rules import milestones
from fcm_env.engine.state import Campaign, GameState, Phase

RADIO_TOKENS = int(MILESTONES[Milestone.FIRST_RADIO].effect_params["radio_demand_per_house"])


def houses_reached(state: GameState, campaign: Campaign, grid: np.ndarray) -> tuple[int, ...]:
    """House numbers the campaign reaches, ascending (a garden square counts for its house)."""
    board = state.board
    kind = CampaignType(campaign.kind)
    if kind == CampaignType.AIRPLANE:
        size = marketing_tile(campaign.number).along_edge
        lane = airplane_from_anchor(campaign.row, campaign.col, campaign.orientation, size, board)
        return board.houses_under_airplane(lane, grid)
    rows = [r for r, _ in campaign.squares]
    cols = [c for _, c in campaign.squares]
    if kind == CampaignType.BILLBOARD:  # orthogonally next to the tile
        r0, c0 = min(rows), min(cols)
        return board.houses_next_to(r0, c0, max(rows) - r0 + 1, max(cols) - c0 + 1, grid)
    if kind == CampaignType.MAILBOX:  # R45: its block, bounded by roads
        blocks = sorted({board.block_at(r, c) for r, c in campaign.squares})
        return tuple(sorted({h for b in blocks for h in board.houses_in_block(b, grid)}))
    tiles = sorted({board.tile_at(r, c) for r, c in campaign.squares})  # radio: R46
    return tuple(sorted({h for t in tiles for h in board.houses_near_tile(t, grid)}))


def demand_limit(state: GameState, number: int) -> int:
    house = state.houses[number]
    return HOUSES.demand_limit_with_garden if house.has_garden else HOUSES.demand_limit


def tokens_per_house(state: GameState, campaign: Campaign) -> int:
    if campaign.kind == CampaignType.RADIO and milestones.has(state, campaign.owner, Milestone.FIRST_RADIO):
        return RADIO_TOKENS
    return 1


def run_campaign(state: GameState, campaign: Campaign, grid: np.ndarray) -> None:
    tokens = tokens_per_house(state, campaign)
    placed: dict[str, int] = {}
    for number in houses_reached(state, campaign, grid):
        house = state.houses[number]
        room = demand_limit(state, number) - len(house.demand)
        house.demand.extend([campaign.product] * max(0, min(tokens, room)))
        placed[str(number)] = max(0, min(tokens, room))
    if events.enabled(state):
        events.emit(state, "demand", campaign=int(campaign.number), player=int(campaign.owner),
                    product=events.basket([campaign.product])[0], houses=placed)


def retire(state: GameState, campaign: Campaign) -> None:
    """A timed campaign ran out: the tile goes back, the marketeer (if not fired) to the hand.

    A fired busy marketeer left its campaign on the board (C30). With several
    campaigns of one marketeer type the fired card counts as the one whose campaign
    ends last (D39: the player would pick that one, it gets the other card back
    sooner), so a card returns while ``busy`` holds one of the type. (The marketeer
    of an eternal campaign is never in ``busy``: it left the game with its campaign.)
    """
    state.campaigns.remove(campaign)
    bisect.insort(state.marketing_supply, campaign.number)
    owner = state.players[campaign.owner]
    returned = bool(owner.busy[campaign.marketeer] > 0)
    if events.enabled(state):
        events.emit(state, "campaign_expired", campaign=int(campaign.number), player=int(campaign.owner),
                    marketeer_back=EmployeeType(campaign.marketeer).key if returned else None)
    if returned:
        owner.busy[campaign.marketeer] -= 1
        owner.hand[campaign.marketeer] += 1


def run(state: GameState) -> None:
    state.phase = Phase.MARKETING
    if not state.campaigns:
        return
    grid = house_grid(state)
    for campaign in sorted(state.campaigns, key=lambda c: c.number):
        run_campaign(state, campaign, grid)
        if campaign.eternal:
            continue
        campaign.remaining -= 1
        if campaign.remaining <= 0:
            retire(state, campaign)
