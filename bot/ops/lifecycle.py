"""How the bot's process and its helper processes stop.

A SIGTERM (systemd, Ctrl-C) stops the bot in order (``bot.process.Runner``):
the job runner claims nothing new and the jobs running finish (a redraw, a robot
move) instead of being cancelled mid-way; whatever was still due stays in the
database and runs after the next start. A ``kill -9`` leaves no orphans: the robots'
worker processes watch their parent and exit when it is gone, which in turn lets
multiprocessing's resource tracker exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

WATCH_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a worker process: exit as soon as the process that started it is gone.

    Linux delivers SIGKILL at once (``PR_SET_PDEATHSIG``); everywhere a daemon thread
    also checks the parent every second, which covers the race where the parent
    died before the signal was requested.
    """
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(WATCH_SECONDS)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@contextlib.contextmanager
def stop_signals() -> Iterator[asyncio.Event]:
    """Inside, SIGINT and SIGTERM set the event it gives (the caller then stops in order)
    instead of ending the process; the handlers are taken off on leaving. In a running loop."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        yield stop
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
