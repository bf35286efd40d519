"""The ``fcm`` command line: look at maps, run bot games, play a seat, replay records, serve front ends.

Subcommands (each has ``--help``):

* ``map``       a random map (or a given layout) as text;
* ``simulate``  a batch of bot games with a progress bar and a results table;
* ``evaluate``  a rating tournament (the same runner, defaults aimed at ratings, results saved);
* ``leaderboard`` the project's table of agents at every table size (``fcm_training.common.leaderboard``);
* ``play``      a human seat in the terminal against bots;
* ``replay``    a game record at any step: text, PNG picture, action list;
* ``bench``     engine and encoding speed figures (``fcm_env.bench``);
* ``serve``     the JSON-lines front-end server (``fcm_env.server``);
* ``web``       the browser table: play against bots, replay records (``fcm_env.web``);
* ``train``     self-play training from a config (``fcm_training.selfplay``).

``agents`` and ``training`` are imported inside the subcommands, so ``fcm map`` stays light.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

VARIANT_CHOICES = ("standard", "introductory")
PNG_SCALES = (16, 128)  # fcm replay --scale: below 16 the text is unreadable, above 128 a picture is tens of MB


def _seed(text: str) -> int:
    """An argparse type: seeds are non-negative (numpy's generators refuse others, in words that name no
    option)."""
    value = _int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def _at_least_one(text: str) -> int:
    """An argparse type for counts (games, workers, rounds): 0 or less would be accepted silently or fail
    later in words that name no option."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer of at least 1, got {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


# ------------------------------------------------------------------ map


def _cmd_map(args: argparse.Namespace) -> int:
    from fcm_env.engine import Board
    from fcm_env.text.map import render_ascii

    if args.tiles:
        board = Board.from_tiles(args.tiles)
    else:
        board = Board.random(args.players, np.random.default_rng(args.seed))
    print(f"{board.tile_rows}x{board.tile_cols} tiles: {' / '.join(' '.join(r) for r in board.layout_strings())}")
    print(render_ascii(board))
    return 0


# ------------------------------------------------------------------ simulate / evaluate


def _specs(text: str) -> list[str]:
    from fcm_agents.registry import split_specs

    specs = split_specs(text)
    if not specs:
        raise ValueError(f"no agents in {text!r}: give comma-separated specs like heuristic,random")
    return specs


@contextlib.contextmanager
def _progress(total: int, desc: str, enabled: bool = True, initial: int = 0) -> Iterator[Callable[[], None]]:
    """A tick function: a rich progress bar on stderr when it is a terminal, else a plain counter (one
    ``\r`` line, which logs and CI keep readable); ``initial`` games are already done (a resumed run).
    rich draws every bar of the project (training's too: ``fcm_training.sb3.progress``)."""
    if not enabled:
        yield lambda: None
        return
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
        with Progress(*columns, console=Console(stderr=True)) as bar:
            task = bar.add_task(desc, total=total, completed=initial)
            yield lambda: bar.advance(task)
        return
    done = [initial]

    def tick() -> None:
        done[0] += 1
        print(f"\r{desc}: {done[0]}/{total}", end="\n" if done[0] == total else "", file=sys.stderr, flush=True)

    try:
        yield tick
    finally:
        if done[0] != total:  # stopped early: the next line starts on a line of its own
            print(file=sys.stderr)


def run_batch(lineup: Sequence[str], *, games: int, seed: int, variant: str, max_rounds: int, workers: int,
              out_dir: Path | None, records: bool, progress: bool = True, backend: str = "process",
              address: str | None = None, resume: bool = False, command: str = "simulate",
              argv: Sequence[str] = ()) -> int:
    """Play a batch of bot games (``fcm_training.common.evaluate``), print the table, write results to ``out_dir``.

    Each game is kept in ``out_dir`` as it ends (``TournamentRun``) and ``resume`` plays only the missing
    ones, so a long run can be stopped: SIGINT or SIGTERM ends it at once with one line that says what was
    kept and the command that resumes (``argv``: this command's arguments), exit code 130 or 143.
    """
    from fcm_agents.registry import make_agent
    from fcm_env.tables import plural, print_table
    from fcm_training.common.evaluate import (
        Interrupted,
        TournamentConfig,
        TournamentRun,
        WorkerLost,
        results_notes,
        results_table,
        stop_on_signals,
    )

    run = None
    with stop_on_signals():
        try:
            for spec in sorted(set(lineup)):
                make_agent(spec, seed=0)  # a bad spec fails here, before any worker starts
            job_runner = None  # the shared tournament code's worker processes
            if backend == "ray":
                from fcm_training.rllib.evaluate import ray_job_runner

                job_runner = ray_job_runner(address, workers)
            elif backend != "process":
                raise ValueError(f"backend must be 'process' or 'ray', got {backend!r}")
            elif address is not None:
                raise ValueError("an address is for --backend ray (a Ray cluster to join)")
            config = TournamentConfig(tuple(lineup), games=games, seed=seed, variant=variant, max_rounds=max_rounds,
                                      workers=workers)
            run = TournamentRun(config, out_dir, records=records, resume=resume, overwrite=False)
            before, todo = run.kept, len(run.missing())
            start = time.perf_counter()
            with _progress(games, "games", progress, initial=games - todo) as tick:
                run.play(job_runner, tick)
            stats = run.save()
        except (Interrupted, WorkerLost) as stop:
            if run is not None:
                run.save()  # the summary of what is there
            print(_stopped_line(command, stop, run.kept if run else None, games, out_dir, records, argv),
                  file=sys.stderr)
            return stop.exit_code if isinstance(stop, Interrupted) else 1
        except Exception:
            if run is not None and out_dir is not None:
                with contextlib.suppress(Exception):
                    run.save()
            raise
    results = run.ordered()
    elapsed = time.perf_counter() - start
    seeds = f"seed {seed}" if games == 1 else f"seeds {seed}..{seed + games - 1}"
    print(f"{plural(games, 'game')} of {len(lineup)} players ({', '.join(lineup)}), {seeds}, "
          f"{variant}, max {plural(max_rounds, 'round')}; {elapsed:.1f} s")
    print_table(results_table(stats))
    for line in results_notes(stats, results):
        print(line)
    if out_dir is not None:
        written = "summary.json, games.csv, games.jsonl" + (", records/" if records else "")
        kept = f"; {plural(before, 'game')} kept from before, {todo} played now" if resume else ""
        print(f"results written to {out_dir} ({written}{kept})")
    return 0


def _stopped_line(command: str, stop: BaseException, kept: int | None, games: int, out_dir: Path | None,
                  records: bool, argv: Sequence[str]) -> str:
    """The one line an interrupted (or failed) batch ends with: what was kept and how to go on
    (``kept`` None: stopped before the run began)."""
    from fcm_env.tables import plural
    from fcm_training.common.evaluate import Interrupted

    why = f"interrupted by {stop.signal_name}" if isinstance(stop, Interrupted) else f"stopped: {stop}"
    if kept is None:
        return f"fcm {command}: {why} before the first game; nothing was written"
    if out_dir is None:
        return (f"fcm {command}: {why} after {kept} of {plural(games, 'game')}; none kept (no --out): "
                "give --out DIR to keep finished games")
    files = "games.jsonl" + (", records/" if records else "")
    return (f"fcm {command}: {why}; {kept} of {plural(games, 'game')} finished and kept in {out_dir} ({files}; "
            f"summary.json and games.csv of those); resume: {_resume_command(command, argv, out_dir)}")


def _resume_command(command: str, argv: Sequence[str], out_dir: Path) -> str:
    """This command again with ``--resume OUT`` in place of ``--out``/``--resume``: what finishes the run."""
    import shlex

    args, skip = [], False
    for token in argv:
        if skip:
            skip = False
        elif token in ("--out", "--resume"):
            skip = True
        elif not token.startswith(("--out=", "--resume=")):
            args.append(token)
    return shlex.join(["fcm", command, *args, "--resume", str(out_dir)])


def _out_dir(args: argparse.Namespace, default: Path | None) -> Path | None:
    """Where the batch keeps its games: ``--resume DIR`` (a run to finish), else ``--out``, else ``default``."""
    if args.resume is not None:
        if args.out is not None and args.out != args.resume:
            raise ValueError(f"--out {args.out} and --resume {args.resume} are different folders: "
                             "--resume DIR alone finishes the run kept in DIR")
        return args.resume
    return args.out if args.out is not None else default


def _cmd_simulate(args: argparse.Namespace) -> int:
    out = _out_dir(args, None)
    if args.records and out is None:
        raise ValueError("--records needs --out DIR (the records are written there)")
    return run_batch(_specs(args.agents), games=args.games, seed=args.seed, variant=args.variant,
                     max_rounds=args.max_rounds, workers=args.workers, out_dir=out, records=args.records,
                     progress=not args.no_progress, resume=args.resume is not None, command="simulate",
                     argv=args.argv_echo)


def _cmd_evaluate(args: argparse.Namespace) -> int:
    lineup = _specs(args.lineup)
    if args.players is not None:
        if not 2 <= args.players <= 5:
            raise ValueError(f"--players must be 2..5, got {args.players}")
        lineup = [lineup[i % len(lineup)] for i in range(args.players)]
    out = _out_dir(args, Path("runs") / f"eval-{time.strftime('%Y%m%d-%H%M%S')}")
    return run_batch(lineup, games=args.games, seed=args.seed, variant=args.variant, max_rounds=args.max_rounds,
                     workers=args.workers, out_dir=out, records=args.records, progress=not args.no_progress,
                     backend=args.backend, address=args.address, resume=args.resume is not None,
                     command="evaluate", argv=args.argv_echo)


# ------------------------------------------------------------------ leaderboard


def _cmd_leaderboard(args: argparse.Namespace) -> int:
    """Play the leaderboard's tables (only the missing games), then write its table (docs/leaderboard.md)."""
    import json

    from fcm_training.common.evaluate import Interrupted, WorkerLost, stop_on_signals
    from fcm_training.common.leaderboard import (
        DEFAULT_AGENTS,
        LeaderboardConfig,
        RunClock,
        kept_games,
        logged_runs,
        play,
        standings,
        to_json,
        to_markdown,
    )

    agents = tuple(_specs(args.agents)) if args.agents else DEFAULT_AGENTS
    agents += tuple(a for a in _specs(args.add) if a not in agents) if args.add else ()
    sizes = tuple(int(n) for n in args.players.split(",") if n.strip())
    config = LeaderboardConfig(agents=agents, sizes=sizes, games=args.games, seed=args.seed,
                               max_rounds=args.max_rounds, workers=args.workers)
    total = len(config.tables()) * config.games
    clock = None
    with stop_on_signals():  # SIGINT/SIGTERM: the workers stop at once, the finished games stay
        try:
            for spec in agents:
                make_agent_check(spec)
            runner = None
            if args.backend == "ray":
                from fcm_training.rllib.evaluate import ray_job_runner

                runner = ray_job_runner(args.address, args.workers)
            kept_before = kept_games(config, args.out)
            # the time of the games this run plays, kept even if the run is killed (RunClock)
            clock = RunClock(args.out, args.workers, args.backend, sizes)
            with _progress(total, "games", not args.no_progress, initial=kept_before) as tick:
                def done() -> None:
                    clock.game_done()
                    tick()

                by_size = play(config, args.out, runner=runner, progress=done)
        except (Interrupted, WorkerLost) as stop:
            if clock is not None:
                clock.close()
            kept = kept_games(config, args.out)
            why = f"interrupted by {stop.signal_name}" if isinstance(stop, Interrupted) else f"stopped: {stop}"
            print(f"fcm leaderboard: {why}; {kept} of {total} games finished and kept in "
                  f"{args.out}: run the same command to play the rest", file=sys.stderr)
            return stop.exit_code if isinstance(stop, Interrupted) else 1
    clock.close()
    table = standings(by_size)
    command = "fcm leaderboard " + " ".join(args.argv_echo)
    markdown = to_markdown(config, table, command, logged_runs(args.out))
    args.markdown.parent.mkdir(parents=True, exist_ok=True)
    args.markdown.write_text(markdown + "\n")
    json_path = args.json if args.json is not None else args.markdown.with_suffix(".json")
    json_path.write_text(json.dumps(to_json(config, table), indent=1) + "\n")
    print(markdown)
    print(f"written: {args.markdown}, {json_path}; games kept in {args.out}")
    return 0


def make_agent_check(spec: str) -> None:
    """Build ``spec`` once, so a bad spec fails before any game is played."""
    from fcm_agents.registry import make_agent

    make_agent(spec, seed=0)


# ------------------------------------------------------------------ play


def _cmd_play(args: argparse.Namespace) -> int:
    from fcm_env.terminal import PlayOptions, play

    options = PlayOptions(players=args.players, seat=args.seat, opponents=args.opponents, seed=args.seed,
                          variant=args.variant, max_rounds=args.max_rounds, save_record=args.save_record,
                          resume=args.resume)
    return play(options, sys.stdin, sys.stdout)


# ------------------------------------------------------------------ replay


def _print_events(record, args: argparse.Namespace) -> int:
    """The record's game as an account of events, one line each, round by round."""
    from fcm_env.engine.events import visible
    from fcm_env.engine.persistence.records import replay
    from fcm_env.tables import plural
    from fcm_env.text.sentences import sentences

    if args.player is not None and not 0 <= args.player < record.num_players:
        raise ValueError(f"--player must be 0..{record.num_players - 1}, got {args.player}")
    game = replay(record, upto=0)
    game.record_events()
    for action in record.actions:
        game.apply(action)
    if args.round is not None and not 1 <= args.round <= game.state.round:
        raise ValueError(f"--round must be 1..{game.state.round} (the rounds of this game), got {args.round}")
    shown, last = 0, None
    for event, text in zip(game.events, sentences(game.events, game.state), strict=True):  # third person
        if args.round is not None and event["round"] != args.round:
            continue
        if args.player is not None and not visible(event, args.player):
            continue
        if (event["round"], event["phase"]) != last:
            last = (event["round"], event["phase"])
            print(f"round {event['round']} {event['phase']}")
        print(f"  {text}")
        shown += 1
    view = "everything" if args.player is None else f"what player {args.player} sees"
    print(f"{plural(shown, 'event')} ({view})")
    return 0


def _check_replay_options(args: argparse.Namespace) -> None:
    """Refuse option mixes that would be ignored, before the record is read or anything is printed."""
    if args.scale is not None:
        low, high = PNG_SCALES
        if args.png is None:
            raise ValueError("--scale sizes the --png picture: add --png OUT.png (or leave out --scale)")
        if not low <= args.scale <= high:
            raise ValueError(f"--scale must be {low}..{high} pixels per map square, got {args.scale}")
    if args.png is not None and not Path(args.png).parent.is_dir():
        raise ValueError(f"--png {args.png}: the folder {Path(args.png).parent} does not exist")
    if args.final and args.step is not None:
        raise ValueError("--final replays the whole record; it does not go with --step")
    for name in ("round", "player"):
        if getattr(args, name) is not None and not args.events:
            raise ValueError(f"--{name} filters the --events account: add --events (or leave out --{name})")
    if args.events and args.list:
        raise ValueError("--events and --list are two different printouts: give one of them")
    mode = "--events" if args.events else "--list" if args.list else None
    if mode is not None:
        for name, given in (("--step", args.step is not None), ("--final", args.final), ("--png", args.png)):
            if given:
                raise ValueError(f"{mode} covers the whole record: it does not go with {name}")


def _load_record(path: Path):
    """The record at ``path``, or a ValueError naming the file and what is wrong with it (one line)."""
    from fcm_env.engine.persistence.records import GameRecord

    try:
        return GameRecord.load(path)
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a folder, not a game record") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a game record: not UTF-8 text (byte {exc.start}); "
                         "a record is a JSON file written by fcm play, simulate --records or evaluate") from None
    except ValueError as exc:  # RecordFormatError; invalid JSON already names the file
        text = str(exc)
        raise ValueError(text if text.startswith(str(path)) else f"{path}: {text}") from None


def _cmd_replay(args: argparse.Namespace) -> int:
    from fcm_env.engine.persistence.records import replay
    from fcm_env.tables import plural
    from fcm_env.text.state import state_ascii

    _check_replay_options(args)
    record = _load_record(args.file)
    total = len(record.actions)
    if args.events:
        return _print_events(record, args)
    if args.list:
        game = replay(record, upto=0)
        for step, action in enumerate(record.actions):
            pending = game.pending
            who = f"player {pending.player}" if pending else "-"
            print(f"{step:>6}  round {game.state.round:>2} {game.phase.name:<17} {who:<9} "
                  f"{pending.decision.name if pending else '-':<18} {action}")
            game.apply(action)
        print(plural(total, "action"))
        return 0
    if args.step is not None and not 0 <= args.step <= total:
        raise ValueError(f"--step must be 0..{total} (the record has {total} actions), got {args.step}")
    game = replay(record, upto=args.step)
    step = total if args.step is None else args.step
    if not args.final:
        print(state_ascii(game.state))
    pending = game.pending
    if pending is not None:
        print(f"step {step}/{total}: round {game.state.round}, {game.phase.name}; "
              f"player {pending.player} to decide {pending.decision.name}")
    else:
        print(f"step {step}/{total}: game over after round {game.state.round}"
              f"{' (max rounds reached)' if game.state.truncated else ''}; "
              f"{'winner' if len(game.winners) == 1 else 'winners'}: "
              f"{', '.join(f'player {w}' for w in game.winners)}")
    if args.final or game.is_over:
        names = record.agents or [f"player {p}" for p in range(record.num_players)]
        cash = [int(p.cash) for p in game.state.players]
        for p in sorted(range(record.num_players), key=lambda p: -cash[p]):
            print(f"  player {p} ({names[p]}): ${cash[p]}{'  winner' if p in game.winners else ''}")
    if args.png:
        from fcm_env.picture import DEFAULT_SCALE, board_png  # Pillow is loaded only for a picture

        data = board_png(game.state, scale=args.scale or DEFAULT_SCALE)
        Path(args.png).write_bytes(data)
        print(f"picture written to {args.png} ({len(data)} bytes)")
    return 0


# ------------------------------------------------------------------ bench / serve / train


def _cmd_bench(args: argparse.Namespace) -> int:
    from fcm_env.bench import BenchConfig, bench_table, bench_title, run
    from fcm_env.tables import print_table

    try:
        players = tuple(int(p) for p in args.players.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"--players: expected comma-separated player counts like 2,3,4,5, got {args.players!r}") from None
    config = BenchConfig(players=players, games=args.games, seed=args.seed, max_rounds=args.max_rounds,
                         variant=args.variant, positions=args.positions, reps=args.reps)
    rows = run(config, progress=lambda msg: print(msg, file=sys.stderr, flush=True))
    if args.json:
        print(json.dumps({"config": {**config.__dict__, "players": list(players)},
                          "rows": [r.to_json() for r in rows]}, indent=1))
    else:
        print(bench_title(config))
        print_table(bench_table(rows))
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    import io

    from fcm_agents.registry import make_agent
    from fcm_env.server import serve

    # lines end at "\n" only, and bytes that are not UTF-8 reach the server (which answers them) instead of
    # ending the process with UnicodeDecodeError
    infile = sys.stdin
    if hasattr(sys.stdin, "buffer"):
        infile = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape", newline="\n")
    return serve(infile, sys.stdout, agent_factory=make_agent)


def _cmd_web(args: argparse.Namespace) -> int:
    """The browser table (fcm_env.web): play a seat against bots, replay records (docs/web.md)."""
    try:
        import uvicorn

        from fcm_env.web.app import create_app, is_loopback
    except ImportError as exc:
        raise ValueError(f"fcm web needs the web extra: pip install 'fcm-magnate[web]' ({exc})") from None
    app = create_app(replay_path=args.replay, host=args.host, port=args.port, allow_origins=args.allow_origin)
    url = f"http://{args.host}:{args.port}/"
    print(f"fcm web: serving the table at {url} (Ctrl-C stops it)", file=sys.stderr, flush=True)
    if not is_loopback(args.host):
        print(f"fcm web: warning: --host {args.host} is not a loopback address: anyone who can reach this "
              "machine may play and read saved games (there is no login); browsers elsewhere also need "
              "--allow-origin http://NAME:PORT (docs/web.md, Security)", file=sys.stderr, flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def _override(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError:
        parsed = value  # a plain string
    return key.strip(), parsed


class _TrainHelp(argparse.Action):
    """``fcm train --help`` ends with every config setting and its default (read only when asked for,
    so other commands never import the trainer's config)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        try:
            from fcm_training.common.config import settings_help
        except ImportError:
            parser.epilog = "Settings and their defaults: docs/training.md."
        else:
            parser.epilog = settings_help()
        parser.print_help()
        parser.exit()


def _cmd_train(args: argparse.Namespace) -> int:
    import importlib

    try:
        from fcm_training.common.threads import passive_openmp
    except ImportError:  # pragma: no cover - the training package is part of this distribution
        pass
    else:
        passive_openmp()  # before torch loads OpenMP (fcm_training.common.threads says why)
    if args.backend is None:  # a config that says `backend: ray` picks RLlib by itself
        try:
            from fcm_training.rllib.config import declares_ray
        except ImportError:  # the training extras are missing: the SB3 path says so
            args.backend = "sb3"
        else:
            args.backend = "ray" if declares_ray(args.config) else "sb3"
    if args.backend == "ray":
        from fcm_training.rllib.selfplay import cli_main

        return cli_main(args.config, dict(args.set or []), overwrite=args.overwrite, resume=args.resume)

    try:
        selfplay = importlib.import_module("fcm_training.selfplay")
    except ModuleNotFoundError as exc:
        if exc.name in ("training", "fcm_training.selfplay"):
            print("fcm train: error: fcm_training.selfplay is not available in this installation "
                  "(the self-play trainer is not part of this checkout yet)", file=sys.stderr)
        else:
            print(f"fcm train: error: the trainer needs {exc.name!r}: install the training extras "
                  '(pip install -e ".[train]")', file=sys.stderr)
        return 2
    overrides = dict(args.set or [])
    for flag in ("resume", "overwrite"):
        if flag in overrides:
            raise ValueError(f"--set {flag}=...: {flag} is not a config setting, use the --{flag} flag")
        if getattr(args, flag):
            overrides[flag] = True
    try:
        result = selfplay.main(str(args.config), **overrides)
    except KeyboardInterrupt as stop:  # SIGINT/SIGTERM: one line, what was kept and the command that resumes
        if not hasattr(stop, "describe"):
            raise
        import shlex

        words = [w for w in args.argv_echo if w not in ("--resume", "--overwrite")]
        print(f"fcm train: {stop.describe(shlex.join(['fcm', 'train', *words, '--resume']))}", file=sys.stderr)
        return stop.exit_code
    except ValueError as exc:
        if not hasattr(exc, "lines"):  # not a config error: the caller prints it
            raise
        for line in exc.lines:  # a config error: one line per bad setting
            print(f"fcm train: error: {line}", file=sys.stderr)
        return 2
    if isinstance(result, int):
        return result
    if result is not None:
        print(f"run directory: {result}")
    return 0


# ------------------------------------------------------------------ parser


def _game_options(p: argparse.ArgumentParser, *, seed_help: str) -> None:
    p.add_argument("--seed", type=_seed, default=0, help=seed_help)
    p.add_argument("--variant", default="standard", choices=VARIANT_CHOICES, help="rules variant")
    p.add_argument("--max-rounds", type=_at_least_one, default=30,
                   help="end a game after this many rounds (truncated)")


def _batch_options(p: argparse.ArgumentParser) -> None:
    _game_options(p, seed_help="seed of the first game (game g uses seed + g)")
    p.add_argument("--workers", type=_at_least_one, default=1,
                   help="worker processes (results do not depend on it)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` shows each option's default, except where there is none to show (no value, a plain
    on/off flag) or the help text already names it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if action.default is None or action.default is False or "default" in text:
            return action.help
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    """The ``fcm`` parser and every subcommand's: help with defaults."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


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
    p.add_argument("--seed", type=_seed, default=0, help="seed of the map draw")
    p.add_argument("--tiles", default=None, help='explicit layout, e.g. "A0 B1 / C2 D3" (letter + quarter turns)')
    p.set_defaults(func=_cmd_map)

    p = sub.add_parser("simulate", help="play a batch of bot games and print the results table",
                       description="Play seeded bot games (the lineup rotates one seat per game) and print "
                                   "win rates, cash, ranks and ratings.")
    p.add_argument("--agents", default="heuristic,random,random,random",
                   help="comma-separated agent specs, one per player: random, heuristic, policy (the shipped "
                        "trained model), policy:PATH (.onnx or checkpoint), onnx:PATH, search, "
                        "search:KEY=VALUE,..., flat:KEY=VALUE,... (docs/search.md)")
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
                                   "saved by default (summary.json, games.csv, records/).")
    p.add_argument("--lineup", default="heuristic,random",
                   help="comma-separated agent specs: random, heuristic, policy (the shipped trained model), "
                        "policy:PATH (.onnx or checkpoint), onnx:PATH, search, search:KEY=VALUE,..., flat, flat:KEY=VALUE,... "
                        "(docs/search.md)")
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
                        "random, heuristic, policy (the shipped trained model), policy:PATH, onnx:PATH, search, "
                        "search:KEY=VALUE,..., flat:KEY=VALUE,... (docs/search.md)")
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
                                   "the observation encoder (fcm_env.bench).")
    p.add_argument("--players", default="2,3,4,5", help="comma-separated player counts")
    p.add_argument("--games", type=_at_least_one, default=2, help="random games per player count")
    p.add_argument("--positions", type=_at_least_one, default=300, help="positions timed per player count")
    p.add_argument("--reps", type=_at_least_one, default=3, help="passes over the positions per timing")
    _game_options(p, seed_help="seed of the first game")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=_cmd_bench)

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
                   help="comma-separated agent specs (default: random, heuristic, policy, "
                        "search:iterations=8, search:iterations=32)")
    p.add_argument("--add", default=None, help="more agent specs after the default ones (comma-separated)")
    p.add_argument("--players", default="2,3,4,5", help="table sizes, comma-separated")
    p.add_argument("--games", type=_at_least_one, default=40, help="games per table")
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv_echo = list(sys.argv[2:] if argv is None else argv[1:])  # what was asked, for tables that say it
    try:
        return int(args.func(args))
    except ValueError as exc:
        print(f"fcm {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``fcm replay x --list | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:
        print(f"fcm {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # SIGTERM too, where a command turned it into one (``Interrupted``)
        print(f"\nfcm {args.command}: interrupted", file=sys.stderr)
        return getattr(exc, "exit_code", 130)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
