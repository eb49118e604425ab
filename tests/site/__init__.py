"""Tests of the rulebook site and the "Jogar agora" page (``site/``)."""
