"""``fcm simulate``, ``fcm evaluate`` and ``fcm leaderboard``: batches of bot games that can be stopped and resumed.

Each game is kept as it ends; SIGINT or SIGTERM ends a batch at once with one line that says what was kept
and the command that finishes the run. The games are played by ``fcm_training.common`` (tournaments and the
leaderboard), imported inside the commands so that ``fcm map`` stays light.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path


def _specs(text: str) -> list[str]:
    from fcm_agents.registry import split_specs

    specs = split_specs(text)
    if not specs:
        raise ValueError(f"no agents in {text!r}: give comma-separated specs like heuristic,random")
    return specs


@contextlib.contextmanager
def _progress(total: int, desc: str, enabled: bool = True, initial: int = 0) -> Iterator[Callable[[], None]]:
    """A tick function: a rich progress bar on stderr when it is a terminal, else plain lines (``games: 40/400``
    at each tenth and at the end, each a line of its own: a log file or CI keeps them readable, where a ``\r``
    counter ran together); ``initial`` games are already done (a resumed run). rich draws every bar of the
    project (training's too: ``fcm_training.sb3.progress``)."""
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
    every = max(1, total // 10)

    def tick() -> None:
        done[0] += 1
        if done[0] % every == 0 or done[0] == total:
            print(f"{desc}: {done[0]}/{total}", file=sys.stderr, flush=True)

    yield tick


def run_batch(lineup: Sequence[str], *, games: int, seed: int, variant: str, max_rounds: int, workers: int,
              out_dir: Path | None, records: bool, progress: bool = True, backend: str = "process",
              address: str | None = None, resume: bool = False, command: str = "simulate",
              argv: Sequence[str] = (), engine: str = "python") -> int:
    """Play a batch of bot games (``fcm_training.common.tournament_run``), print the table, write results to ``out_dir``.

    Each game is kept in ``out_dir`` as it ends (``TournamentRun``) and ``resume`` plays only the missing
    ones, so a long run can be stopped: SIGINT or SIGTERM ends it at once with one line that says what was
    kept and the command that resumes (``argv``: this command's arguments), exit code 130 or 143.
    """
    from fcm_agents.registry import make_agent
    from fcm_env.tables import plural, print_table
    from fcm_training.common.interrupts import Interrupted, stop_on_signals
    from fcm_training.common.tournament_games import TournamentConfig
    from fcm_training.common.tournament_results import results_notes, results_table
    from fcm_training.common.tournament_run import TournamentRun
    from fcm_training.common.tournament_workers import WorkerLost

    for spec in sorted(set(lineup)):  # a bad spec fails here, before any worker starts; and the agents'
        make_agent(spec, seed=0)  # modules load under the command's early Ctrl-C handler (fcm_apps.cli)
    run = None
    with stop_on_signals():
        try:
            job_runner = None  # the shared tournament code's worker processes
            if backend == "ray":
                from fcm_training.rllib.evaluate import ray_job_runner

                job_runner = ray_job_runner(address, workers)
            elif backend != "process":
                raise ValueError(f"backend must be 'process' or 'ray', got {backend!r}")
            elif address is not None:
                raise ValueError("an address is for --backend ray (a Ray cluster to join)")
            from fcm_env.engines import resolve_engine

            config = TournamentConfig(tuple(lineup), games=games, seed=seed, variant=variant, max_rounds=max_rounds,
                                      workers=workers, engine=resolve_engine(engine))
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
    from fcm_training.common.interrupts import Interrupted

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
                     argv=args.argv_echo, engine=args.engine)


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
                     command="evaluate", argv=args.argv_echo, engine=args.engine)


def _cmd_leaderboard(args: argparse.Namespace) -> int:
    """Play the leaderboard's tables (only the missing games), then write its table (docs/leaderboard.md)."""
    import json

    from fcm_training.common.interrupts import Interrupted, stop_on_signals
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
    from fcm_training.common.tournament_workers import WorkerLost

    agents = tuple(_specs(args.agents)) if args.agents else DEFAULT_AGENTS
    agents += tuple(a for a in _specs(args.add) if a not in agents) if args.add else ()
    sizes = tuple(int(n) for n in args.players.split(",") if n.strip())
    config = LeaderboardConfig(agents=agents, sizes=sizes, games=args.games, seed=args.seed,
                               max_rounds=args.max_rounds, workers=args.workers, multi_games=args.games_multi,
                               engine=args.engine)
    total = sum(config.games_at(n) for n, _, _ in config.tables())
    clock = None
    for spec in agents:  # before the long run's handler: the agents' modules load under the early one
        make_agent_check(spec)
    with stop_on_signals():  # SIGINT/SIGTERM: the workers stop at once, the finished games stay
        try:
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

