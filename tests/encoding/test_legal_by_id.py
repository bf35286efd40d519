"""legal_actions_by_id (the envs' one-lookup check of a stepped id) agrees with the ids and the codec."""

from __future__ import annotations

import numpy as np
from encoding_helpers import random_decisions

from fcm_env.encoding import CODEC, legal_action_ids
from fcm_env.encoding.mask import legal_actions_by_id


def test_every_legal_id_maps_to_the_action_the_codec_decodes():
    positions = 0
    for num_players in (2, 4, 5):
        for game, _ in random_decisions(num_players, seed=3, max_rounds=6):
            by_id = legal_actions_by_id(game)
            ids = legal_action_ids(game)
            assert sorted(by_id) == ids.tolist()
            assert len(by_id) == len(game.legal_actions())  # no two legal actions share an id
            for index, action in by_id.items():
                assert CODEC.decode(index, game) == action
            positions += 1
    assert positions > 100


def test_the_ids_and_the_dict_are_kept_for_the_position_only():
    game = next(random_decisions(3, seed=1))[0]
    first = legal_actions_by_id(game)
    assert legal_actions_by_id(game) is first
    game.apply(game.legal_actions()[0])
    assert np.array_equal(legal_action_ids(game), sorted(legal_actions_by_id(game)))
    assert legal_actions_by_id(game) is not first
