"""``fcm replay``: a game record at any step as text, a PNG picture, the action list or the events in words."""

from __future__ import annotations

import argparse
from pathlib import Path

from .options import PNG_SCALES


def _print_events(record, args: argparse.Namespace) -> int:
    """The record's game as an account of events, one line each, round by round."""
    from fcm_env.engine.events import visible
    from fcm_env.engine.persistence.records import replay
    from fcm_env.tables import plural
    from fcm_env.text.sentences import sentences
    from fcm_env.text.words import round_title

    if args.player is not None and not 0 <= args.player < record.num_players:
        raise ValueError(f"--player must be 0..{record.num_players - 1}, got {args.player}")
    game = replay(record, upto=0)
    game.record_events()
    for action in record.actions:
        game.apply(action)
    if args.round is not None and not 0 <= args.round <= game.state.round:
        raise ValueError(f"--round must be 0..{game.state.round} (0: the setup, then the rounds of this game), "
                         f"got {args.round}")
    shown, last = 0, None
    for event, text in zip(game.events, sentences(game.events, game.state), strict=True):  # third person
        if args.round is not None and event["round"] != args.round:
            continue
        if args.player is not None and not visible(event, args.player):
            continue
        if (event["round"], event["phase"]) != last:
            last = (event["round"], event["phase"])
            print(round_title(event["round"], event["phase"]))
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


def _print_list(record) -> int:
    """Every action of the record with its step index, where it was made, who made it and the words of the
    move (the event sentence's words: ``fcm_env.text.words``)."""
    from fcm_env.engine.persistence.records import replay
    from fcm_env.tables import plural
    from fcm_env.text.words import decision_name, move_now_text, round_title

    game = replay(record, upto=0)
    for step, action in enumerate(record.actions):
        pending = game.pending
        who = f"player {pending.player}" if pending else "-"
        where = round_title(game.state.round, game.phase)
        decision = decision_name(pending.decision) if pending else "-"
        print(f"{step:>6}  {where:<38} {who:<9} {decision:<18} {move_now_text(action, game.state)}")
        game.apply(action)
    print(plural(len(record.actions), "action"))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from fcm_env.engine.persistence.records import replay
    from fcm_env.text.state import state_ascii
    from fcm_env.text.words import decision_name, phase_title

    _check_replay_options(args)
    record = _load_record(args.file)
    total = len(record.actions)
    if args.events:
        return _print_events(record, args)
    if args.list:
        return _print_list(record)
    if args.step is not None and not 0 <= args.step <= total:
        raise ValueError(f"--step must be 0..{total} (the record has {total} actions), got {args.step}")
    game = replay(record, upto=args.step)
    step = total if args.step is None else args.step
    if not args.final:
        print(state_ascii(game.state))
    pending = game.pending
    if pending is not None:
        print(f"step {step}/{total}: round {game.state.round}, {phase_title(game.phase)}; "
              f"player {pending.player} to decide: {decision_name(pending.decision)}")
    else:
        print(f"step {step}/{total}: game over after round {game.state.round}"
              f"{' (max rounds reached)' if game.state.truncated else ''}; "
              f"{'winner' if len(game.winners) == 1 else 'winners'}: "
              f"{', '.join(f'player {w}' for w in game.winners)}")
    if args.final or game.is_over:
        agents = [f" ({name})" for name in record.agents] if record.agents else [""] * record.num_players
        cash = [int(p.cash) for p in game.state.players]
        for p in sorted(range(record.num_players), key=lambda p: -cash[p]):
            print(f"  player {p}{agents[p]}: ${cash[p]}{'  winner' if p in game.winners else ''}")
    if args.png:
        from fcm_env.picture import DEFAULT_SCALE, board_png  # Pillow is loaded only for a picture

        data = board_png(game.state, scale=args.scale or DEFAULT_SCALE)
        Path(args.png).write_bytes(data)
        print(f"picture written to {args.png} ({len(data)} bytes)")
    return 0

