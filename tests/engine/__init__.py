"""Tests of the rules core and the tools around it (``engine/``)."""
