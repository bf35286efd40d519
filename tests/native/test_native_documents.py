"""A native game loads the documents the Python engine loads and refuses the ones it refuses, with the same
StateFormatError and message (the bad-input validator: docs/state-format.md); what it loads it saves back
unchanged, and an illegal action or id changes nothing, with the Python engine's words."""

from __future__ import annotations

import pytest
from tampered_states import TAMPERED, restructuring_document

from fcm_env.engine.actions import Action, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.serialize import StateFormatError
from fcm_env.engines import load_game


@pytest.mark.parametrize(("mutate", "message"), TAMPERED[:12])
def test_a_tampered_document_is_refused_with_the_python_engines_message(mutate, message):
    document = restructuring_document()
    mutate(document)
    with pytest.raises(StateFormatError) as theirs:
        Game.from_dict(document)
    with pytest.raises(StateFormatError) as ours:
        load_game("native", document)
    assert str(ours.value) == str(theirs.value)


def test_a_loaded_document_saves_back_unchanged_and_plays_on():
    document = restructuring_document()
    game = load_game("native", document)
    assert game.to_dict() == document
    assert game.legal_actions() == Game.from_dict(document).legal_actions()


def test_illegal_moves_change_nothing_and_say_so_as_the_python_engine():
    document = restructuring_document()
    ours, theirs = load_game("native", document), Game.from_dict(document)
    bad = Action.place_restaurant(0, 0, 0)  # a placement, while RESTRUCTURE asks for a card
    for game in (ours, theirs):
        with pytest.raises(IllegalActionError) as error:
            game.apply(bad)
        assert "is not legal for RESTRUCTURE of player 0" in str(error.value)
    with pytest.raises(IllegalActionError, match="action id 999999"):
        ours.apply_id(999999)
    assert ours.to_dict() == document
