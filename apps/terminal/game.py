"""The play loop of ``fcm play``: bots move, the human decides, the record is saved on any exit.

Why a module of its own: starting a game (new or ``--resume``), seating the bots, running the loop
and saving the record (Ctrl-C too) is the session's job; the human's prompt is
``fcm_apps.terminal.prompt``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from fcm_apps.terminal.prompt import HumanTurn
from fcm_apps.terminal.story import Narrator, end_lines
from fcm_env.data import Milestone
from fcm_env.engine.game import Game

# ------------------------------------------------------------------ the game loop


class TerminalGame(HumanTurn):
    """One human seat in the terminal; the other seats are bots. The game must log events."""

    def __init__(self, game: Game, human: int, bots: dict[int, Any], names: list[str], infile: IO[str],
                 out: IO[str]):
        if game.events is None:
            game.record_events()
        self.game, self.human, self.bots, self.names = game, human, bots, names
        self.infile, self.out = infile, out
        held = {p.player: [Milestone(m).key for m in p.milestones] for p in game.state.players}
        self.narrator = Narrator(human, [int(p.cash) for p in game.state.players], held)
        self._seen = len(game.events)
        self.board_shown = False  # the map is drawn at the first decision (after the bots' setup moves)
        self.line_reader = None  # prompt_toolkit's session, made at the first prompt on a terminal

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def flush(self) -> None:
        """Print the events since the last flush that this seat may see."""
        events = self.game.events
        new, self._seen = events[self._seen:], len(events)
        state = self.game.state
        for line in self.narrator.lines(new, state):
            self.say(line)
        for p, told in enumerate(self.narrator.cash):  # a guard: the events explain every cash change
            if told != int(state.players[p].cash):
                self.say(f"  (cash of {self.narrator.who(p)} is ${state.players[p].cash}, not ${told})")
                self.narrator.cash[p] = int(state.players[p].cash)

    def run(self) -> int:
        """0 when the game ends; 1 when the human quits or the input ends first."""
        from fcm_apps.server import bot_move

        game = self.game
        others = ", ".join(f"player {p}: {self.names[p]}" for p in sorted(self.bots))
        self.say(f"fcm play: you are player {self.human}; {others}. Type ? for help, b for the map.")
        while not game.is_over:
            player = game.current_player
            if player == self.human:
                if not self._human_turn():
                    return 1
            else:
                game.apply(bot_move(self.bots[player], game, player), atomic=True)
            self.flush()
        for line in end_lines(game, self.names, self.human):
            self.say(line)
        return 0


# ------------------------------------------------------------------ starting, resuming, saving


@dataclass
class PlayOptions:
    """What ``fcm play`` was asked for (the command line's options)."""

    players: int = 2
    seat: int = 0
    opponents: str = "heuristic"
    seed: int = 0
    variant: str = "standard"
    max_rounds: int | None = 30
    save_record: str | None = None
    resume: str | None = None


def default_record_path() -> Path:
    return Path("runs") / f"play-{time.strftime('%Y%m%d-%H%M%S')}.json"


def _setup(options: PlayOptions) -> tuple[Game, int, list[str]]:
    """The game (new, or replayed from ``--resume``), the human's seat and one name per seat."""
    from fcm_env.engine.persistence.records import GameRecord, new_recorded_game, replay

    if options.resume:
        record = GameRecord.load(options.resume)
        names = list(record.agents) if record.agents else None
        if names is None:
            names = ["human" if p == options.seat else spec
                     for p, spec in zip(range(record.num_players), _lineup(options, record.num_players))]
        if names.count("human") != 1:
            raise ValueError(f"{options.resume}: the record's agents {names} name no single human seat")
        return replay(record), names.index("human"), names
    n = options.players
    if not 0 <= options.seat < n:
        raise ValueError(f"--seat must be a player id 0..{n - 1}, got {options.seat}")
    names = _lineup(options, n)
    game = new_recorded_game(n, seed=options.seed, variant=options.variant, max_rounds=options.max_rounds)
    return game, options.seat, names


def _lineup(options: PlayOptions, n: int) -> list[str]:
    """``human`` at the seat, the ``--opponents`` specs in the other seats."""
    if not 0 <= options.seat < n:
        raise ValueError(f"--seat must be a player id 0..{n - 1}, got {options.seat}")
    from fcm_agents.registry import split_specs

    specs = split_specs(options.opponents)
    if len(specs) == 1:
        specs = specs * (n - 1)
    if len(specs) != n - 1:
        raise ValueError(f"--opponents: give one spec or {n - 1} (one per other player), got {len(specs)}")
    others = iter(specs)
    return ["human" if p == options.seat else next(others) for p in range(n)]


def play(options: PlayOptions, infile: IO[str], out: IO[str]) -> int:
    """Play (or continue) a game; the record is saved on every exit, Ctrl-C included.

    0: the game ended; 1: left unfinished (quit, input ended); 130: interrupted."""
    from fcm_agents.registry import make_agent
    from fcm_env.engine.persistence.records import GameRecord

    game, human, names = _setup(options)
    bots = {p: make_agent(spec, seed=game.state.seed * 10 + p) for p, spec in enumerate(names) if p != human}
    path = Path(options.save_record or options.resume or default_record_path())
    session = TerminalGame(game, human, bots, names, infile, out)
    if options.resume:
        session.say(f"resumed {options.resume}: {len(game.history)} actions replayed "
                    f"(round {game.state.round}, {game.phase.name.lower()})")
    code = 130
    try:
        code = session.run()
    except KeyboardInterrupt:
        session.say("\ninterrupted (Ctrl-C)")
    finally:
        path.parent.mkdir(parents=True, exist_ok=True)
        GameRecord.from_game(game, agents=names).save(path)
        state = "finished game" if game.is_over else "unfinished game"
        session.say(f"record of the {state} saved to {path} ({len(game.history)} actions)")
        if not game.is_over:
            session.say(f"continue it with: fcm play --resume {path}")
    return code
