"""``determinize`` and ``observed_action``: redraw what the observer may not see, and nothing else (design:
Search support; D50-D52, C26, C30).

The four leak tests of the search-ready engine: the observer sees the same game in the world as in the real
one; the world cannot depend on the hidden truth; the redraw is not a copy of the truth; the worlds play to
the end with every invariant holding. Both are on both engines' face: the positions come from seeded games of
the Python reference (where the hidden truth can be changed by hand, ``_other_truth``), are moved onto the
engine under test (the ``engine`` fixture, ``fcm_env.engines.on_engine``) and determinized, observed and
played there; a world's full position is read back with ``full`` (``snapshot()``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from on_engine import full

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.data import EmployeeType
from fcm_env.encoding import FLAT_SIZE
from fcm_env.engine.actions import Action, Decision, Pending
from fcm_env.engine.events import HIDDEN_DECISIONS, visible
from fcm_env.engine.game import Game
from fcm_env.engine.hidden.determinize import UniformModel
from fcm_env.engine.hidden.visibility import firing_hidden, reserve_hidden, structure_hidden
from fcm_env.engine.invariants import check_state, total_money
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.phases import payday, restructuring
from fcm_env.engine.state import Phase
from fcm_env.engines import on_engine

CEO = int(EmployeeType.CEO)



def _seen(game, observer: int) -> bytes:
    """``observer``'s flat observation of ``game`` (either engine), as bytes."""
    return game.observe_flat(observer, np.zeros(FLAT_SIZE, dtype=np.float32)).tobytes()


def _positions(num_players: int, seed: int, heuristic: bool = False, max_rounds: int = 7, every: int = 9):
    """Positions of one seeded game: every decision of a face-down choice, every ``every``-th otherwise."""
    game = Game.new(num_players, seed=seed, max_rounds=max_rounds)
    rng = random.Random(seed)
    agents = [HeuristicAgent(seed=seed + p) for p in range(num_players)]
    step = 0
    while not game.is_over:
        hidden_now = not (game.state.structure_revealed and game.state.firing_revealed) or (
            game.pending.decision == Decision.RESERVE_CARD or not game.state.reserve_revealed and step % 3 == 0)
        if hidden_now or step % every == 0:
            yield game
        player = game.current_player
        game.apply(agents[player].act_on_game(game, player) if heuristic else pick(rng, game.legal_actions()))
        step += 1


def _games():
    for n in (2, 3, 4, 5):
        yield from ((n, g) for g in _positions(n, seed=n))
    for n in (2, 4):
        yield from ((n, g) for g in _positions(n, seed=10 + n, heuristic=True, every=25))


def _hidden_facts(game: Game, observer: int) -> bool:
    state = game.state
    return any(reserve_hidden(state, observer, p) or structure_hidden(state, observer, p)
               or firing_hidden(state, observer, p) for p in range(state.num_players))


def _moving_hidden(game: Game, observer: int) -> bool:
    """Another player is in the middle of a face-down choice (its legal actions depend on it)."""
    pending = game.pending
    return pending is not None and pending.player != observer and pending.decision in HIDDEN_DECISIONS


def test_the_observer_sees_the_same_game_in_every_world(engine):
    checked = hidden = 0
    for n, game in _games():
        here = on_engine(game, engine)
        for observer in range(n):
            world = here.determinize(observer, np.random.default_rng(checked))
            assert _seen(world, observer) == _seen(here, observer)
            if not _moving_hidden(game, observer):
                assert world.legal_ids().tolist() == here.legal_ids().tolist()
            assert world.current_player == here.current_player and world.state.phase == here.state.phase
            checked += 1
            hidden += _hidden_facts(game, observer)
    assert checked > 500 and hidden > 100


def _other_truth(game: Game, observer: int, rng: random.Random) -> Game:
    """The same game with the facts hidden from ``observer`` chosen otherwise, built with the phases'
    own moves (not with ``determinize``): another kept reserve card, another face-down structure,
    other firing marks, for every player who has already chosen."""
    other = game.clone()
    state = other.state
    for p in range(state.num_players):
        cards = state.players[p]
        if reserve_hidden(state, observer, p):
            cards.reserve = rng.choice([v for v in cards.reserve_offer if v != cards.reserve] or [cards.reserve])
        done = p not in state.queue
        if structure_hidden(state, observer, p) and state.phase == Phase.RESTRUCTURING and done:
            ceo = int(cards.work[CEO])
            cards.hand += cards.work
            cards.hand[CEO] -= ceo
            cards.work[:] = 0
            cards.work[CEO] = ceo
            pending = Pending(Decision.RESTRUCTURE, p)
            while restructuring.can_choose(state, p):
                action = rng.choice(restructuring.legal_restructure(state, pending))
                if not action.args or not restructuring.put_to_work(state, p, action.args[0]):
                    break
        if firing_hidden(state, observer, p) and state.phase == Phase.PAYDAY and done:
            cards.fired[:] = 0
            pending = Pending(Decision.FIRE, p)
            while payday.can_choose(state, p):
                action = rng.choice(payday.legal_fire(state, pending))
                if not action.args or not payday.mark_fired(state, p, action.args[0]):
                    break
    return other


def test_the_world_does_not_depend_on_the_hidden_truth(engine):
    # two real games that differ only in what the observer cannot see, determinized with equal seeds on the
    # engine under test, give byte-identical worlds
    compared = differed = 0
    rng = random.Random(0)
    for n, game in _games():
        for observer in range(n):
            if not _hidden_facts(game, observer):
                continue
            other_truth = _other_truth(game, observer, rng)
            differed += other_truth.to_dict() != game.to_dict()
            a = on_engine(game, engine).determinize(observer, np.random.default_rng(7))
            b = on_engine(other_truth, engine).determinize(observer, np.random.default_rng(7))
            assert a.to_dict() == b.to_dict()
            compared += 1
    assert compared > 100 and differed > 30


def test_a_changed_reserve_card_alone_does_not_change_the_world(engine):
    # rules: Setting goals — the kept reserve card is face down (D52)
    game = Game.new(3, seed=5)
    rng = random.Random(0)
    while game.state.phase != Phase.RESTRUCTURING:
        game.apply(pick(rng, game.legal_actions()))
    twin = game.clone()
    truth = game.state.players[1].reserve
    twin.state.players[1].reserve = next(v for v in twin.state.players[1].reserve_offer if v != truth)
    here, other = on_engine(game, engine), on_engine(twin, engine)
    assert here.determinize(0, np.random.default_rng(3)).to_dict() == other.determinize(0, np.random.default_rng(3)).to_dict()
    # the player itself still sees its own card
    assert full(here.determinize(1, np.random.default_rng(3))).players[1].reserve == truth


def test_every_hidden_fact_takes_more_than_one_value_over_draws(engine):
    seen = {"reserve": False, "structure": False, "firing": False}
    for n, game in _games():
        observer = 0
        state = game.state
        here = on_engine(game, engine)
        for p in range(1, n):
            worlds = [full(here.determinize(observer, np.random.default_rng(s))) for s in range(24)]
            if reserve_hidden(state, observer, p) and len(set(state.players[p].reserve_offer)) > 1:
                assert len({w.players[p].reserve for w in worlds}) > 1
                seen["reserve"] = True
            if structure_hidden(state, observer, p) and p not in state.queue and state.phase == Phase.RESTRUCTURING:
                works = {w.players[p].work.tobytes() for w in worlds}
                seen["structure"] |= len(works) > 1
            if firing_hidden(state, observer, p) and p not in state.queue and state.phase == Phase.PAYDAY:
                fired = {w.players[p].fired.tobytes() for w in worlds}
                seen["firing"] |= len(fired) > 1
        if all(seen.values()):
            break
    assert seen == {"reserve": True, "structure": True, "firing": True}


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_worlds_play_to_the_end_keeping_every_invariant(engine, num_players):
    worlds = 0
    for index, game in enumerate(_positions(num_players, seed=20 + num_players, max_rounds=6, every=40)):
        if index % 3:
            continue
        observer = index % num_players
        world = on_engine(game, engine).determinize(observer, np.random.default_rng(index))
        state = full(world)
        added = sum(p.reserve or 0 for p in state.players) if state.reserve_revealed else 0
        start = total_money(state) - added
        rng = random.Random(index)
        heuristic = [HeuristicAgent(seed=p) for p in range(num_players)] if index % 2 else None
        while not world.is_over:
            player = world.current_player
            world.apply(heuristic[player].act_on_game(world, player) if heuristic else pick(rng, world.legal_actions()))
            check_state(full(world), start)
        worlds += 1
    assert worlds >= 4


def test_a_custom_model_is_asked_and_must_choose_a_legal_action(engine):
    class Last(UniformModel):
        asked = 0

        def choose(self, state, pending, legal, rng):
            Last.asked += 1
            return legal[-1]

    class Illegal(UniformModel):
        def choose(self, state, pending, legal, rng):
            return Action.recruit(EmployeeType.KITCHEN_TRAINEE)

    for n, game in _games():
        observer = game.current_player
        if game.state.phase == Phase.RESTRUCTURING and any(
                p != observer and p not in game.state.queue for p in range(n)):
            here = on_engine(game, engine)
            world = here.determinize(observer, np.random.default_rng(0), Last())
            if Last.asked:
                assert world.current_player == here.current_player
                with pytest.raises(ValueError, match="the model chose recruit kitchen_trainee, not legal for RESTRUCTURE"):
                    here.determinize(observer, np.random.default_rng(0), Illegal())
                break
    assert Last.asked > 0
    with pytest.raises(ValueError, match=f"observer must be a player id 0..{n - 1}"):
        here.determinize(n, np.random.default_rng(0))


def test_observed_actions_merge_exactly_the_moves_the_event_log_hides(engine):
    # the keys are the engine's (``observed_action`` on its face); what the move shows is read from the
    # Python reference's event log (the native core keeps none)
    compared = merged = 0
    for n, game in _games():
        legal = game.legal_actions()
        if len(legal) < 2:
            continue
        here = on_engine(game.clone(), engine)
        assert here.legal_actions() == legal
        for observer in range(n):
            seen = {}
            for action in legal[:6]:
                twin = game.clone()
                log = twin.record_events()
                twin.apply(action)
                shown = [e for e in log[:1] if visible(e, observer)]  # the move's own event
                seen[action] = (here.observed_action(action, observer), repr(shown))
            for a, (key_a, shown_a) in seen.items():
                for b, (key_b, shown_b) in seen.items():
                    assert (key_a == key_b) == (shown_a == shown_b), (a, b, observer)
                    compared += 1
                    merged += a != b and key_a == key_b
    assert compared > 1000 and merged > 10
