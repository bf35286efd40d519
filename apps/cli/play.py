"""``fcm play``, ``fcm serve`` and ``fcm web``: the front ends where a person (or another program) takes a seat."""

from __future__ import annotations

import argparse
import sys


def _cmd_play(args: argparse.Namespace) -> int:
    from fcm_apps.terminal import PlayOptions, play

    options = PlayOptions(players=args.players, seat=args.seat, opponents=args.opponents, seed=args.seed,
                          variant=args.variant, max_rounds=args.max_rounds, save_record=args.save_record,
                          resume=args.resume)
    return play(options, sys.stdin, sys.stdout)


def _cmd_serve(args: argparse.Namespace) -> int:
    import io

    from fcm_agents.registry import make_agent
    from fcm_apps.server import serve

    # lines end at "\n" only, and bytes that are not UTF-8 reach the server (which answers them) instead of
    # ending the process with UnicodeDecodeError
    infile = sys.stdin
    if hasattr(sys.stdin, "buffer"):
        infile = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape", newline="\n")
    return serve(infile, sys.stdout, agent_factory=make_agent)


def _cmd_web(args: argparse.Namespace) -> int:
    """The browser table (fcm_apps.web): play a seat against bots, replay records (docs/web.md)."""
    try:
        import uvicorn

        from fcm_apps.web.app import create_app, is_loopback
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

        threading.Timer(1.0, open_page, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def open_page(url: str) -> bool:
    """``fcm web --open``: the page in the default browser, or one line saying to open it by hand (on a
    machine with no browser, e.g. over ssh, ``webbrowser.open`` finds none and returns False)."""
    import webbrowser

    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print(f"fcm web: no browser could be opened here: open {url} in a browser yourself", file=sys.stderr,
              flush=True)
    return opened
