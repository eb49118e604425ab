"""The bot's Prometheus metrics (``GET /metrics``), one registry per running bot."""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

# When the update being handled reached this process (webhook POST or getUpdates);
# the answer to a button is timed from it.
received_at: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "received_at", default=None
)
_FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_LATE = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


class Metrics:
    """Counters and histograms of one bot process, exported as Prometheus text."""

    def __init__(self) -> None:
        """Fresh instruments in a registry of their own (tests run several bots at once)."""
        self.registry = CollectorRegistry()
        r = self.registry
        self.updates = Counter("truco_updates", "Updates received, by kind", ["kind"], registry=r)
        self.rejected = Counter(
            "truco_webhook_rejected", "Webhook requests refused (wrong secret)", registry=r
        )
        self.actions = Counter(
            "truco_actions", "Moves applied, by who made them", ["source"], registry=r
        )
        self.answer_seconds = Histogram(
            "truco_answer_seconds",
            "From an update reaching the bot to its button being answered",
            buckets=_FAST,
            registry=r,
        )
        self.jobs_due = Counter(
            "truco_jobs_due", "Jobs (deadlines, robot turns) run, by kind", ["kind"], registry=r
        )
        self.job_lateness = Histogram(
            "truco_job_lateness_seconds",
            "How late a job ran after its due time",
            ["kind"],
            buckets=_LATE,
            registry=r,
        )
        self.jobs_put_off = Counter(
            "truco_jobs_put_off",
            "Jobs that ran and asked to run again later (a table waiting for its group's minute"
            " or the Mini App's gap), by kind",
            ["kind"],
            registry=r,
        )
        self.job_turns = Counter(
            "truco_job_turns",
            "Transactions of the job loop (finish, give back, claim), by whether they had"
            " anything to do",
            ["found"],
            registry=r,
        )
        self.jobs_retried = Counter(
            "truco_jobs_retried", "Jobs put back after a database error", ["kind"], registry=r
        )
        self.throttled = Counter(
            "truco_throttled", "Bot API calls answered 429 (flood control)", registry=r
        )
        self.robot_seconds = Histogram(
            "truco_robot_decision_seconds",
            "Time a robot took to choose, by level",
            ["level"],
            buckets=_FAST,
            registry=r,
        )
        self.outbox_pending = Gauge(
            "truco_outbox_pending", "Messages recorded and not yet sent", registry=r
        )

    def count_database(
        self, transactions: Callable[[], int], statements: Callable[[], int]
    ) -> None:
        """Export the database's round trips (transactions begun, statements sent) so far."""
        self.registry.register(_Counted(transactions, statements))

    def answered(self) -> None:
        """A button was answered: time it from the update's arrival."""
        start = received_at.get()
        if start is not None:
            self.answer_seconds.observe(time.monotonic() - start)

    def text(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)


class _Counted(Collector):
    """Counters kept elsewhere (the database's), read when ``/metrics`` is asked."""

    def __init__(self, transactions: Callable[[], int], statements: Callable[[], int]) -> None:
        self._transactions, self._statements = transactions, statements

    def collect(self) -> Iterator[Any]:
        yield CounterMetricFamily(
            "truco_db_transactions", "Database transactions begun", value=self._transactions()
        )
        yield CounterMetricFamily(
            "truco_db_statements", "SQL statements sent to the database", value=self._statements()
        )
