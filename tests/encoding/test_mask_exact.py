"""The legal-action mask is exact at every decision of seeded random games.

Set ids decode to exactly ``legal_actions()`` (each accepted by ``apply``);
a sample of unset ids raise ``IllegalActionError`` on decode + apply and leave
the game unchanged; only the player to move ever gets a non-zero mask.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from encoding_helpers import DEFAULT_ROUNDS, GAMES, MAX_STEPS, random_decisions, working_position

from fcm_env.data import EmployeeType as ET
from fcm_env.data import Milestone
from fcm_env.encoding.action_codec import CODEC
from fcm_env.encoding.mask import legal_action_ids, legal_action_mask
from fcm_env.engine.actions import ActionKind, Decision, IllegalActionError
from fcm_env.engine.game import Game


def _masked_out_sample(rng, mask: np.ndarray, legal_ids: np.ndarray, count: int) -> list[int]:
    """Unset ids: neighbours of set ids (same segment, the likeliest mistakes) and random ones."""
    near = {int(i) + d for i in legal_ids[:50] for d in (-4, -1, 1, 4)}
    near = sorted(i for i in near if 0 <= i < CODEC.n and not mask[i])
    far = [i for i in (rng.randrange(CODEC.n) for _ in range(count)) if not mask[i]]
    return rng.sample(near, min(count, len(near))) + far


def _check_decision(game: Game, rng) -> int:
    """Check the mask of this decision; return a random masked-in id for the game to play."""
    mover = game.current_player
    mask = legal_action_mask(game, mover)
    assert mask.dtype == np.int8 and mask.shape == (CODEC.n,)
    ids = np.flatnonzero(mask)
    assert len(ids) > 0, f"empty mask for the player to move at {game.pending}"
    legal = game.legal_actions()
    decoded = [CODEC.decode(int(i), game) for i in ids]
    assert sorted(decoded) == legal, f"mask != legal actions at {game.pending}"
    assert [CODEC.encode(a) for a in decoded] == ids.tolist()
    assert np.array_equal(legal_action_ids(game), ids)
    for other in range(game.num_players):
        if other != mover:
            assert not legal_action_mask(game, other).any(), "a player not to move got a mask"
    pending, before = game.pending, game.legal_actions()
    for i in _masked_out_sample(rng, mask, ids, 6):
        with pytest.raises(IllegalActionError):
            game.apply(CODEC.decode(i, game))
    assert game.pending == pending and game.legal_actions() == before, "a rejected id changed the game"
    return int(rng.choice(ids))


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_mask_equals_legal_actions_at_every_decision(num_players, variant):
    seen: set[Decision] = set()
    steps = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        game = Game.new(num_players, seed=seed, variant=variant, max_rounds=DEFAULT_ROUNDS)
        while game.pending is not None and steps < MAX_STEPS:
            seen.add(game.pending.decision)
            game.apply(CODEC.decode(_check_decision(game, rng), game))  # masked-in ids are accepted
            steps += 1
    assert steps > 50
    # the games reach far beyond setup: recruiting and the turn order were asked
    assert {Decision.INITIAL_RESTAURANT, Decision.TURN_ORDER, Decision.RECRUIT} <= seen


def test_mask_out_buffer_is_filled_in_place_and_checked():
    game = Game.new(3, seed=5)
    out = np.full(CODEC.n, 7, dtype=np.int8)
    mover = game.current_player
    assert legal_action_mask(game, mover, out=out) is out
    assert set(np.unique(out)) == {0, 1}
    other = (mover + 1) % 3
    assert not legal_action_mask(game, other, out=out).any()  # refilled: all zero for a waiting player
    with pytest.raises(ValueError, match="int8"):
        legal_action_mask(game, mover, out=np.zeros(CODEC.n, dtype=np.float32))
    with pytest.raises(ValueError, match="player must be"):
        legal_action_mask(game, 3)


def test_mask_is_cached_per_position_and_renewed_after_apply():
    game = Game.new(2, seed=1)
    first = legal_action_ids(game)
    assert legal_action_ids(game) is first  # same position: the cached ids
    game.apply(CODEC.decode(int(first[0]), game))
    second = legal_action_ids(game)
    assert second is not first
    assert sorted(CODEC.decode(int(i), game) for i in second) == game.legal_actions()


def test_no_mask_once_the_game_is_over():
    for game, _ in random_decisions(2, 0, max_rounds=2):
        pass
    assert game.is_over  # max_rounds ends it
    assert game.pending is None
    assert not legal_action_mask(game, 0).any() and not legal_action_mask(game, 1).any()
    assert legal_action_ids(game).size == 0


def _prefer(game: Game, rng, ids: np.ndarray, order: tuple[ActionKind, ...]) -> int:
    """A masked-in id of the first kind in ``order`` that is legal, else any non-pass id."""
    actions = {int(i): CODEC.decode(int(i), game) for i in ids}
    for kind in order:
        found = [i for i, a in actions.items() if a.kind == kind]
        if found:
            return rng.choice(found)
    moves = [i for i, a in actions.items() if a.kind != ActionKind.PASS]
    return rng.choice(moves or list(actions))


def test_mask_is_exact_for_the_expansion_and_buyer_decisions():
    # A first seat with every kind of phase-3 card: marketing, buyers, kitchen, houses, restaurants.
    work = {ET.BRAND_DIRECTOR: 1, ET.ZEPPELIN_PILOT: 1, ET.CART_OPERATOR: 1, ET.ERRAND_BOY: 1,
            ET.KITCHEN_TRAINEE: 1, ET.NEW_BUSINESS_DEVELOPER: 2, ET.LOCAL_MANAGER: 1, ET.REGIONAL_MANAGER: 1}
    order = (ActionKind.CHOOSE_HOUSE, ActionKind.SELECT_RESTAURANT, ActionKind.HAUL)
    seen: set[Decision] = set()
    for seed in range(3):
        game = working_position(3, seed, work)
        rng = random.Random(seed)
        first = game.current_player
        while game.pending is not None and game.current_player == first:
            seen.add(game.pending.decision)
            _check_decision(game, rng)
            ids = legal_action_ids(game)
            game.apply(CODEC.decode(_prefer(game, rng, ids, order), game))
    assert {Decision.MARKETEER, Decision.CAMPAIGN_PLACE, Decision.PRODUCE, Decision.NEW_BUSINESS,
            Decision.HOUSE_PLACE, Decision.RESTAURANT_MANAGER, Decision.RESTAURANT_PLACE} <= seen


def test_mask_is_exact_for_the_freezer():
    from fcm_env.engine.phases import cleanup

    # rules: Phase 7; First to throw away (freezer, held since an earlier turn): keep up to 10 items
    game = Game.new(2, seed=4)
    state = game.state
    player = state.players[0]
    player.milestones.add(Milestone.FIRST_THROW_AWAY)
    player.stock[:] = [4, 4, 3, 2, 0]
    cleanup.start(state)
    game._legal_cache = None
    rng = random.Random(0)
    kept = 0
    while game.pending is not None and game.pending.decision == Decision.FREEZER:
        _check_decision(game, rng)
        ids = legal_action_ids(game)
        game.apply(CODEC.decode(_prefer(game, rng, ids, (ActionKind.KEEP,)), game))
        kept += 1
    assert kept == 10  # ten keeps, then the freezer is full and the decision ends
