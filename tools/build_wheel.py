"""Build the package's wheel and sdist as a release would, and give the wheel the platform tag it can honestly
carry.

The wheel holds compiled C++ (``fcm_env.native._core``, ``fcm_agents.native._agents``), so it is a platform
wheel for one CPython version: ``pip wheel .`` on Linux makes ``fcm_magnate-0.1.0-cp311-cp311-linux_x86_64.whl``,
a tag no index accepts and no other machine can trust. ``auditwheel repair`` reads which versions of glibc
and libstdc++ the modules need and retags the wheel ``manylinux_2_X`` for the oldest glibc that has them
(g++ 12 on Debian 12 gives ``manylinux_2_35_x86_64``: Linux with glibc 2.35 or newer, e.g. Ubuntu 22.04,
Debian 12). Wheels for older glibc, aarch64, macOS and CPython 3.12-3.13 are built in manylinux containers
and on macOS runners by cibuildwheel (``[tool.cibuildwheel]`` in pyproject.toml), which runs
``.ci/smoke.py`` against each.

    pip install -e ".[release]"        # build, auditwheel, cibuildwheel
    python tools/build_wheel.py        # dist/fcm_magnate-0.1.0-cp311-cp311-manylinux_2_35_x86_64.whl + sdist
    python tools/build_wheel.py --no-sdist --out wheelhouse
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(command: list[str]) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the wheel and sdist go (dist/)")
    parser.add_argument("--no-sdist", action="store_true", help="the wheel only")
    args = parser.parse_args(argv)
    if shutil.which("auditwheel") is None and platform.system() == "Linux":
        print("tools/build_wheel.py: auditwheel is not installed (pip install -e \".[release]\")", file=sys.stderr)
        return 2
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="fcm-wheel-") as raw:
        _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", str(ROOT), "-w", raw])
        (wheel,) = Path(raw).glob("fcm_magnate-*.whl")
        if platform.system() == "Linux":
            # without --plat, auditwheel gives the most compatible manylinux tag the modules satisfy
            _run(["auditwheel", "repair", "--wheel-dir", str(out), str(wheel)])
            made = max(out.glob("fcm_magnate-*manylinux*.whl"), key=lambda p: p.stat().st_mtime)
        else:  # macOS and Windows wheels carry their own platform tag (cibuildwheel runs delocate on macOS)
            made = Path(shutil.copy2(wheel, out))
    print(f"wheel: {made}")
    if not args.no_sdist:
        _run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)])
        print(f"sdist: {max(out.glob('fcm_magnate-*.tar.gz'), key=lambda p: p.stat().st_mtime)}")
    print(f"done in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
