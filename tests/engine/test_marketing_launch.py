"""Phase 3 Working 9-5: initiate marketing campaigns (rules: Initiate marketing campaigns).

Every scenario runs on both engines (the ``engine`` fixture): the position is player 0's Working 9-5 turn,
built as a Python ``GameState`` and loaded on the engine under test, which is answered player 0's recruiting
and training (pass) and asks the next decision itself (``on_engine_marketing.phase3``); the campaign is then
played through the face (``legal_actions``, ``apply``) and the outcome read back whole (``full``).

All scenarios but one (the fixed map of ``late_builders``, for its isolated road loop) use one hand-built 2-player map of crossroads tiles, so the range from
a restaurant on tile 0 to a tile is the number of tile steps. The bridge tiles P and
G (``X``) carry two roads that never meet (R49): P's east-west road is at range 2, its
north-south road only comes from S (range 4); G's north-south road is at range 2.

       0     5     10           tile indices        range from tile 0
  0 |..#..|..#4H|..#..|          0 A | 1 B | 2 P       0 | 1 | 2
  1 |..#..|..#HH|l.#..|          3 O | 4 R | 5 S       1 | 2 | 3
  2 |#####|#####|##X##|          6 G | 7 T | 8 N       2 | 3 | 4
  3 |2H#..|..#..|..#..|
  4 |HH#..|..#..|..#b.|     player 0's restaurant: squares (0,0)-(1,1), entrance SE (1,1)
  5 |.b#..|..#..|..#s.|     player 1's restaurant: squares (3,10)-(4,11), entrance NE (3,11)
  6 |..#..|.s#..|..#..|
  7 |#####|#####|#####|     2 players: billboards 11 (3x2), 13 (3x1), 14 (2x1), all rotatable;
  8 |..#..|..#..|b.#..|     mailboxes 7, 8 (2x2), 9, 10 (1x1); radios 1-3; airplanes 4, 5, 6
  9 |..#..|..#..|..#..|     (over 1, 3, 5 rows or columns)
 10 |12#..|..#..|..#..|
 11 |HH#..|.l#..|.b#..|
 12 |##X##|#####|#####|
 13 |..#..|..#..|.....|
 14 |..#..|..#..|.....|
"""

from __future__ import annotations

import pytest
from builders import full_fingerprint
from late_builders import LOOP, MAP_2P, TILE_1, add_campaign
from on_engine import award, full
from on_engine_marketing import phase3, place_options, whole_tiles

from fcm_env.data import CampaignType, Good, Milestone
from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action, ActionKind, Decision, IllegalActionError
from fcm_env.engine.board import Board
from fcm_env.engine.state import Campaign

CROSS = "A0 B0 P0 / O0 R0 S0 / G0 T0 N0"
BOARD = Board.from_tiles(CROSS)
HOME = {0: [(0, 0, 2)], 1: [(3, 10, 1)]}
TILE_AT_RANGE_2 = (1, 13, 0)  # tile 14 on squares (1,13)-(1,14) of tile 2, next to road (2,13)
TILE_AT_RANGE_3 = (6, 13, 0)  # (6,13)-(6,14) on tile 5, next to road (6,12)
TILE_AT_RANGE_4 = (10, 13, 0)  # (10,13)-(10,14) on tile 8, next to road (10,12)
NO_ROAD = (14, 13, 0)  # (14,13)-(14,14): empty, but no road beside either square


# ---------------------------------------------------------------- range


def test_marketing_trainee_reaches_tiles_at_range_0_1_2_but_not_3(engine):
    # rules: Initiate marketing campaigns — marketing trainee range 2, counted by road from an entrance;
    # C13, C14 (one covered square next to the road and in range is enough), R19
    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1})
    assert game.legal_actions() == [Action.pass_(), Action.select_marketeer(E.MARKETING_TRAINEE)]
    game.apply(Action.select_marketeer(E.MARKETING_TRAINEE))
    assert game.legal_actions() == [Action.choose_tile(11), Action.choose_tile(13), Action.choose_tile(14)]
    game.apply(Action.choose_tile(14))
    spots = [tuple(a.args) for a in game.legal_actions()]
    assert whole_tiles(BOARD, 14, spots) == {0, 1, 2, 3, 4, 6}  # ranges 0, 1 and 2
    assert TILE_AT_RANGE_2 in spots
    assert TILE_AT_RANGE_3 not in spots  # tile 5 is 3 borders away
    assert (0, 13, 0) not in spots  # tile 2, but beside the bridge's north-south road: range 4 (R49)
    assert NO_ROAD not in spots


def test_campaign_manager_reaches_range_3_and_not_4(engine):
    # rules: Initiate marketing campaigns — the campaign manager has range 3
    game = phase3(engine, CROSS, HOME, work={E.CAMPAIGN_MANAGER: 1})
    spots = place_options(game, E.CAMPAIGN_MANAGER, 14)
    assert whole_tiles(BOARD, 14, spots) == {0, 1, 2, 3, 4, 5, 6, 7}
    assert TILE_AT_RANGE_3 in spots and TILE_AT_RANGE_4 not in spots


def test_brand_manager_ignores_range_but_needs_a_road(engine):
    # rules: Initiate marketing campaigns — brand managers are not limited by range, but a
    # billboard must still be placed next to a road; C13
    game = phase3(engine, CROSS, HOME, work={E.BRAND_MANAGER: 1})
    spots = place_options(game, E.BRAND_MANAGER, 14)
    assert whole_tiles(BOARD, 14, spots) == set(range(9))
    assert TILE_AT_RANGE_4 in spots
    assert NO_ROAD not in spots


def test_brand_director_radio_ignores_range_and_connection_but_needs_a_road(engine):
    # C13, R17: a radio goes on any empty square next to any road
    game = phase3(engine, CROSS, HOME, work={E.BRAND_DIRECTOR: 1}, marketing=[1])
    spots = place_options(game, E.BRAND_DIRECTOR, 1)
    assert (10, 13, 0) in spots and (14, 13, 0) not in spots
    assert (13, 13, 0) in spots  # below the road (12,13) of tile 8
    # a chain with no restaurant at all (no entrance, no square in any range) is offered the same radio
    # placements: a radio asks for no connection. Only the squares its restaurant (0,0)-(1,1) covered are
    # free now; of them (0,1), (1,0) and (1,1) lie beside a road ((0,2), (2,0), (1,2)), (0,0) does not.
    game = phase3(engine, CROSS, {1: [(3, 10, 1)]}, work={E.BRAND_DIRECTOR: 1}, marketing=[1])
    assert place_options(game, E.BRAND_DIRECTOR, 1) == sorted([*spots, (0, 1, 0), (1, 0, 0), (1, 1, 0)])


def test_drive_in_corners_count_for_range_while_a_local_manager_works(engine):
    # C11, R13, R32: with a local manager at work every corner of a restaurant is an entrance.
    # Player 0's restaurant covers (0,4)-(1,5) across tiles 0 and 1; its printed entrance (1,4)
    # is on tile 0; the drive-in corner (1,5) touches the road (2,5) of tile 1, one step nearer
    # to tile 5 (tile 5 is at range 3 from tile 0, at range 2 from tile 1).
    home = {0: [(0, 4, 3)], 1: [(3, 10, 1)]}
    game = phase3(engine, CROSS, home, work={E.MARKETING_TRAINEE: 1})
    spots = place_options(game, E.MARKETING_TRAINEE, 14)
    assert whole_tiles(BOARD, 14, spots) == {0, 1, 2, 3, 4, 6}
    assert TILE_AT_RANGE_3 not in spots
    game = phase3(engine, CROSS, home, work={E.MARKETING_TRAINEE: 1, E.LOCAL_MANAGER: 1})
    spots = place_options(game, E.MARKETING_TRAINEE, 14)
    assert whole_tiles(BOARD, 14, spots) == {0, 1, 2, 3, 4, 5, 6, 7}
    assert TILE_AT_RANGE_3 in spots


def test_a_marketeer_with_no_tile_it_may_place_is_not_asked(engine):
    # rules: Initiate marketing campaigns — a marketing trainee places only billboards;
    # a decision whose only action would be "done" is skipped
    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1}, marketing=[7, 1, 4])
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT


def test_a_tile_is_offered_only_with_a_legal_spot_and_of_a_type_the_marketeer_may_place(engine):
    # rules: Initiate marketing campaigns — empty squares only; a campaign manager places
    # mailboxes and billboards, no radios or airplanes. A chain that cannot be completed is
    # never started. On the fixed map of late_builders player 0's only restaurant sits on the road
    # loop of tile 6 (LOOP: (10,0)-(11,1), entrance (11,0)), which no other road meets: whatever
    # the range, a covered square must lie beside that loop. The empty squares beside it are (11,4),
    # (12,1), (13,1) on tile 6 and (12,5), (13,5), (14,5) across the border; player 1's mailbox 10 on
    # (11,4), mailbox 8 on (12,5)-(13,6) and radio 2 on (14,5) leave only the 2 x 1 gap (12,1)-(13,1)
    # (column 1 between the loop and house 7).
    def blockers(state):
        add_campaign(state, 10, 1, Good.BEER, row=11, col=4, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
        add_campaign(state, 8, 1, Good.BEER, row=12, col=5, remaining=2, marketeer=E.CAMPAIGN_MANAGER)
        add_campaign(state, 2, 1, Good.BEER, row=14, col=5, remaining=2)

    game = phase3(engine, MAP_2P, {0: [LOOP], 1: [TILE_1]}, work={E.CAMPAIGN_MANAGER: 1},
                  marketing=[1, 4, 7, 9, 11, 13, 14], prepare=blockers)
    game.apply(Action.select_marketeer(E.CAMPAIGN_MANAGER))
    # 7 (2x2), 11 (3x2) and 13 (3x1) fit nowhere; 1 is a radio, 4 an airplane (both would have spots)
    assert game.legal_actions() == [Action.choose_tile(9), Action.choose_tile(14)]
    game.apply(Action.choose_tile(14))
    assert game.legal_actions() == [Action.place_campaign(12, 1, 1)]  # turned: 2 rows x 1 column


def test_a_road_range_marketeer_without_a_restaurant_is_not_asked_but_a_brand_manager_is(engine):
    # rules: Initiate marketing campaigns — range starts at a restaurant entrance (R19); brand
    # managers are not limited by range. A decision whose only action would be "done" is skipped.
    game = phase3(engine, CROSS, {1: [(3, 10, 1)]}, work={E.MARKETING_TRAINEE: 1})
    assert game.current_player == 1 and game.pending.decision == Decision.RECRUIT
    game = phase3(engine, CROSS, {1: [(3, 10, 1)]}, work={E.MARKETING_TRAINEE: 1, E.BRAND_MANAGER: 1})
    assert game.legal_actions() == [Action.pass_(), Action.select_marketeer(E.BRAND_MANAGER)]


# ---------------------------------------------------------------- airplanes


def test_airplane_lanes_run_along_the_edges_and_may_share_an_edge_with_another_plane(engine):
    # rules: Initiate marketing campaigns (airplanes beside the board, 1/3/5 rows or columns,
    # never past the board); C15 ("airplane zones may overlap other airplanes"); official FAQ
    # ("place an airplane on the same lines and side of another airplane? ... allowed, yes").
    # Player 1's 3-wide airplane #5 flies over columns 0-2 from the north edge; airplane #6
    # (5 wide) may still start anywhere from 0 to 10 on every edge (the map is 15 x 15).
    def plane_5(state):
        add_campaign(state, 5, 1, Good.BEER, row=0, col=0, orientation=0, remaining=2)

    game = phase3(engine, CROSS, HOME, work={E.BRAND_MANAGER: 1}, marketing=[6], prepare=plane_5)
    spots = place_options(game, E.BRAND_MANAGER, 6)
    expected = sorted(
        [(0, s, 0) for s in range(11)]  # N edge: anchor (0, start), over #5's columns too
        + [(s, 14, 1) for s in range(11)]  # E edge: anchor (start, W-1)
        + [(14, s, 2) for s in range(11)]  # S edge: anchor (H-1, start)
        + [(s, 0, 3) for s in range(11)]  # W edge: anchor (start, 0)
    )
    assert spots == expected
    game.apply(Action.place_campaign(0, 0, 0))  # the same edge and columns as #5
    assert game.pending.decision == Decision.CAMPAIGN_PRODUCT
    assert Milestone.FIRST_AIRPLANE in full(game).players[0].milestones  # rules: First airplane campaign
    game.apply(Action.choose_product(Good.PIZZA))
    assert game.legal_actions() == [Action.choose_duration(d) for d in (1, 2, 3, 4)]  # brand manager: 4
    game.apply(Action.choose_duration(4))
    plane = full(game).campaigns[-1]
    assert (plane.number, plane.kind, plane.owner, plane.row, plane.col, plane.orientation) == (
        6, CampaignType.AIRPLANE, 0, 0, 0, 0)
    assert plane.squares == () and plane.remaining == 4 and not plane.eternal


# ---------------------------------------------------------------- product, duration, busy


def test_mailbox_product_and_duration_and_the_marketeer_becomes_busy(engine):
    # rules: Initiate marketing campaigns — duration 1..max (campaign manager 3), one product
    # (C16), the marketeer is busy; First pizza marketed
    game = phase3(engine, CROSS, HOME, work={E.CAMPAIGN_MANAGER: 1}, marketing=[7, 9])
    spots = place_options(game, E.CAMPAIGN_MANAGER, 7)
    assert (0, 3, 0) in spots  # 2x2 on (0,3)-(1,4), next to the road (0,2)
    game.apply(Action.place_campaign(0, 3, 0))
    assert game.pending.decision == Decision.CAMPAIGN_PRODUCT
    assert game.pending.context == (E.CAMPAIGN_MANAGER, 7, 0, 3, 0)
    assert game.legal_actions() == [Action.choose_product(g) for g in Good]
    game.apply(Action.choose_product(Good.PIZZA))
    assert game.legal_actions() == [Action.choose_duration(d) for d in (1, 2, 3)]
    game.apply(Action.choose_duration(3))
    state = full(game)
    p = state.players[0]
    assert state.campaigns == [Campaign(
        number=7, kind=int(CampaignType.MAILBOX), owner=0, marketeer=int(E.CAMPAIGN_MANAGER),
        product=int(Good.PIZZA), remaining=3, eternal=False, row=0, col=3, orientation=0,
        squares=((0, 3), (0, 4), (1, 3), (1, 4)),
    )]
    assert state.marketing_supply == [9]
    assert p.work[E.CAMPAIGN_MANAGER] == 0 and p.busy[E.CAMPAIGN_MANAGER] == 1
    assert Milestone.FIRST_PIZZA_MARKETED in p.milestones
    assert Milestone.FIRST_BILLBOARD not in p.milestones  # a mailbox is no billboard
    # the covered squares are taken: the campaign manager's turn is over, player 1 goes on
    assert game.current_player == 1


def test_marketing_trainee_durations_are_1_or_2_when_the_billboard_milestone_is_gone(engine):
    # rules: Initiate marketing campaigns (trainee: max duration 2); C29 — a milestone claimed in
    # an earlier turn is gone, so this billboard stays finite
    def billboard_gone(state):
        award(state, 1, Milestone.FIRST_BILLBOARD)  # player 1 claimed it in an earlier turn

    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1}, prepare=billboard_gone)
    place_options(game, E.MARKETING_TRAINEE, 14)
    game.apply(Action.place_campaign(*TILE_AT_RANGE_2))
    game.apply(Action.choose_product(Good.BURGER))
    assert game.legal_actions() == [Action.choose_duration(1), Action.choose_duration(2)]
    game.apply(Action.choose_duration(2))
    state = full(game)
    campaign = state.campaigns[-1]
    assert campaign.remaining == 2 and not campaign.eternal
    assert state.players[0].busy[E.MARKETING_TRAINEE] == 1
    assert Milestone.FIRST_BILLBOARD not in state.players[0].milestones


def test_first_billboard_makes_that_billboard_eternal_and_the_trainee_is_gone_for_good(engine):
    # rules: Milestones, First billboard placed — the billboard that wins it is already eternal:
    # one advertising token, no duration, the marketeer never returns (not busy, not the stock)
    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1})
    trainees_in_stock = int(full(game).supply[E.MARKETING_TRAINEE])
    place_options(game, E.MARKETING_TRAINEE, 14)
    game.apply(Action.place_campaign(*TILE_AT_RANGE_2))
    assert Milestone.FIRST_BILLBOARD in full(game).players[0].milestones
    assert game.pending.decision == Decision.CAMPAIGN_PRODUCT
    game.apply(Action.choose_product(Good.BURGER))  # no duration decision follows
    state = full(game)
    p = state.players[0]
    assert state.campaigns == [Campaign(
        number=14, kind=int(CampaignType.BILLBOARD), owner=0, marketeer=int(E.MARKETING_TRAINEE),
        product=int(Good.BURGER), remaining=1, eternal=True, row=1, col=13, orientation=0,
        squares=((1, 13), (1, 14)),
    )]
    assert p.work[E.MARKETING_TRAINEE] == 0 and p.busy[E.MARKETING_TRAINEE] == 0
    assert p.hand[E.MARKETING_TRAINEE] == 0 and p.beach[E.MARKETING_TRAINEE] == 0
    assert state.supply[E.MARKETING_TRAINEE] == trainees_in_stock
    assert Milestone.FIRST_BURGER_MARKETED in p.milestones
    assert 14 not in state.marketing_supply
    assert game.current_player == 1  # nothing else to do for player 0


def test_campaigns_before_the_first_billboard_stay_finite_later_ones_are_eternal(engine):
    # R51: campaigns launched before "First billboard placed" stay finite; from the triggering
    # billboard on, every new campaign is eternal (here a mailbox after the billboard)
    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1, E.CAMPAIGN_MANAGER: 2})
    place_options(game, E.CAMPAIGN_MANAGER, 9)  # 1x1 mailbox
    game.apply(Action.place_campaign(0, 3, 0))
    game.apply(Action.choose_product(Good.SODA))
    game.apply(Action.choose_duration(2))
    place_options(game, E.MARKETING_TRAINEE, 14)
    game.apply(Action.place_campaign(*TILE_AT_RANGE_2))
    game.apply(Action.choose_product(Good.BURGER))
    place_options(game, E.CAMPAIGN_MANAGER, 10)
    game.apply(Action.place_campaign(3, 3, 0))
    game.apply(Action.choose_product(Good.PIZZA))  # eternal: no duration
    state = full(game)
    p = state.players[0]
    mailbox, billboard, later = state.campaigns
    assert (mailbox.number, mailbox.eternal, mailbox.remaining) == (9, False, 2)
    assert (billboard.number, billboard.eternal, billboard.remaining) == (14, True, 1)
    assert (later.number, later.eternal, later.remaining) == (10, True, 1)
    assert p.busy[E.CAMPAIGN_MANAGER] == 1  # only the first campaign manager comes back
    assert p.work[E.CAMPAIGN_MANAGER] == 0 and p.work[E.MARKETING_TRAINEE] == 0
    assert game.current_player == 1


@pytest.mark.parametrize("good, milestone", [
    (Good.BURGER, Milestone.FIRST_BURGER_MARKETED),
    (Good.PIZZA, Milestone.FIRST_PIZZA_MARKETED),
    (Good.BEER, Milestone.FIRST_DRINK_MARKETED),
    (Good.LEMONADE, Milestone.FIRST_DRINK_MARKETED),
    (Good.SODA, Milestone.FIRST_DRINK_MARKETED),
])
def test_advertising_a_product_claims_its_marketed_milestone(engine, good, milestone):
    # rules: Milestones, First burger/pizza/drink marketed (any drink counts); C16
    game = phase3(engine, CROSS, HOME, work={E.CAMPAIGN_MANAGER: 1}, marketing=[9])
    place_options(game, E.CAMPAIGN_MANAGER, 9)
    game.apply(Action.place_campaign(0, 3, 0))
    game.apply(Action.choose_product(good))
    marketed = {Milestone.FIRST_BURGER_MARKETED, Milestone.FIRST_PIZZA_MARKETED, Milestone.FIRST_DRINK_MARKETED}
    assert full(game).players[0].milestones & marketed == {milestone}


def test_radio_claims_first_radio_campaign(engine):
    # rules: Milestones, First radio campaign
    game = phase3(engine, CROSS, HOME, work={E.BRAND_DIRECTOR: 1}, marketing=[2])
    place_options(game, E.BRAND_DIRECTOR, 2)
    game.apply(Action.place_campaign(13, 13, 0))
    p = full(game).players[0]
    assert Milestone.FIRST_RADIO in p.milestones and Milestone.FIRST_BILLBOARD not in p.milestones
    game.apply(Action.choose_product(Good.BEER))
    assert game.legal_actions() == [Action.choose_duration(d) for d in range(1, 6)]  # director: 5


def test_a_milestone_claimed_by_another_player_this_turn_can_still_be_claimed(engine):
    # C29: every player who reaches a milestone in the same turn gets it
    def billboard_this_turn(state):
        award(state, 1, Milestone.FIRST_BILLBOARD, this_turn=True)

    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1}, prepare=billboard_this_turn)
    place_options(game, E.MARKETING_TRAINEE, 14)
    game.apply(Action.place_campaign(*TILE_AT_RANGE_2))
    game.apply(Action.choose_product(Good.BEER))
    state = full(game)
    assert state.campaigns[-1].eternal
    assert Milestone.FIRST_BILLBOARD in state.players[0].milestones


def test_illegal_campaign_actions_raise_and_change_nothing(engine):
    # the engine's contract: an illegal action raises IllegalActionError and leaves the state as it was
    game = phase3(engine, CROSS, HOME, work={E.MARKETING_TRAINEE: 1})
    place_options(game, E.MARKETING_TRAINEE, 14)
    before = full_fingerprint(full(game))
    document = game.to_dict()
    for bad in (Action.place_campaign(*TILE_AT_RANGE_3), Action.place_campaign(*NO_ROAD),
                Action.choose_tile(7), Action.pass_(), Action(ActionKind.PLACE_CAMPAIGN, (0, 13, 1, 5))):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert full_fingerprint(full(game)) == before and game.to_dict() == document
    assert game.pending.decision == Decision.CAMPAIGN_PLACE
