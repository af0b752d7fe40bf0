"""Lessons (/learn), the glossary (/glossary), glossary words marked in
verdicts, lesson progress kept, and today's practice offering a lesson
before the drills that need it."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from html import unescape

import pytest
from markupsafe import Markup
from sqlmodel import Session, select

import drills
from coach.notation import tiles
from coach.rules import catalog as rules
from coach.rules import glossary
from coach.rules.mahjong import pay, winning_lines
from coach.store.models import LessonProgress
from coach.web.learn.lessons import mark
from drills import lessons
from drills.kit.base import AnswerError
from drills.kit.choice import CITED
from tests.support.cards import CARD, holding
from tests.support.pages import csrf_of, open_drill

ALL_CHECKS = [(lesson, check) for lesson in lessons.LESSONS for check in lesson.checks]
IDS = [f"{lesson.slug}/{check.id}" for lesson, check in ALL_CHECKS]


# -- the lessons as data -------------------------------------------------------------------


def test_lessons_come_in_teaching_order_and_prepare_every_drill():
    slugs = [lesson.slug for lesson in lessons.LESSONS]
    assert slugs[:2] == ["tiles", "reading-the-card"]
    assert slugs.index("charleston") < slugs.index("calls") < slugs.index("mahjong-and-paying")
    prepared = {name for lesson in lessons.LESSONS for name in lesson.prepares}
    assert prepared == set(drills.DRILLS)  # every drill has a lesson before it, and no lesson names a stranger


def test_every_picture_and_line_in_a_lesson_is_real():
    for lesson in lessons.LESSONS:
        assert lesson.panels and 3 <= len(lesson.checks) <= 6, lesson.slug
        for item in (*lesson.panels, *lesson.checks):
            assert all(code in tiles.TABLE_INDEX for code in item.tiles), item
            if item.line:
                CARD.line(item.line)  # KeyError for a line the card does not have
        for rule_id in lesson.rules:
            rules.rule(rule_id)


@pytest.mark.parametrize(("lesson", "check"), ALL_CHECKS, ids=IDS)
def test_a_check_is_right_for_its_answer_and_says_why_citing_its_rule_once(lesson, check):
    question, verdict = lessons.grade(lesson.slug, check.id, check.best)
    assert verdict.correct and verdict.score == 1.0
    assert set(question.choices) == {check.best, *check.wrong} and len(question.choices) == len(check.wrong) + 1
    cited = [rule_id for line in verdict.explanation for group in CITED.findall(line) for rule_id in group.split(", ")]
    assert cited and len(cited) == len(set(cited)), verdict.explanation  # each rule once
    assert all(rules.rule(r) for r in verdict.rules) and list(verdict.rules) == cited


@pytest.mark.parametrize(("lesson", "check"), ALL_CHECKS, ids=IDS)
def test_a_wrong_pick_says_why_not_without_giving_the_answer_away(lesson, check):
    for pick, why in check.wrong.items():
        _, verdict = lessons.grade(lesson.slug, check.id, pick.upper())  # case does not matter
        assert not verdict.correct and verdict.score == 0 and verdict.answer == pick
        text = " ".join(verdict.explanation)
        assert why in text and "Try again" in text
        assert f'"{check.best}"' not in text


def test_a_check_answer_that_is_no_choice_is_refused_in_plain_words():
    with pytest.raises(AnswerError, match="is not one of the choices"):
        lessons.grade("tiles", "green-dragon", "Winds")
    with pytest.raises(AnswerError):
        lessons.grade("tiles", "green-dragon", None)
    with pytest.raises(KeyError):
        lessons.grade("tiles", "no-such-check", "Bams")
    with pytest.raises(KeyError):
        lessons.grade("no-such-lesson", "green-dragon", "Bams")


# The checks whose answers the core rules can work out: the lesson must agree with them.


def test_the_tile_checks_agree_with_the_tiles():
    lesson = lessons.get("tiles")
    assert lesson.check("crak").best == tiles.name(lesson.check("crak").tiles[0])
    green = lesson.check("green-dragon")
    assert green.best == tiles.SUIT_PLURALS[tiles.SUIT_OF_DRAGON[green.tiles[0]]]
    assert lesson.check("count").best == str(tiles.SET_SIZE)
    assert lesson.check("soap").best == tiles.name(lesson.check("soap").tiles[0])


def test_the_dragon_check_agrees_with_the_card():
    check = lessons.get("reading-the-card").check("dragon")
    assert "DDDb" in CARD.line(check.line).pattern
    assert check.best == f"Three {tiles.name(tiles.DRAGON_OF_SUIT['B'])}s"


def _rack(text: str) -> str:
    """ "55 Dots, 5555 Bams, NEWS" -> "5D 5D 5B 5B 5B 5B N E W S"."""
    codes = []
    for part in text.split(", "):
        if " " not in part:
            codes += list(part)
            continue
        digits, suit = part.split(" ")
        codes += [d + suit[0] for d in digits]
    return " ".join(codes)


def test_the_like_numbers_check_agrees_with_the_card():
    check = lessons.get("reading-the-card").check("like")
    line = CARD.line(check.line)
    fits = {text: any(w.line.id == line.id for w in winning_lines(CARD, holding(_rack(text))))
            for text in (check.best, *check.wrong)}
    assert fits == {check.best: True, **{text: False for text in check.wrong}}


def test_the_payment_checks_agree_with_the_payments():
    line = next(line for line in CARD.lines if line.value == 25 and line.takes_jokers)
    lesson = lessons.get("mahjong-and-paying")
    discarder, _, _ = pay(line, "discard", jokerless=False)
    _, each, _ = pay(line, "self", jokerless=False)
    assert "25 line" in lesson.check("discard").prompt and lesson.check("discard").best == str(discarder)
    assert "25 line" in lesson.check("self-picked").prompt and lesson.check("self-picked").best == str(each)


def test_a_lesson_is_needed_before_the_drills_it_prepares_until_done():
    assert [lesson.slug for lesson in lessons.needed_before(["name-the-tile"], set())] == ["tiles"]
    assert lessons.needed_before(["name-the-tile"], {"tiles"}) == []
    needed = lessons.needed_before(["calls", "name-the-tile", "calls"], {"calls"})
    assert [lesson.slug for lesson in needed] == ["tiles"]
    assert [lesson.slug for lesson in lessons.needed_before(["jokers", "first-pass"], set())] == [
        "jokers", "reading-the-card", "charleston"]


# -- the glossary and its marks ------------------------------------------------------------


def test_the_glossary_has_the_words_a_beginner_asks_about():
    words = {term.word.casefold() for term in glossary.TERMS}
    for word in ("pung", "kong", "quint", "sextet", "exposure", "charleston", "courtesy pass", "dead hand",
                 "hot tile", "joker exchange", "concealed", "singles and pairs", "soap",
                 "dragon", "wind", "wall", "x", "like numbers"):
        assert word in words
    for term in glossary.TERMS:
        assert term.meaning.endswith(".") and (not term.rule or rules.rule(term.rule))


def test_words_are_found_whole_once_and_the_longest_first():
    text = "A joker exchange needs a Pung; pungs and a pungent kong, then another pung."
    found = [(text[f.start:f.end], f.term.slug) for f in glossary.find(text)]
    assert found == [("joker exchange", "joker-exchange"), ("Pung", "pung"), ("kong", "kong")]
    assert [f.term.slug for f in glossary.find("Singles & Pairs hands have no joker")] == ["singles-and-pairs", "joker"]
    assert glossary.find("pung", skip=frozenset({"pung"})) == []
    said = "Line LIKE-4, exposed (X): like numbers from the wall, a Red Dragon and a North Wind; then a wall game."
    assert [(said[f.start:f.end], f.term.slug) for f in glossary.find(said)] == [
        ("exposed", "exposure"), ("(X)", "x"), ("like numbers", "like-numbers"), ("the wall", "wall"),
        ("Dragon", "dragon"), ("Wind", "wind"), ("wall game", "wall-game"),
    ]


def test_marking_escapes_the_text_first_and_leaves_html_alone():
    marked = mark('<b onclick="x">pung</b> & "kong"')
    assert isinstance(marked, Markup)
    assert "<b" not in marked and "&lt;b onclick=&#34;x&#34;&gt;" in marked and "&amp;" in marked
    assert marked.count('class="gloss"') == 2 and 'data-gloss="pung"' in marked
    assert 'tabindex="0"' in marked and 'role="tooltip"' in marked
    assert glossary.BY_SLUG["pung"].meaning in unescape(str(marked))
    assert mark(Markup("<em>pung</em>")) == Markup("<em>pung</em>")
    assert mark(None) == "" and mark("nothing here") == "nothing here"


def test_the_filter_marks_a_drill_verdict_on_the_page(client):
    html, csrf, token = open_drill(client, "/drills/jokers?level=1&seed=1")
    response = client.post(
        "/drills/jokers/answer", data={"token": token, "show": "1", "csrf_token": csrf},
        headers={"HX-Request": "true", "X-CSRFToken": csrf},
    )
    assert response.status_code == 200
    verdict = response.get_data(as_text=True)
    why = verdict[verdict.index('id="verdict-card"'):]  # the reasons and "Why, in full"
    marks = re.findall(r'<span class="gloss" tabindex="0" data-gloss="([a-z-]+)"', why)
    assert "joker" in marks
    assert "<script" not in why


def test_the_glossary_page_lists_every_word_with_its_anchor(client):
    response = client.get("/glossary")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    for term in glossary.TERMS:
        assert f'id="{term.slug}"' in html and f"<dt>{term.word}</dt>" in html
    entry = html[html.index('id="pung"'):html.index("</div>", html.index('id="pung"'))]
    assert 'data-gloss="pung"' not in entry  # a meaning does not mark its own word


# -- the pages and the progress kept -------------------------------------------------------


def test_learn_lists_the_lessons_in_order(client):
    html = client.get("/learn").get_data(as_text=True)
    places = [html.index(f'href="/learn/{lesson.slug}"') for lesson in lessons.LESSONS]
    assert places == sorted(places)
    assert 'href="/learn"' in client.get("/").get_data(as_text=True)


def test_a_lesson_page_shows_its_pictures_and_checks(client):
    response = client.get("/learn/reading-the-card")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    lesson = lessons.get("reading-the-card")
    for panel in lesson.panels:
        for code in panel.tiles:
            assert f'src="/tiles/{code}.svg"' in html
    assert html.count('class="card lesson-check"') == len(lesson.checks)
    assert 'class="pattern__token suit-b"' in html  # card lines in their suit colours
    assert 'class="cx cx--c"' in html and 'class="cx cx--x"' in html
    assert 'class="gloss"' in html
    assert client.get("/learn/no-such-lesson").status_code == 404


def _answer(client, slug, check_id, answer, csrf, hx=True, came_from=None):
    data = {"answer": answer, "csrf_token": csrf}
    if came_from:
        data["from"] = came_from
    headers = {"HX-Request": "true", "X-CSRFToken": csrf} if hx else {}
    return client.post(f"/learn/{slug}/checks/{check_id}", data=data, headers=headers)


def _kept(app) -> list[LessonProgress]:
    with Session(app.extensions["store"]) as session:
        return list(session.exec(select(LessonProgress)).all())


def test_answering_every_check_right_finishes_the_lesson_and_keeps_it(app, client):
    lesson = lessons.get("charleston")
    csrf = csrf_of(client.get(f"/learn/{lesson.slug}").get_data(as_text=True))
    first, *rest = lesson.checks
    wrong = _answer(client, lesson.slug, first.id, next(iter(first.wrong)), csrf)
    assert wrong.status_code == 200 and 'data-verdict="wrong"' in wrong.get_data(as_text=True)
    assert _kept(app) == []  # a wrong answer keeps nothing (and makes no guest)
    for number, check in enumerate(lesson.checks, 1):
        body = _answer(client, lesson.slug, check.id, check.best, csrf).get_data(as_text=True)
        assert 'data-verdict="right"' in body and 'hx-swap-oob="true"' in body
        assert ("data-lesson-done" in body) == (number == len(lesson.checks))
    [row] = _kept(app)
    assert row.lesson == lesson.slug and row.finished_at is not None
    assert sorted(json.loads(row.passed)) == sorted(c.id for c in lesson.checks)
    listing = client.get("/learn").get_data(as_text=True)
    card = listing[listing.index(f'data-lesson="{lesson.slug}"'):]
    assert "✓ Done" in card[:card.index("</li>")]
    again = client.get(f"/learn/{lesson.slug}").get_data(as_text=True)
    assert "data-lesson-done" in again  # kept across page loads


def test_a_wrong_answer_after_a_right_one_takes_nothing_away(app, client):
    csrf = csrf_of(client.get("/learn/tiles").get_data(as_text=True))
    check = lessons.get("tiles").check("count")
    _answer(client, "tiles", check.id, check.best, csrf)
    _answer(client, "tiles", check.id, next(iter(check.wrong)), csrf)
    [row] = _kept(app)
    assert json.loads(row.passed) == [check.id] and row.finished_at is None


def test_a_check_answered_without_javascript_shows_the_whole_page(client):
    csrf = csrf_of(client.get("/learn/jokers").get_data(as_text=True))
    check = lessons.get("jokers").checks[0]
    response = _answer(client, "jokers", check.id, check.best, csrf, hx=False)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" in html and 'data-verdict="right"' in html
    assert html.count('class="card lesson-check"') == len(lessons.get("jokers").checks)


def test_bad_check_answers_get_a_clear_message_not_a_500(client):
    csrf = csrf_of(client.get("/learn/tiles").get_data(as_text=True))
    empty = _answer(client, "tiles", "green-dragon", "", csrf)
    assert empty.status_code == 422 and "not one of the choices" in unescape(empty.get_data(as_text=True))
    assert _answer(client, "tiles", "green-dragon", "Winds", csrf, hx=False).status_code == 400
    assert _answer(client, "tiles", "no-such-check", "Bams", csrf).status_code == 404
    assert _answer(client, "nothing", "green-dragon", "Bams", csrf).status_code == 404
    assert client.post("/learn/tiles/checks/green-dragon", data={"answer": "Bams"}).status_code == 400  # no CSRF


# -- today's practice brings the lesson in --------------------------------------------------


def test_todays_practice_offers_the_lesson_its_drills_need_first(client):
    html = client.get("/today").get_data(as_text=True)
    assert 'data-lesson-offer="tiles"' in html
    assert html.index("data-lesson-offer") < html.index('class="daily-question')
    assert 'href="/learn/tiles?from=today"' in html
    lesson = lessons.get("tiles")
    page = client.get("/learn/tiles?from=today").get_data(as_text=True)
    assert 'href="/today"' in page and 'name="from" value="today"' in page
    csrf = csrf_of(page)
    for check in lesson.checks:
        body = _answer(client, "tiles", check.id, check.best, csrf, came_from="today").get_data(as_text=True)
    assert "Back to today's practice" in unescape(body)
    after = client.get("/today").get_data(as_text=True)
    assert "data-lesson-offer" not in after and 'class="daily-question' in after  # the tiles lesson is done


# -- the store: kept through sign-in, exported, and no stale-guest purge while in use --------


@pytest.fixture
def engine(tmp_path):
    from coach.store.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'coach.sqlite3'}")
    migrate(engine)
    return engine


def _learner(engine, guest: bool = True, created=None) -> int:
    from coach.store.models import Learner

    with Session(engine) as session:
        row = Learner(guest=guest, email=None if guest else f"{id(object())}@example.org")
        if created is not None:
            row.created_at = created
        session.add(row)
        session.commit()
        return row.id


def test_a_lesson_is_finished_once_every_check_is_kept_and_stays_finished(engine):
    from coach.store import lessons as kept

    learner = _learner(engine)
    lesson = lessons.get("jokers")
    with Session(engine) as session:
        assert [kept.pass_check(session, learner, lesson.slug, c.id) for c in lesson.checks] == [False, False, True]
        assert kept.pass_check(session, learner, lesson.slug, lesson.checks[0].id)  # again: still finished
        assert kept.finished_lessons(session, learner) == {"jokers"}
        assert kept.passed_checks(session, learner) == {"jokers": frozenset(c.id for c in lesson.checks)}
        assert kept.lesson_before(session, learner, ["jokers", "payment"]).slug == "mahjong-and-paying"
        with pytest.raises(KeyError):
            kept.pass_check(session, learner, "jokers", "no-such-check")


def test_a_guest_signing_in_brings_their_lessons_along(engine):
    from coach.store import lessons as kept
    from coach.store.accounts import export_data, merge_guest
    from coach.store.models import Learner

    guest, account = _learner(engine), _learner(engine, guest=False)
    tiles_lesson, calls = lessons.get("tiles"), lessons.get("calls")
    with Session(engine) as session:
        for check in tiles_lesson.checks:
            kept.pass_check(session, guest, "tiles", check.id)
        kept.pass_check(session, guest, "calls", calls.checks[0].id)
        for check in calls.checks[1:]:
            kept.pass_check(session, account, "calls", check.id)
        merge_guest(session, guest, account)
        assert kept.finished_lessons(session, account) == {"tiles", "calls"}  # the two halves make a whole
        assert session.get(Learner, guest) is None and kept.passed_checks(session, guest) == {}
        exported = export_data(session, session.get(Learner, account), datetime.now(UTC))
    assert [(e["lesson"], e["finished_at"] is not None) for e in exported["lessons"]] == [("calls", True), ("tiles", True)]
    assert sorted(exported["lessons"][1]["checks_right"]) == sorted(c.id for c in tiles_lesson.checks)


def test_a_guest_working_through_lessons_is_not_purged_as_stale(engine):
    from datetime import timedelta

    from coach.store import lessons as kept
    from coach.store.guests import stale_guests

    long_ago = datetime.now(UTC) - timedelta(days=90)
    learning, idle = _learner(engine, created=long_ago), _learner(engine, created=long_ago)
    with Session(engine) as session:
        kept.pass_check(session, learning, "tiles", "count")
        assert stale_guests(session, datetime.now(UTC) - timedelta(days=30)) == [idle]


# -- every claim a lesson makes about a card is the card's (issue 25) ---------------------
# Each claim is worked out again here from the card's own lines and readings, without the
# lesson code's helpers, for the house card and for a card changed under the lessons.

COLOUR_OF = {"a": "blue", "b": "red", "c": "green"}  # static/css/app.css: .suit-a, .suit-b, .suit-c


def _letters(pattern: str) -> dict[str, str]:
    """ "2222a 2026b DDDb" -> {"2222": "a", "2026": "b", "DDD": "b"}: each token's colour letter."""
    return {word[:-1]: word[-1] for word in pattern.split() if word[-1] in COLOUR_OF}


def _claims_hold(card, built) -> None:
    by_slug = {lesson.slug: lesson for lesson in built}
    year = str(card.year)
    for lesson in built:
        for item in (*lesson.panels, *lesson.checks):
            if item.line:
                card.line(item.line)
    # The year, held as four singles with Soap for its zero.
    for slug, number in (("tiles", -1), ("jokers", 1), ("mahjong-and-paying", 4)):
        shown = by_slug[slug].panels[number].tiles
        assert "".join("0" if code == "WD" else code[0] for code in shown) == year, (slug, shown)
    # Reading the card: the example hands are hands of the line shown, in the suits the captions say.
    reading = by_slug["reading-the-card"]
    example = card.line(reading.panels[0].line)
    for panel in reading.panels[1:3]:
        hand = tiles.counts(panel.tiles)
        matches = [r for r in example.readings if tiles.counts([tiles.CODES[t] for t in r.tiles]) == hand]
        assert matches, panel
        said = {f"{COLOUR_OF[letter]} as {tiles.SUIT_PLURALS[suit]}".lower() for letter, suit in matches[0].suits}
        assert {part.strip().lower() for part in panel.caption.split(",")} == said, panel.caption
    dragon_panel = reading.panels[4]
    dragon_check = reading.check("dragon")
    assert dragon_panel.line == dragon_check.line
    letters = _letters(card.line(dragon_check.line).pattern)
    token = next(text for text in letters if set(text) == {"D"})
    colour, _, held = dragon_check.prompt.partition(" is held as ")
    suit = next(s for s, plural in tiles.SUIT_PLURALS.items() if held.startswith(plural))
    assert COLOUR_OF[letters[token]] == colour.lower() and f"can {token} be?" in dragon_check.prompt
    assert dragon_check.best.endswith(f"{tiles.name(tiles.DRAGON_OF_SUIT[suit])}s")
    assert f"{token} in {tiles.SUIT_PLURALS[suit]} is" in dragon_panel.text
    assert "0" in card.line(dragon_panel.line).pattern
    assert card.line(reading.check("concealed").line).concealed
    colours = reading.check("colours")
    one, other = colours.prompt.split(" are printed")[0].split(" and ")
    letters = _letters(card.line(colours.line).pattern)
    assert letters[one] == letters[other] and one != other
    like = reading.check("like")
    line = card.line(like.line)
    assert line.numbers == "any"
    assert f"fits {' '.join(w.rstrip('abc') for w in line.pattern.split())}," in like.prompt
    assert f"{' '.join(w.rstrip('abc') for w in line.pattern.split() if w[0].isdigit())} may be" in reading.panels[5].text
    fits = {text: any(w.line.id == line.id for w in winning_lines(card, holding(_rack(text))))
            for text in (like.best, *like.wrong)}
    assert fits == {like.best: True, **{text: False for text in like.wrong}}
    # The Charleston: tiles no hand of the year's lines in Dots and Bams holds.
    charleston = by_slug["charleston"].panels[0]
    year_lines = next(section.lines for section in card.sections if section.name == year)
    used = {t for line in year_lines for r in line.readings if {s for _, s in r.suits} <= {"D", "B"} for t in r.tiles}
    assert len(charleston.tiles) == 3 and len(set(charleston.tiles)) == 3
    assert not {tiles.INDEX[code] for code in charleston.tiles} & used, charleston.tiles
    assert f"a {year} hand in Dots and Bams" in charleston.caption
    # Paying: the value named is a line's with jokers, and each sum is what it pays.
    paying = by_slug["mahjong-and-paying"]
    for check_id, win, who in (("discard", "discard", 0), ("self-picked", "self", 1)):
        check = paying.check(check_id)
        found = re.search(r" a (\d+) line", check.prompt)
        assert found, check.prompt
        value = int(found.group(1))
        line = next(line for line in card.lines if line.value == value and line.takes_jokers)
        assert check.best == str(pay(line, win, jokerless=False)[who])


def _changed_card(text: str):
    """The house card with the claims moved: North gives way to the Red Dragon in
    2026-1, 2026-5 is no longer concealed, the 25 lines pay 20, like numbers
    come first as 22 2222 2222."""
    from coach.notation.card import parse_card

    changed = (text.replace('pattern: "NNNN 2026a SSS 666b"', 'pattern: "RRRR 2026a SSS 666b"')
               .replace('pattern: "2026a 2026b 22c 6666c"\n        value: 45\n        concealed: true',
                        'pattern: "2026a 2026b 22c 6666c"\n        value: 45\n        concealed: false')
               .replace("value: 25", "value: 20")
               .replace('pattern: "11a 1111b 1111c NEWS"', 'pattern: "22a 2222b 2222c NEWS"'))
    assert changed != text and "RRRR 2026a" in changed and changed.count("value: 20") >= 1
    return parse_card(changed, "changed.yaml")


def test_every_lesson_claim_about_the_card_is_the_cards():
    _claims_hold(CARD, lessons.LESSONS)


def test_lessons_built_for_a_changed_card_say_what_that_card_says():
    from coach.notation.card import HOUSE_CARD

    changed = _changed_card(HOUSE_CARD.read_text(encoding="utf-8"))
    built = lessons.for_card(changed)
    _claims_hold(changed, built)
    house = {lesson.slug: lesson for lesson in lessons.LESSONS}
    moved = {lesson.slug: lesson for lesson in built}
    assert "RD" in house["charleston"].panels[0].tiles and "RD" not in moved["charleston"].panels[0].tiles
    assert moved["reading-the-card"].check("concealed").line != house["reading-the-card"].check("concealed").line
    assert "20 line" in moved["mahjong-and-paying"].check("discard").prompt
    assert "22 2222 2222" in moved["reading-the-card"].check("like").prompt
    # The house words would be false of the changed card: the check above catches words left behind.
    with pytest.raises(AssertionError):
        _claims_hold(changed, lessons.LESSONS)


def test_C5_the_blind_pass_is_the_tiles_coming_in_never_racked():
    panel = lessons.get("charleston").panels[-1]
    assert "(C5)" in panel.text and "never enter your rack" in panel.text
    assert "just received" not in panel.caption and "coming to you" in panel.caption
    assert "coming to you" in rules.rule("C5").plain and "just" not in rules.rule("C5").plain
