"""The ``fcm`` command's first lines: the Ctrl-C handler goes in before anything else is imported.

Why a module of its own: the console script imports the module it names before calling it, so that module
must be tiny. Until the handler is set (the interpreter's own start, the first tens of milliseconds), no
program can answer a Ctrl-C; from then on it ends the command with one line and exit code 130: at once,
while code is still being loaded (an interrupt raised inside the import machinery would surface as an
``ImportError`` of some module, or as an "Exception ignored" report), else as the ``KeyboardInterrupt``
that the commands handle (``fcm play`` saves its record, the long commands keep what finished).
"""

import os
import signal
import sys

#: the stop signals this handler received (``fcm_apps.cli.parser`` reports an error that follows one as it)
RECEIVED: list = []


def _inside_import(frame) -> bool:
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _early_interrupt(signum, frame) -> None:
    RECEIVED.append(signum)
    if _inside_import(frame):  # code is still being loaded: nothing has been done that needs keeping
        sys.stderr.write("\nfcm: interrupted\n")
        sys.stderr.flush()
        os._exit(128 + signum)
    raise KeyboardInterrupt


def main(argv=None) -> int:
    """The ``fcm`` command (console script and ``python -m fcm_apps``)."""
    try:
        signal.signal(signal.SIGINT, _early_interrupt)
    except ValueError:  # not the main thread (a test calling main from a thread): signals are not ours
        pass
    try:
        from fcm_apps.cli.parser import run  # the parser and every command's imports start here
    except KeyboardInterrupt:
        print("\nfcm: interrupted", file=sys.stderr)
        return 130
    return run(argv, RECEIVED)
