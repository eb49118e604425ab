"""Whether every lesson step can be used on a small screen: the walk shared by a test and a script.

For one browser page already on the tutorial, :func:`walk` opens every lesson and goes through
every screen of it (each step of each hand, and the end of each hand). On each screen it looks
at the thing the learner must press next (the card or call the lesson asks for, Continuar,
Próxima mão or Próxima lição) and at the explanation:

- **stuck**: that thing cannot be tapped whole. A person may scroll the page and any box that
  scrolls (``overflow: auto``/``scroll``), so the walk scrolls them to bring it to the middle
  of what is in sight, as a finger would; then it is stuck when a box that does not scroll
  (``overflow: hidden``) or the screen's edge cuts any of it off, when it is smaller than a
  fingertip (24 px, WCAG 2.5.8's minimum), or when something else (the site's header, a
  floating pill) covers its middle;
- **squeezed**: the explanation's area shows less than two lines of its text.

The walk presses each thing with a script click (the same handler a tap reaches), never
through the browser's own scrolling into view, which would scroll boxes a person cannot.
``tests/site/test_lesson_fit_browser.py`` fails on any stuck or squeezed screen;
``tests/measure_lessons.py`` prints the counts for ``docs-dev/site-log.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PHONE = {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
VIEWPORTS: dict[str, dict[str, Any]] = {
    "390x844": {"viewport": {"width": 390, "height": 844}, **PHONE},
    "390x664": {"viewport": {"width": 390, "height": 664}, **PHONE},
    "360x640": {"viewport": {"width": 360, "height": 640}, **PHONE},
    # the 390×844 screen at 200% zoom: half the CSS pixels each way, each drawn twice as large.
    # Not "mobile": a mobile browser widens its layout to the page's widest line, and a page
    # too wide for 195 px must show up as one that scrolls sideways, as it does when zoomed
    "zoom200": {
        "viewport": {"width": 195, "height": 422},
        "device_scale_factor": 4,
        "is_mobile": False,
        "has_touch": True,
    },
}
"""The screens the lessons are checked on (CSS pixels), as Playwright's context arguments."""

FINGER = 24
"""The least width and height of a target a finger can hit (WCAG 2.5.8's minimum, in px)."""

LOOK = """([sel, finger]) => {
  const box = document.querySelector('[data-tutorial] .tut');
  const el = box && box.querySelector(sel);
  const header = document.querySelector('.md-header');
  const top = header ? header.getBoundingClientRect().bottom : 0;
  const out = {stuck: '', squeezed: '', wide: document.documentElement.scrollWidth > innerWidth,
               taller: !!box && box.getBoundingClientRect().height > innerHeight - top + 1};
  const text = box && box.querySelector('.tut__texto');
  if (text) {
    const s = getComputedStyle(text);
    const line = parseFloat(s.lineHeight) || 1.2 * parseFloat(s.fontSize);
    const inner = text.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
    if (inner < 2 * line - 1) out.squeezed = 'text area ' + Math.round(inner) + 'px < 2 lines of ' + line + 'px';
  }
  if (!el) { out.stuck = sel + ' missing'; return out; }
  const clips = [];
  for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    clips.push([a, /auto|scroll/.test(s.overflowY), /auto|scroll/.test(s.overflowX)]);
  }
  // a person scrolls the boxes that scroll, innermost first, then the page
  for (const [a, sy, sx] of clips) {
    const r = el.getBoundingClientRect(), ar = a.getBoundingClientRect();
    if (sy) a.scrollTop += (r.top + r.bottom) / 2 - (ar.top + ar.bottom) / 2;
    if (sx) a.scrollLeft += (r.left + r.right) / 2 - (ar.left + ar.right) / 2;
  }
  let r = el.getBoundingClientRect();
  window.scrollBy(0, (r.top + r.bottom) / 2 - (top + innerHeight) / 2);
  r = el.getBoundingClientRect();
  let x0 = Math.max(r.left, 0), x1 = Math.min(r.right, innerWidth);
  let y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, innerHeight);
  for (const [a] of clips) {
    const ar = a.getBoundingClientRect();
    x0 = Math.max(x0, ar.left); x1 = Math.min(x1, ar.right);
    y0 = Math.max(y0, ar.top); y1 = Math.min(y1, ar.bottom);
  }
  if (x1 - x0 < r.width - 1 || y1 - y0 < r.height - 1) {
    out.stuck = sel + ' cut to ' + Math.round(Math.max(0, x1 - x0)) + 'x' + Math.round(Math.max(0, y1 - y0)) +
      ' of ' + Math.round(r.width) + 'x' + Math.round(r.height);
    return out;
  }
  if (r.width < finger || r.height < finger) {
    out.stuck = sel + ' only ' + Math.round(r.width) + 'x' + Math.round(r.height);
    return out;
  }
  const hit = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
  if (!hit || !(hit === el || el.contains(hit))) {
    out.stuck = sel + ' covered by ' + (hit ? hit.tagName.toLowerCase() + '.' + [...hit.classList].join('.') : 'nothing');
  }
  return out;
}"""


@dataclass
class Fit:
    """What one screen size gave, over every screen of every lesson."""

    screens: int = 0
    stuck: list[str] = field(default_factory=list)
    squeezed: list[str] = field(default_factory=list)
    wide: list[str] = field(default_factory=list)
    """Screens where the page scrolled sideways."""
    taller: list[str] = field(default_factory=list)
    """Screens where the lesson is taller than the screen (the page scrolls: allowed)."""

    def summary(self) -> dict[str, int]:
        """The counts, as the site log writes them."""
        return {
            "screens": self.screens,
            "stuck": len(self.stuck),
            "squeezed": len(self.squeezed),
            "wide": len(self.wide),
            "taller": len(self.taller),
        }


def target(lesson: dict[str, Any], h: int, f: int, cover_on: bool = False) -> str:
    """The selector of what the learner presses next at step ``f`` of hand ``h``."""
    steps = lesson["hands"][h]["steps"]
    if f < len(steps) and steps[f]["prompt"]:
        action = steps[f]["action"]
        if action.startswith("cover ") and not cover_on:
            return '[data-acao="cobrir"]'
        return f'[data-acao="{action}"]'
    if f < len(steps) or h < len(lesson["hands"]) - 1:
        return "[data-tutorial-seguir]"
    return "[data-tutorial-escolher], [data-tutorial-menu-abrir]"


def _look(page: Any, fit: Fit, where: str, selector: str, again: bool = False) -> None:
    seen = page.evaluate(LOOK, [selector, FINGER])
    if seen["stuck"]:
        fit.stuck.append(f"{where} {seen['stuck']}")
    if again:  # the same screen with the cards turned to cover: only the target moved
        return
    if seen["squeezed"]:
        fit.squeezed.append(f"{where} {seen['squeezed']}")
    if seen["wide"]:
        fit.wide.append(where)
    if seen["taller"]:
        fit.taller.append(where)


def _press(page: Any, selector: str) -> None:
    page.eval_on_selector(f"[data-tutorial] .tut {selector}", "e => e.click()")


def walk(page: Any, course: dict[str, Any]) -> Fit:
    """Every screen of every lesson on ``page`` (the tutorial page, its menu showing)."""
    fit = Fit()
    for lesson in course["lessons"]:
        page.eval_on_selector(
            f'[data-tutorial] [data-tutorial-escolher="{lesson["id"]}"]', "e => e.click()"
        )
        page.wait_for_function(
            "(id) => document.querySelector('[data-tutorial]')"
            ".getAttribute('data-tutorial-passo') === '0.0' && document.querySelector("
            "'[data-tutorial]').getAttribute('data-tutorial-licao') === id",
            arg=lesson["id"],
        )
        for h, hand in enumerate(lesson["hands"]):
            for f in range(len(hand["steps"]) + 1):
                where = f"{lesson['id']} {h}.{f}"
                fit.screens += 1
                selector = target(lesson, h, f)
                _look(page, fit, where, selector)
                if f == len(hand["steps"]):
                    if h < len(lesson["hands"]) - 1:
                        _press(page, selector)
                    continue
                if selector == '[data-acao="cobrir"]':
                    _press(page, selector)
                    selector = target(lesson, h, f, cover_on=True)
                    _look(page, fit, where + " (coberta)", selector, again=True)
                _press(page, selector)
                assert page.get_attribute("[data-tutorial]", "data-tutorial-passo") == (
                    f"{h}.{f + 1}"
                ), where
        _press(page, "[data-tutorial-menu-abrir]")
    return fit
