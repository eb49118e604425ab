"""The project's tests, laid out like the code: ``engine/``, ``bot/``, ``site/``."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root."""
