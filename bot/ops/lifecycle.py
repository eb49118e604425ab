"""How the bot's process and its helper processes stop.

A SIGTERM (systemd, Ctrl-C) stops the Application: the jobs running then finish
(a redraw, a robot move) instead of being cancelled mid-way, and no job starts
after it; whatever was still due is in the database and is rescheduled at the next
start. A ``kill -9`` leaves no orphans: the robots' worker processes watch their
parent and exit when it is gone, which in turn lets multiprocessing's resource
tracker exit.
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
from typing import Any

from telegram.ext import JobQueue

DRAIN_SECONDS = 10.0
"""How long a stop waits for running jobs (a redraw may wait out a 429)."""
WATCH_SECONDS = 1.0
_PR_SET_PDEATHSIG = 1


class DrainingJobQueue(JobQueue[Any]):
    """PTB's JobQueue, except that stopping lets running jobs finish.

    PTB waits for the jobs running when ``stop`` begins, but a job they schedule
    meanwhile starts and is then cancelled by APScheduler's shutdown (a
    ``CancelledError`` traceback in the log, a redraw cut in half).
    """

    async def stop(self, wait: bool = True) -> None:
        """Start no new job, wait for the running ones, then shut the scheduler down."""
        if wait and self.scheduler.running:
            self.scheduler.pause()
            deadline = time.monotonic() + DRAIN_SECONDS
            while True:
                # the same executor futures PTB's own stop waits for
                running = [f for f in self._executor._pending_futures if not f.done()]
                left = deadline - time.monotonic()
                if not running or left <= 0:
                    break
                await asyncio.wait(running, timeout=left)
        await super().stop(wait)


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
