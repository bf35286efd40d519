"""The text picture of a game in progress: the placed pieces, demand, campaigns and players.

(The RGB picture is drawn with Pillow outside the engine: tests/env/test_render_modes.py.)
"""

# python-only (every test of this file): the text pictures read a Python state (a native game is drawn from its snapshot())

from __future__ import annotations

from late_builders import add_campaign, add_restaurant, demand, position

from fcm_env.data import Good
from fcm_env.text.state import state_ascii


def test_text_lists_demand_campaigns_and_players():
    state = position(2)
    number = min(state.houses)
    demand(state, number, Good.BURGER, Good.BEER)
    text = state_ascii(state)
    assert f"house {number} wants Bb" in text
    assert "player 0: $" in text and "player 1: $" in text


def test_restaurant_shows_its_owners_digit_and_entrance():
    from fcm_env.data import TILE_SIZE
    from fcm_env.engine.board.placement import restaurant_entrance, restaurant_squares

    state = position(2)
    spot = _legal_spot(state)[0]
    add_restaurant(state, 1, spot)
    lines = state_ascii(state).splitlines()
    door = restaurant_entrance(*spot)

    def char(r, c):  # map row r is text line 2 + r + r // TILE_SIZE; column c sits at 3 + c + c // TILE_SIZE
        return lines[2 + r + r // TILE_SIZE][3 + c + c // TILE_SIZE]

    assert char(*door) == "e"
    assert [char(*sq) for sq in restaurant_squares(*spot) if sq != door] == ["1", "1", "1"]


def _legal_spot(state):
    from fcm_env.engine.board.occupancy import occupied
    from fcm_env.engine.board.placement import list_placements, restaurant_placements

    return list_placements(restaurant_placements(state.board, occupied(state)))


def test_billboard_is_drawn_on_its_squares():
    state = position(2)
    from fcm_env.data import marketing_tile
    from fcm_env.engine.board.occupancy import occupied
    from fcm_env.engine.board.placement import campaign_placements, list_placements

    r, c, _o = list_placements(campaign_placements(state.board, occupied(state), marketing_tile(12)))[0]
    add_campaign(state, 12, 0, Good.PIZZA, row=r, col=c)
    assert "$" in state_ascii(state)
