"""Every lesson step usable on a small phone and at 200% zoom (``tests/site/lesson_fit.py``).

On each screen of each lesson the next thing to press can be tapped (the page or a box that
scrolls may have to be scrolled, nothing cuts or covers it), at least two lines of the
explanation show, and the page never scrolls sideways. At 390×844 the stricter one-screen
check of ``test_site_browser.py`` holds as well.
"""

from __future__ import annotations

import pytest

from engine.tutorial import build_trace
from tests.site.lesson_fit import VIEWPORTS, walk
from tests.site.test_site_browser import Watch

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.mark.long
# not 390×664 as well: 360×640 is smaller both ways in the same layout (every breakpoint of the
# site and of Material is at 320 px or less, or at 480 px or more), so what fits there fits on it
# (tests/measure_lessons.py still counts each screen on all four)
@pytest.mark.parametrize("size", ["360x640", "zoom200"])
def test_every_lesson_screen_can_be_used(browser, base_url, size) -> None:
    watch = Watch(base_url)
    context = browser.new_context(**VIEWPORTS[size])
    watch.attach(context)
    page = watch.page(context)
    page.goto(base_url + "/tutorial/")
    page.wait_for_selector("[data-tutorial][data-tutorial-pronto] [data-tutorial-menu]")
    course = build_trace()
    fit = walk(page, course)
    assert fit.screens == sum(len(h["steps"]) + 1 for x in course["lessons"] for h in x["hands"])
    assert fit.stuck == []
    assert fit.squeezed == []
    assert fit.wide == []
    if size != "zoom200":  # the table still fits a short phone with the text and buttons
        assert len(fit.taller) <= fit.screens // 5, fit.taller
    watch.check()
    context.close()
