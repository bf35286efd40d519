"""The ``fcm`` parser: every subcommand, its options and help; ``main`` runs one and turns errors into one line."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from .batches import _cmd_evaluate, _cmd_leaderboard, _cmd_simulate
from .options import (
    PNG_SCALES,
    _at_least_one,
    _batch_options,
    _game_options,
    _override,
    _Parser,
    _seed,
)
from .play import _cmd_play, _cmd_serve, _cmd_web
from .replay import _cmd_replay
from .tools import _cmd_bench, _cmd_map, _cmd_models
from .train import _cmd_train, _TrainHelp

#: the agent specs every agent option takes (fcm_agents.registry)
AGENT_SPECS = ("random, heuristic, policy (the shipped trained model), policy:PATH (.onnx or checkpoint), "
               "onnx:PATH, search, search:KEY=VALUE,..., flat, flat:KEY=VALUE,... (docs/search.md), "
               "llm:base_url=URL,model=NAME (a language model; docs/llm.md)")
#: how the results table of simulate / evaluate is sorted (training/common/tournament_results.summarise)
TABLE_ORDER = ("The table is sorted by rating (openskill's mu - 3 sigma, from every game's places), then by "
               "wins/games: in a short run an agent with fewer wins but better places can rank above one with "
               "more wins; read wins/games with its 95% interval.")


def package_version() -> str:
    """The installed distribution's version (``unknown`` when run from a checkout that is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fcm-magnate")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="fcm", description="Food Chain Magnate RL environment tools.")
    parser.add_argument("--version", action="version", version=f"fcm-magnate {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("map", help="build a random map (or a given layout) and print it as text")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5), help="player count (map size)")
    p.add_argument("--seed", type=_seed, default=None,
                   help="seed of the map draw (default: a new random one, printed under the map)")
    p.add_argument("--tiles", default=None, help='explicit layout, e.g. "A0 B1 / C2 D3" (letter + quarter turns)')
    p.set_defaults(func=_cmd_map)

    p = sub.add_parser("simulate", help="play a batch of bot games and print the results table",
                       description="Play seeded bot games (the lineup rotates one seat per game) and print "
                                   "win rates, cash, ranks and ratings. " + TABLE_ORDER)
    p.add_argument("--agents", default="heuristic,random,random,random",
                   help="comma-separated agent specs, one per player: " + AGENT_SPECS)
    p.add_argument("--games", type=_at_least_one, default=50, help="number of games")
    _batch_options(p)
    p.add_argument("--out", type=Path, default=None,
                   help="keep every game in this folder as it ends (games.jsonl), then summary.json and games.csv")
    p.add_argument("--records", action="store_true", help="with --out: also write one game record per game")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="finish the run kept in DIR (interrupted): the same command plus --resume DIR plays only "
                        "its missing games")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("evaluate", help="run a rating tournament and save its results",
                       description="A tournament for ratings: the simulate runner with more games, results "
                                   "saved by default (summary.json, games.csv, records/). " + TABLE_ORDER)
    p.add_argument("--lineup", default="heuristic,random",
                   help="comma-separated agent specs: " + AGENT_SPECS)
    p.add_argument("--players", type=int, default=None,
                   help="table size: the lineup is repeated to fill this many seats (default: its length)")
    p.add_argument("--games", type=_at_least_one, default=200, help="number of games")
    _batch_options(p)
    p.add_argument("--out", type=Path, default=None,
                   help="results folder, every game kept as it ends (default runs/eval-<timestamp>)")
    p.add_argument("--records", action=argparse.BooleanOptionalAction, default=True,
                   help="write one replayable record per game")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="finish the run kept in DIR (interrupted): the same command plus --resume DIR plays only "
                        "its missing games")
    p.add_argument("--backend", choices=("process", "ray"), default="process",
                   help="run games in worker processes or as Ray tasks (same results; docs/distributed.md)")
    p.add_argument("--address", default=None,
                   help="with --backend ray: a running Ray cluster to join (auto or HOST:PORT; default: start a "
                        "local one with --workers CPUs)")
    p.set_defaults(func=_cmd_evaluate)

    p = sub.add_parser("play", help="play one seat yourself in the terminal against bots",
                       description="Play a game in the terminal (docs/terminal.md). At each of your decisions "
                                   "type a choice's number or a placement's coordinate (ROW COL O), b (map), "
                                   "s (status), l (list), ? (help) or q (quit). Exit code 0 when the game ends, "
                                   "1 when it is left unfinished, 130 on Ctrl-C; the record is saved either way.")
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5), help="number of players")
    p.add_argument("--seat", type=int, default=0, help="your player id (0..players-1)")
    p.add_argument("--opponents", default="heuristic",
                   help="agent spec for every other player, or one comma-separated spec per other player: "
                        + AGENT_SPECS)
    _game_options(p, seed_help="game seed (map and turn order)")
    p.add_argument("--save-record", default=None, metavar="FILE",
                   help="where the game record is saved on every exit, Ctrl-C included (default: "
                        "runs/play-<time>.json; with --resume: the resumed file)")
    p.add_argument("--resume", default=None, metavar="RECORD",
                   help="continue a saved game: replay its record, bots back in their seats")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("replay", help="replay a game record: state text, PNG picture or action list",
                       description="Replay a game record to a step and print the position.")
    p.add_argument("file", type=Path, help="game record (fcm-magnate/record JSON)")
    p.add_argument("--step", type=int, default=None, help="number of actions to replay (default: all)")
    p.add_argument("--final", action="store_true", help="replay everything; print only the result, not the board")
    p.add_argument("--list", action="store_true", help="print every action with its step index")
    p.add_argument("--events", action="store_true", help="print the game's events (sales, salaries, demand, ...)")
    p.add_argument("--round", type=int, default=None, help="only this round's events (needs --events)")
    p.add_argument("--player", type=int, default=None,
                   help="only the events this player may see (needs --events)")
    p.add_argument("--png", default=None, metavar="OUT.png", help="also write a picture of the position")
    p.add_argument("--scale", type=int, default=None,
                   help=f"with --png: pixels per map square, {PNG_SCALES[0]}..{PNG_SCALES[1]} (default 24)")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("bench", help="engine and encoding speed figures on seeded random games",
                       description="Play seeded random games and time the engine, legal actions, the mask and "
                                   "the observation encoder (fcm_apps.bench).")
    p.add_argument("--players", default="2,3,4,5", help="comma-separated player counts")
    p.add_argument("--games", type=_at_least_one, default=2, help="random games per player count")
    p.add_argument("--positions", type=_at_least_one, default=300, help="positions timed per player count")
    p.add_argument("--reps", type=_at_least_one, default=3, help="passes over the positions per timing")
    _game_options(p, seed_help="seed of the first game")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser("models", help="list the shipped model files and where they are in this install",
                       description="The ONNX policies and value network the package ships: kind, player count, "
                                   "graph format, size and path (a front end running onnxruntime needs the "
                                   "path; docs/models.md gives their inputs and outputs).")
    p.add_argument("--json", action="store_true", help="print them as JSON (with each file's sha256)")
    p.set_defaults(func=_cmd_models)

    p = sub.add_parser("serve", help="serve games to a front end (JSON lines on stdin/stdout)",
                       description="One JSON request per line on stdin, one JSON reply per line on stdout "
                                   "(docs/protocol.md).")
    p.add_argument("--stdio", action="store_true",
                   help="use stdin/stdout: the default and only transport, so the flag may be left out")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("web", help="play against bots or replay records in the browser",
                       description="Serve the browser table on localhost (docs/web.md): play one seat against "
                                   "bots, save and resume games, step through game records.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--open", action="store_true", help="open the page in the default browser")
    p.add_argument("--replay", default=None, metavar="RECORD", help="a game record the page opens for replay")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="also accept pages from ORIGIN (http://NAME:PORT; '*' for any), repeatable; "
                        "by default only 127.0.0.1, localhost, [::1] and --host at --port (docs/web.md)")
    p.set_defaults(func=_cmd_web)

    p = sub.add_parser("leaderboard", help="play the leaderboard's tables and write its table",
                       description="Play a fixed set of seeded tables (2 players: every pair head to head; 3-5 "
                                   "players: each agent against the heuristic field) and write one table: win "
                                   "rate with its Wilson interval, mean place and rating per agent and table size "
                                   "(docs/leaderboard.md). Finished games are kept in --out: the same command "
                                   "resumes.")
    p.add_argument("--agents", default=None,
                   help="comma-separated agent specs (default: random, heuristic, policy, search:iterations=32, "
                        "strategist and strategist:archetype=NAME for each of its six archetypes)")
    p.add_argument("--add", default=None, help="more agent specs after the default ones (comma-separated)")
    p.add_argument("--players", default="2,3,4,5", help="table sizes, comma-separated")
    p.add_argument("--games", type=_at_least_one, default=40, help="games per table")
    p.add_argument("--games-multi", type=_at_least_one, default=None,
                   help="games per table at 3-5 players (default: --games)")
    p.add_argument("--engine", choices=("auto", "native", "python"), default="auto",
                   help="the engine the games run on (the same games on either; auto: native where built)")
    p.add_argument("--seed", type=_seed, default=7_000_000,
                   help="the seed set (each table's seeds follow from it)")
    p.add_argument("--max-rounds", type=_at_least_one, default=30,
                   help="end a game after this many rounds (truncated)")
    p.add_argument("--workers", type=_at_least_one, default=1,
                   help="worker processes (results do not depend on it)")
    p.add_argument("--out", type=Path, default=Path("runs/leaderboard"), help="where finished games are kept")
    p.add_argument("--markdown", type=Path, default=Path("runs/leaderboard/leaderboard.md"),
                   help="the table as markdown (the project's own: docs/leaderboard.md)")
    p.add_argument("--json", type=Path, default=None, help="the table as JSON (default: next to --markdown)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--backend", choices=("process", "ray"), default="process",
                   help="run games in worker processes or as Ray tasks (same results)")
    p.add_argument("--address", default=None, help="with --backend ray: a Ray cluster to join")
    p.set_defaults(func=_cmd_leaderboard)

    p = sub.add_parser("train", help="self-play training from a YAML config (fcm_training.selfplay)",
                       add_help=False,
                       description="Behaviour cloning, then MaskablePPO self-play (docs/training.md). Every "
                                   "setting is checked before anything is written.")
    p.add_argument("-h", "--help", action=_TrainHelp,
                   help="show this help, with every setting's default, and exit")
    p.add_argument("config", type=Path,
                   help="run config: a YAML file, or the name of a shipped config (e.g. quick)")
    p.add_argument("--set", action="append", type=_override, metavar="KEY=VALUE",
                   help="override a config setting, e.g. --set total_timesteps=2000 (JSON values; "
                        "repeatable; default: the config's values)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="continue the run in out_dir from its latest checkpoint up to total_timesteps in all "
                           "(default: off; a non-empty out_dir is refused)")
    mode.add_argument("--overwrite", action="store_true",
                      help="delete the run in out_dir first and start again (default: off)")
    p.add_argument("--backend", choices=("sb3", "ray"), default=None,
                   help="sb3: MaskablePPO (docs/training.md); ray: RLlib PPO on Ray workers, with a ray_* config "
                        "(docs/distributed.md) (default: ray for a config that says backend: ray, else sb3)")
    p.set_defaults(func=_cmd_train)
    return parser


def run(argv: Sequence[str] | None = None, received: Sequence[int] = ()) -> int:
    """Parse ``argv`` and run the command; errors become one ``fcm CMD: error: ...`` line (exit 2).
    ``received``: the stop signals the launcher's early handler saw (``fcm_apps.launch``)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        print("\nfcm: interrupted", file=sys.stderr)
        return 130
    args.argv_echo = list(sys.argv[2:] if argv is None else argv[1:])  # what was asked, for tables that say it
    try:
        return int(args.func(args))
    except KeyboardInterrupt as exc:  # SIGTERM too, where a command turned it into one (``Interrupted``)
        print(f"\nfcm {args.command}: interrupted", file=sys.stderr)
        return getattr(exc, "exit_code", 130)
    except BrokenPipeError:  # the reader went away (``fcm replay x --list | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:
        signum = _stop_signal_received(received)
        if signum is not None:  # an import cut short by the signal fails as another error: it is the interrupt
            print(f"\nfcm {args.command}: interrupted by {signal.Signals(signum).name}", file=sys.stderr)
            return 128 + signum
        if isinstance(exc, (ValueError, OSError)):
            print(f"fcm {args.command}: error: {exc}", file=sys.stderr)
            return 2
        raise


def _stop_signal_received(received: Sequence[int]) -> int | None:
    """The last SIGINT / SIGTERM this command received, if any (the launcher's handler and the long commands')."""
    from fcm_training.common.interrupts import received_signals

    seen = [*received, *received_signals()]
    return seen[-1] if seen else None
