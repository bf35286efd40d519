"""Pictures of a game in progress: text with the placed pieces, an RGB image, PNG bytes."""

from __future__ import annotations

import struct
import zlib

import numpy as np
from late_builders import add_campaign, add_restaurant, demand, position

from fcm_env.data import Good
from fcm_env.engine.render_state import PLAYER_COLORS, png_bytes, state_ascii, state_rgb


def _decode_png(data: bytes) -> np.ndarray:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        tag, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert crc == zlib.crc32(tag + body) & 0xFFFFFFFF
        if tag == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    w, h = size
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, 1 + 3 * w)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(h, w, 3)


def test_png_round_trips_the_pixels():
    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, size=(7, 5, 3), dtype=np.uint8)
    assert (_decode_png(png_bytes(img)) == img).all()


def test_image_shows_a_restaurant_in_its_owners_colour():
    state = position(2)
    spot = next(iter(_legal_spot(state)))
    add_restaurant(state, 1, spot)
    img = state_rgb(state, scale=10)
    H, W = state.board.shape
    assert img.shape == ((H + 2) * 10, (W + 2) * 10, 3)
    r, c, o = spot
    other = (r + 1, c) if o != 3 else (r, c + 1)  # a restaurant square that is not the entrance
    y, x = (other[0] + 1) * 10 + 5, (other[1] + 1) * 10 + 5
    assert tuple(img[y, x]) == tuple(PLAYER_COLORS[1])


def test_text_lists_demand_campaigns_and_players():
    state = position(2)
    number = min(state.houses)
    demand(state, number, Good.BURGER, Good.BEER)
    text = state_ascii(state)
    assert f"house {number} wants Bb" in text
    assert "player 0: $" in text and "player 1: $" in text


def _legal_spot(state):
    from fcm_env.engine.occupancy import occupied
    from fcm_env.engine.placement import list_placements, restaurant_placements

    return list_placements(restaurant_placements(state.board, occupied(state)))


def test_billboard_is_drawn_on_its_squares():
    state = position(2)
    from fcm_env.data import marketing_tile
    from fcm_env.engine.occupancy import occupied
    from fcm_env.engine.placement import campaign_placements, list_placements

    r, c, _o = list_placements(campaign_placements(state.board, occupied(state), marketing_tile(12)))[0]
    add_campaign(state, 12, 0, Good.PIZZA, row=r, col=c)
    assert "$" in state_ascii(state)
