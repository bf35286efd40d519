"""Render modes of the envs (human, ansi, rgb_array) and the Pillow board picture (fcm_env.picture).

Pixels are checked at known squares (away from any text, whose glyphs may differ between
Pillow / FreeType versions); the panel's text is checked through ``panel_lines``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from gymnasium.utils import passive_env_checker
from pettingzoo.test import render_test
from PIL import Image, ImageFont

import fcm_env
from fcm_env.data import CampaignType, Good, Milestone, marketing_tile
from fcm_env.engine.board.occupancy import occupied
from fcm_env.engine.board.placement import (
    campaign_placements,
    campaign_squares,
    list_placements,
    restaurant_entrance,
    restaurant_placements,
    restaurant_squares,
)
from fcm_env.engine.board.tiles import ROAD
from fcm_env.engine.game import Game
from fcm_env.engine.phases.flow import winners
from fcm_env.engine.state import Campaign, Phase, Restaurant
from fcm_env.env.aec import raw_env
from fcm_env.env.common import RENDER_SCALE
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv
from fcm_env.picture import (
    DEMAND_EDGE,
    DEMAND_RING,
    EMPTY_COLOR,
    FRAME_HALO,
    GOOD_COLORS,
    HOUSE_COLOR,
    MARGIN_COLOR,
    PANEL_COLOR,
    PLAYER_COLORS,
    ROAD_COLOR,
    WINNER_BAND,
    board_array,
    board_image,
    board_png,
    campaign_label,
    layout,
    legend_boxes,
    legend_labels,
    panel_lines,
    png_bytes,
)
from fcm_env.text.state import state_ascii


def test_pettingzoo_render_test_passes_in_every_mode():
    assert fcm_env.env(num_players=2).metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    render_test(lambda render_mode=None: fcm_env.env(num_players=2, render_mode=render_mode))


def test_every_env_lists_the_three_modes():
    modes = ["human", "ansi", "rgb_array"]
    assert FcmSingleAgentEnv.metadata["render_modes"] == modes
    assert FcmVectorEnv.metadata["render_modes"] == modes


# ------------------------------------------------------------------ human mode


def test_human_mode_prints_what_ansi_returns_after_reset_step_and_render(capsys):
    ansi = raw_env(num_players=2, render_mode="ansi")
    ansi.reset(seed=1)
    human = raw_env(num_players=2, render_mode="human")
    human.reset(seed=1)
    assert capsys.readouterr().out == ansi.render() + "\n"  # printed by reset itself
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"
    action = int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0])
    human.step(action)
    ansi.step(action)
    after = capsys.readouterr().out
    assert after == ansi.render() + "\n" and after != state_ascii(Game.new(2, 1).state) + "\n"


def test_single_agent_human_mode_prints_on_reset_and_step(capsys):
    e = FcmSingleAgentEnv(num_players=2, render_mode="human")
    e.reset(seed=2)
    assert capsys.readouterr().out == state_ascii(e.game.snapshot().state) + "\n"
    e.step(int(np.flatnonzero(e.action_masks())[0]))
    assert capsys.readouterr().out == state_ascii(e.game.snapshot().state) + "\n"
    assert e.render() is None
    assert capsys.readouterr().out == state_ascii(e.game.snapshot().state) + "\n"
    passive_env_checker.env_render_passive_checker(e)  # gymnasium's own check of the human mode


def test_vector_human_mode_prints_every_game_and_returns_none(capsys):
    venv = FcmVectorEnv(2, num_players=2, render_mode="human")
    venv.reset(seed=0)
    texts = [state_ascii(e.game.snapshot().state) + "\n" for e in venv.envs]
    assert texts[0] != texts[1]
    assert capsys.readouterr().out == "".join(texts)
    assert venv.render() is None
    assert capsys.readouterr().out == "".join(texts)
    venv.close()


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(num_players=2, render_mode="window")


# ------------------------------------------------------------------ rgb_array: size and determinism


def test_rgb_array_has_a_fixed_size_per_map_and_is_deterministic():
    e = fcm_env.env(num_players=2, render_mode="rgb_array")
    e.reset(seed=3)
    first = e.render()
    # 2-player map 15 x 15: map 17 x 24 = 408 px wide + panel 11 x 24 = 264; the 5-player panel
    # (20 lines of 21 px + 24) sets the body height 444; 12 legend cells in 2 columns and the campaign
    # entry's 2 full-width lines: 8 rows of 28 + 24
    assert first.shape == (444 + 248, 408 + 264, 3) and first.dtype == np.uint8
    assert np.array_equal(first, e.render())
    twin = fcm_env.env(num_players=2, render_mode="rgb_array")
    twin.reset(seed=3)
    assert np.array_equal(first, twin.render())
    for agent in e.agent_iter(12):  # play on: the size stays, the picture changes
        e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    later = e.render()
    assert later.shape == first.shape and not np.array_equal(later, first)


@pytest.mark.parametrize(("players", "shape"), [(3, (15, 20)), (4, (20, 20)), (5, (20, 25))])
def test_size_follows_the_map_alone(players, shape):
    state = Game.new(players, seed=0).state
    lay = layout(*shape, RENDER_SCALE)
    assert state.board.shape == shape
    assert board_array(state).shape == (lay.height, lay.width, 3)
    assert lay.width == (shape[1] + 2) * RENDER_SCALE + 11 * RENDER_SCALE


def test_scale_below_the_minimum_is_refused():
    state = Game.new(2, seed=0).state
    with pytest.raises(ValueError, match="at least 16"):
        board_array(state, scale=15)
    assert board_array(state, scale=16).shape[1] == 17 * 16 + 11 * 16


def test_png_bytes_decode_to_the_same_pixels():
    state = Game.new(2, seed=4).state
    decoded = np.asarray(Image.open(io.BytesIO(board_png(state))).convert("RGB"))
    assert np.array_equal(decoded, board_array(state))
    arr = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png_bytes(arr)))), arr)
    with pytest.raises(ValueError):
        png_bytes(arr.astype(np.float32))


# ------------------------------------------------------------------ rgb_array: known squares


def _centre(lay, square):
    x0, y0, x1, y1 = lay.square(*square)
    return (y0 + y1 + 1) // 2, (x0 + x1 + 1) // 2


def _pixel(img, point):
    return tuple(int(v) for v in img[point])


@pytest.fixture(scope="module")
def scene():
    """A 2-player start with a restaurant of each player, a mailbox of player 1 and an airplane of player 0."""
    state = Game.new(2, seed=0).state
    spots = list_placements(restaurant_placements(state.board, occupied(state)))
    state.players[0].restaurants.append(Restaurant(*spots[0]))
    taken = set(restaurant_squares(*spots[0]))
    second = next(s for s in spots if not taken & set(restaurant_squares(*s)))
    state.players[1].restaurants.append(Restaurant(*second, coming_soon=True))
    tile = marketing_tile(7)
    assert tile.type == CampaignType.MAILBOX
    r, c, o = list_placements(campaign_placements(state.board, occupied(state), tile))[0]
    state.campaigns.append(Campaign(7, int(tile.type), 1, 0, int(Good.PIZZA), 2, False, r, c, o,
                                    campaign_squares(r, c, o, tile)))
    plane = marketing_tile(6)  # 5 columns along the north edge from column 4
    state.campaigns.append(Campaign(6, int(plane.type), 0, 0, int(Good.SODA), 3, False, 0, 4, 0, ()))
    return state, board_array(state), layout(*state.board.shape)


def test_roads_and_empty_squares_have_their_colours(scene):
    state, img, lay = scene
    roads = np.argwhere(state.board.kind == ROAD)
    for r, c in roads[:: max(1, len(roads) // 10)]:
        assert _pixel(img, _centre(lay, (r, c))) == ROAD_COLOR
    assert _pixel(img, (2, 2)) == MARGIN_COLOR


def test_restaurants_are_drawn_in_their_owners_colour(scene):
    state, img, lay = scene
    for p, pale in ((0, False), (1, True)):
        rest = state.players[p].restaurants[0]
        door = restaurant_entrance(rest.row, rest.col, rest.orientation)
        inner = [sq for sq in restaurant_squares(rest.row, rest.col, rest.orientation) if sq != door]
        color = PLAYER_COLORS[p]
        expected = tuple((v + 2 * 255) // 3 for v in color) if pale else color
        for sq in inner:
            assert _pixel(img, _centre(lay, sq)) == expected
        assert _pixel(img, _centre(lay, door)) == (255, 255, 255)  # the entrance dot


def test_campaigns_show_product_colour_owner_frame_and_label(scene):
    state, img, lay = scene
    mailbox, plane = state.campaigns
    assert campaign_label(mailbox) == "M2" and campaign_label(plane) == "A3"
    for sq in mailbox.squares:  # the label sits on the 2x2 tile's centre, between the squares' centres
        assert _pixel(img, _centre(lay, sq)) == GOOD_COLORS[int(Good.PIZZA)]
    x0, y0, _, _ = lay.square(*min(mailbox.squares))
    assert _pixel(img, (y0 + 1, x0 + 1)) == PLAYER_COLORS[1]  # the frame
    for col in (4, 8):  # the airplane flies over columns 4..8, in the margin above the map
        assert _pixel(img, _centre(lay, (-1, col))) == GOOD_COLORS[int(Good.SODA)]
    assert _pixel(img, _centre(lay, (-1, 9))) == MARGIN_COLOR


def test_panel_shows_a_swatch_per_player_and_the_legend_is_drawn(scene):
    _, img, lay = scene
    for p in range(2):
        row = 5 + 3 * p  # 4 header lines and a gap, then 3 lines per player
        y = lay.pad + row * lay.line_h + lay.line_h // 2
        assert _pixel(img, (y, lay.map_w + lay.pad + 4)) == PLAYER_COLORS[p]
    panel = img[: lay.body_h, lay.map_w:]
    assert (panel.sum(axis=2) < 150).sum() > 500  # dark text pixels
    legend = img[lay.body_h:]
    s = lay.scale
    assert _pixel(legend, (lay.pad + s // 2, lay.pad + s // 2)) == ROAD_COLOR  # the first legend sample
    assert (legend.sum(axis=2) < 150).sum() > 1000
    assert len(legend_labels()) == 14 and legend_labels()[0] == "road"
    assert legend_labels()[-2].startswith("campaign: filled in its product's colour")


def test_the_picture_is_an_rgb_pillow_image_of_the_layout_size(scene):
    state, _, lay = scene
    image = board_image(state)
    assert image.mode == "RGB" and image.size == (lay.width, lay.height)
    free = np.argwhere(~occupied(state))[0]  # nothing printed or placed there
    x0, y0, _, _ = lay.square(*free)
    assert _pixel(np.asarray(image), (y0 + 3, x0 + 3)) == EMPTY_COLOR


# ------------------------------------------------------------------ panel text


def test_panel_lines_of_a_known_state():
    state = Game.new(2, seed=0).state
    state.round, state.max_rounds, state.phase = 3, 30, Phase.WORKING
    state.bank, state.bank_breaks, state.turn_order = 123, 1, [1, 0]
    state.players[0].cash = 57
    state.players[0].restaurants = [Restaurant(0, 0, 0), Restaurant(5, 5, 1)]
    state.players[0].milestones = {Milestone.FIRST_HIRE_3}
    state.players[1].cash, state.players[1].bankrupt = 0, True
    assert panel_lines(state) == [
        "round 3/30",
        "phase working",
        "bank $123 (broken 1x)",
        "turn order 1 0",
        "",
        "player 0: $57",
        "2 restaurants, 1 milestone",
        "",
        "player 1: $0  BANKRUPT",
        "0 restaurants, 0 milestones",
        "",
    ]
    state.max_rounds, state.bank_breaks = None, 0
    assert panel_lines(state)[:3] == ["round 3", "phase working", "bank $123"]
    state.phase = Phase.GAME_OVER  # C23: the most cash among those not bankrupt
    assert panel_lines(state)[5:9] == ["player 0: $57  WINNER", "2 restaurants, 1 milestone", "",
                                       "player 1: $0  BANKRUPT"]
    state.players[0].bankrupt = True  # everyone bankrupt: the same rule still names a winner (D45)
    assert panel_lines(state)[5:7] == ["player 0: $57  WINNER", "bankrupt, 2 restaurants, 1 milestone"]


# ------------------------------------------------------------------ winner, legend width, contrast


def _contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (1 = the same luminance, 21 = black on white)."""
    def luminance(color):
        lin = [v / 255 / 12.92 if v <= 10 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in color]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _runs(pixels) -> list[tuple[int, ...]]:
    """The colours along a line of pixels, each run of equal pixels once."""
    out: list[tuple[int, ...]] = []
    for px in pixels:
        color = tuple(int(v) for v in px)
        if not out or out[-1] != color:
            out.append(color)
    return out


def _player_row_y(lay, player: int) -> int:
    return lay.pad + (5 + 3 * player) * lay.line_h + lay.line_h // 2


def test_a_finished_game_marks_its_winner_and_a_running_game_does_not():
    # C23: most cash wins; the picture of a finished game says who (band + "WINNER" in the panel)
    state = Game.new(3, seed=0).state
    for p, cash in enumerate((40, 90, 60)):
        state.players[p].cash = cash
    lay = layout(*state.board.shape)
    running = board_array(state)
    assert not (running == WINNER_BAND).all(axis=2).any()
    assert not any("WINNER" in line for line in panel_lines(state))
    state.phase = Phase.GAME_OVER
    assert winners(state) == (1,)
    over = board_array(state)
    assert over.shape == running.shape  # the same size for every state of a map
    assert "player 1: $90  WINNER" in panel_lines(state)
    assert sum("WINNER" in line for line in panel_lines(state)) == 1
    band = (over == WINNER_BAND).all(axis=2)
    assert band[:, : lay.map_w].sum() == 0 and band.sum() > 1000  # in the panel only
    left = lay.map_w + 4  # left of the swatch, where no text is drawn
    for p in range(3):
        for y in (_player_row_y(lay, p), _player_row_y(lay, p) + lay.line_h):  # both lines of a player
            assert _pixel(over, (y, left)) == (WINNER_BAND if p == 1 else PANEL_COLOR)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("scale", [16, 24, 40])
def test_every_legend_label_fits_its_box_inside_the_picture(players, scale):
    lay = layout(*Game.new(players, seed=0).state.board.shape, scale)
    font = ImageFont.load_default(size=scale * 11 // 20)  # the legend's font size
    boxes = legend_boxes(lay)
    assert [label for label, _ in boxes] == legend_labels()
    for label, (x0, y0, x1, y1) in boxes:
        assert 0 <= x0 < x1 < lay.width and lay.body_h <= y0 < y1 < lay.height, label
        assert font.getlength(label) <= x1 - x0 + 1, (label, lay.width)
    # the campaign entry is whole: its lines span the legend, none is cut over cells
    campaign = [box for label, box in boxes if label.startswith(("campaign:", "R3:"))]
    assert len(campaign) == 2 and all(x1 > lay.width * 3 // 4 for _, _, x1, _ in campaign)


def test_demand_tokens_stand_out_on_a_house_for_every_good():
    # the token's outer ring contrasts with the house, its inner ring with the outer one, whatever the good
    assert _contrast(DEMAND_EDGE, HOUSE_COLOR) >= 3 and _contrast(DEMAND_RING, DEMAND_EDGE) >= 3
    for good, color in GOOD_COLORS.items():
        assert max(_contrast(color, DEMAND_RING), _contrast(color, DEMAND_EDGE)) >= 3, Good(good).name
    state = Game.new(2, seed=0).state
    _, house = min(state.houses.items())
    house.demand[:] = [int(Good.BURGER)]  # brown on brown before the rings
    img, lay = board_array(state), layout(*state.board.shape)
    boxes = [lay.square(*sq) for sq in house.squares]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    burger = GOOD_COLORS[int(Good.BURGER)]
    rows = [y for y in range(y0, y1 + 1) if (img[y, x0:x1 + 1] == burger).all(axis=1).any()]
    row = _runs(img[rows[len(rows) // 2], x0:x1 + 1])
    k = row.index(burger)  # the first token sits at the house's edge; after it, the house
    assert row[k - 2:k + 4] == [DEMAND_EDGE, DEMAND_RING, burger, DEMAND_RING, DEMAND_EDGE, HOUSE_COLOR]


def test_every_owner_frame_shows_on_every_product_and_next_to_roads():
    # a white line on both sides of the frame: player 4's black frame on a brown billboard shows
    for color in PLAYER_COLORS:
        assert _contrast(color, FRAME_HALO) >= 3, color
    state = Game.new(5, seed=0).state
    tile = marketing_tile(12)  # a 2x2 billboard
    assert tile.type == CampaignType.BILLBOARD
    r, c, o = list_placements(campaign_placements(state.board, occupied(state), tile))[0]
    squares = campaign_squares(r, c, o, tile)
    state.campaigns.append(Campaign(12, int(tile.type), 4, 0, int(Good.BURGER), 2, False, r, c, o, squares))
    img, lay = board_array(state), layout(*state.board.shape)
    x0, y0, _, _ = lay.square(*min(squares))
    diagonal = _runs([img[y0 + k, x0 + k] for k in range(lay.scale // 2)])  # from the tile's corner inwards
    assert diagonal == [FRAME_HALO, PLAYER_COLORS[4], FRAME_HALO, GOOD_COLORS[int(Good.BURGER)]]
