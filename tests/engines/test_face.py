"""The one face of both engines (``fcm_env.engines.GameLike``): both implement all of it, the native game's
state holds the table facts only (anything else names ``snapshot()``), a clone shares nothing with its
original, and the factory is the one place that picks an engine."""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env.encoding import FLAT_SIZE
from fcm_env.engine.game import Game
from fcm_env.engines import FACE_MEMBERS, GameLike, PythonGame, face_of, load_game, new_game, on_engine


def _played(engine: str, moves: int, seed: int = 5, players: int = 3) -> GameLike:
    game = new_game(engine, players, seed, "standard", 30)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        game.apply_id(int(rng.choice(game.legal_ids())))
    return game


def test_both_engines_implement_the_whole_face(engine):
    game = new_game(engine, 2, 1)
    assert isinstance(game, GameLike)
    missing = [name for name in FACE_MEMBERS if not hasattr(game, name)]
    assert missing == []
    assert {"legal_ids", "observe_flat", "snapshot", "native_core", "determinize", "to_dict"} <= set(FACE_MEMBERS)


def test_the_face_gives_the_same_game_on_both_engines():
    pytest.importorskip("fcm_env.native")
    python, native = _played("python", 0), _played("native", 0)
    rng = np.random.default_rng(11)
    out_p, out_n = np.zeros(FLAT_SIZE, np.float32), np.zeros(FLAT_SIZE, np.float32)
    for _ in range(150):
        assert python.legal_ids().tolist() == native.legal_ids().tolist()
        assert python.info_facts() == native.info_facts()
        mover = python.current_player
        python.observe_flat(mover, out_p)
        native.observe_flat(mover, out_n)
        assert out_p.tobytes() == out_n.tobytes()
        index = int(rng.choice(python.legal_ids()))
        assert python.is_legal_id(index) and native.is_legal_id(index)
        python.apply_legal(index)
        native.apply_legal(index)
    assert python.to_dict() == native.to_dict() == native.snapshot().to_dict()


def test_a_native_state_names_snapshot_for_what_it_does_not_hold():
    pytest.importorskip("fcm_env.native")
    game = _played("native", 40)
    assert game.state.players[0].cash == game.snapshot().state.players[0].cash  # a table fact: from the core
    with pytest.raises(AttributeError, match=r"snapshot\(\)"):
        _ = game.state.bank
    with pytest.raises(AttributeError, match=r"players\[1\]\.hand.*snapshot\(\)"):
        _ = game.state.players[1].hand
    assert game.snapshot().state.bank == game.to_dict()["bank"]


def test_a_clone_shares_nothing_with_its_original(engine):
    # the bug this guards: a native clone once shared its state view with the original, so after the original
    # moved, the clone's state reported the original's facts (92 in the bank where its own position had 95)
    game = _played(engine, 60)
    _ = game.state.players, game.legal_ids(), game.pending  # the original's views are read before the clone
    twin = game.clone()
    before = twin.to_dict()
    seen = (twin.state.round, twin.state.phase, [p.cash for p in twin.state.players], twin.legal_ids().tolist())
    rng = np.random.default_rng(3)
    while game.to_dict() == before or game.info_facts()[4] == twin.info_facts()[4]:
        game.apply_id(int(rng.choice(game.legal_ids())))
        if game.is_over:
            break
    assert twin.to_dict() == before
    assert (twin.state.round, twin.state.phase, [p.cash for p in twin.state.players],
            twin.legal_ids().tolist()) == seen
    assert twin.snapshot().to_dict() == before
    assert twin.snapshot().state.bank == before["bank"] != game.snapshot().state.bank or game.is_over


def test_snapshot_is_the_position_and_a_native_snapshot_is_a_copy(engine):
    game = _played(engine, 30)
    snap = game.snapshot()
    assert isinstance(snap, Game) and snap.to_dict() == game.to_dict()
    if game.native_core is None:
        assert snap is game  # the Python game is its own full position
    else:
        snap.apply(snap.legal_actions()[0])
        assert snap.to_dict() != game.to_dict()  # moving the copy leaves the native game as it was


def test_a_position_moves_across_the_engines_and_back():
    pytest.importorskip("fcm_env.native")
    python = _played("python", 80)
    native = on_engine(python, "native")
    assert native.native_core is not None and native.to_dict() == python.to_dict()
    assert on_engine(native, "native") is native
    back = on_engine(native, "python")
    assert back.native_core is None and back.to_dict() == python.to_dict()
    assert load_game("native", python.to_dict()).to_dict() == python.to_dict()


def test_a_plain_game_joins_the_face_in_place():
    plain = Game.new(2, seed=4)
    joined = face_of(plain)
    assert joined is plain and isinstance(plain, PythonGame)
    assert plain.legal_ids().size == len(plain.legal_actions())
    with pytest.raises(TypeError, match="expected a game"):
        face_of(object())
    with pytest.raises(TypeError, match="SeatView"):
        face_of(Game.new(2, seed=4).seat_view(0))


def test_clones_and_worlds_of_a_python_game_keep_the_face():
    game = new_game("python", 2, 8)
    assert type(game.clone()) is PythonGame
    assert type(game.determinize(0, np.random.default_rng(0))) is PythonGame
    assert type(game.seat_view(0).clone()) is PythonGame


@pytest.mark.parametrize("observer", [1.5, "0", True, np.bool_(False), 3, -1, None])
def test_determinize_refuses_an_observer_that_is_no_player_id_on_either_engine(engine, observer):
    game = _played(engine, 12)
    before = game.to_dict()
    with pytest.raises(ValueError, match=r"observer must be a player id 0\.\.2, got "):
        game.determinize(observer, np.random.default_rng(0))
    assert game.to_dict() == before


def test_determinize_takes_numpy_integers_and_refuses_what_is_no_generator(engine):
    game = _played(engine, 12)
    assert game.determinize(np.int64(1), np.random.default_rng(0)).num_players == 3
    with pytest.raises(TypeError, match="rng must be a numpy Generator"):
        game.determinize(1, 7)


def test_the_core_refuses_a_generator_state_that_is_not_pcg64s():
    pytest.importorskip("fcm_env.native")
    core = _played("native", 12).native_core
    good = np.random.default_rng(0).bit_generator.state
    for bad, words in [({**good, "bit_generator": "MT19937"}, "must be numpy's PCG64"),
                       ({**good, "state": {**good["state"], "state": 2**200}}, r"state must be an int 0 <= x < 2\*\*128"),
                       ({**good, "state": {**good["state"], "inc": -1}}, r"inc must be an int 0 <= x < 2\*\*128")]:
        with pytest.raises(ValueError, match=words):
            core.determinize(1, bad)


def test_play_id_moves_and_returns_the_infos_facts_or_changes_nothing(engine):
    """``play_id`` (the AEC env's step in one call): a legal id is played and the new position's
    ``info_facts`` come back with the mover's legal count; anything else (an id not legal now, out of range, an
    int past int64) returns None and leaves the position as it was, on both engines."""
    game, twin = _played(engine, 10), _played(engine, 10)
    legal = set(game.legal_ids().tolist())
    illegal = next(i for i in range(2757) if i not in legal)
    for index in (illegal, -1, 2757, 2**70, -(2**70)):
        assert game.play_id(index) is None
    assert game.to_dict() == twin.to_dict()
    rng = np.random.default_rng(3)
    for _ in range(60):
        index = int(rng.choice(game.legal_ids()))
        facts = game.play_id(index)
        twin.apply_id(index)
        assert game.to_dict() == twin.to_dict()
        assert facts[:5] == twin.info_facts()
        assert facts[5] == game.legal_ids().size == len(twin.legal_actions())
        assert facts[3] == game.current_player


def test_play_id_logs_the_action_when_the_game_keeps_a_history(engine):
    game, twin = _played(engine, 4), _played(engine, 4)
    game.history, twin.history = [], []
    index = int(game.legal_ids()[-1])
    game.play_id(index)
    twin.apply_id(index)
    assert game.history == twin.history and len(game.history) == 1
