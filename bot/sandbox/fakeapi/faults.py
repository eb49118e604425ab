"""Injected faults: the next calls of a method fail with a chosen error."""

from __future__ import annotations

from dataclasses import dataclass

from bot.sandbox.fakeapi.errors import ApiError


@dataclass
class _Fault:
    method: str
    chat_id: int | None
    error: ApiError
    times: int


class Faults:
    """Errors waiting to be returned instead of the next matching calls."""

    def __init__(self) -> None:
        """No faults yet."""
        self._pending: list[_Fault] = []

    def add(
        self,
        method: str,
        error_code: int = 429,
        description: str = "Too Many Requests: retry after 1",
        retry_after: int | None = 1,
        *,
        chat_id: int | None = None,
        times: int = 1,
    ) -> None:
        """Make the next ``times`` calls of ``method`` (to ``chat_id`` if given) fail."""
        if error_code != 429:
            retry_after = None
        error = ApiError(error_code, description, retry_after)
        self._pending.append(_Fault(method.lower(), chat_id, error, times))

    def check(self, method: str, chat_id: int | str | None) -> None:
        """Raise the first pending fault matching this call (and count it down)."""
        for fault in self._pending:
            if fault.method == method and fault.chat_id in (None, chat_id):
                fault.times -= 1
                if fault.times <= 0:
                    self._pending.remove(fault)
                raise fault.error
