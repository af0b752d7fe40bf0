"""The progress page (GET /progress): charts, mastery, weak spots, mistakes to replay.

Answers go through the JSON API, which makes a guest of the test client;
answers on other days are stored for that guest with `record_answer`.
The browser test answers drills by clicking, then reads the page on a
desktop and on a phone.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, time, timedelta
from html import unescape
from zoneinfo import ZoneInfo

from markupsafe import escape
from sqlmodel import Session, delete, select

import drills
from coach.notation import tiles
from coach.rules import catalog as rules
from coach.store import login_sessions
from coach.store.models import Attempt, Learner
from coach.store.progress import MASTERY_WORDS, local_day, record_answer
from coach.web.shared import learners
from tests.support.cards import CARD
from tests.support.question_tiles import question_tile_src

SVG = "{http://www.w3.org/2000/svg}"


# -- helpers ------------------------------------------------------------------------------------


def question(name: str, seed: int, level: int):
    return drills.get(name).generate(seed, level, CARD)


def answer(client, name: str, seed: int, level: int, given):
    q = client.post(f"/api/drills/{name}/questions", json={"seed": seed, "level": level}).get_json()
    reply = client.post(f"/api/drills/{name}/answers", json={"token": q["token"], "answer": given})
    assert reply.status_code == 200, reply.get_json()
    return q, reply.get_json()


def name_tile(client, seed: int, level: int = 1, right: bool = True):
    """Answer a name-the-tile question at level 1, 2 or 4, right or wrong."""
    q = question("name-the-tile", seed, level)
    if right:
        given = q.tile
    elif q.choices:
        given = next(c for c in q.choices if c != q.tile)
    else:
        given = "1D" if q.tile != "1D" else "2D"
    return answer(client, "name-the-tile", seed, level, given)


def page_html(client) -> str:
    response = client.get("/progress")
    assert response.status_code == 200 and response.mimetype == "text/html"
    return response.get_data(as_text=True)


def svg_of(html: str, element_id: str) -> ET.Element:
    """The chart with this id, cut out of the page (it holds an inner svg) and parsed as XML."""
    start = html.index(f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{element_id}"')
    depth, at = 0, start
    for match in re.finditer(r"<svg\b|</svg>", html[start:]):
        depth += 1 if match.group() == "<svg" else -1
        if depth == 0:
            at = start + match.end()
            break
    return ET.fromstring(html[start:at])


def chart_points(root: ET.Element) -> int:
    return sum(1 for c in root.iter(f"{SVG}circle") if "chart__point" in c.get("class", ""))


def weak_rows(html: str) -> dict[str, str]:
    return dict(re.findall(r'<li class="card weak" data-skill="([^"]+)">(.*?)</li>', html, re.S))


def skill_rows(html: str) -> dict[str, str]:
    return dict(re.findall(r'<li class="skill[^"]*" data-skill="([^"]+)">(.*?)</li>', html, re.S))


def mistakes(html: str) -> list[str]:
    chunks = html.split('<li class="card mistake"')[1:]
    if chunks:
        chunks[-1] = chunks[-1].split("</ol>")[0]
    return chunks


def stat(html: str, name: str) -> str:
    found = re.search(rf'data-stat="{name}">([^<]*)', html)
    assert found, name
    return found.group(1).strip()


def the_guest(app) -> tuple[Session, Learner]:
    session = Session(app.extensions["store"])
    return session, session.exec(select(Learner)).one()


# -- the empty state ----------------------------------------------------------------------------


def test_a_visitor_with_no_answers_is_invited_to_start(client):
    html = page_html(client)
    assert "Your progress starts with your first answer" in html
    assert 'href="/drills/name-the-tile?level=1"' in html
    assert "<svg" not in html.split('<main id="main"')[1]  # no empty charts
    assert 'aria-current="page">Progress</a>' in html  # the header's link to this page


def test_a_learner_whose_answers_are_gone_sees_the_empty_state_too(app, client):
    name_tile(client, 3)
    session, guest = the_guest(app)
    with session:
        session.exec(delete(Attempt).where(Attempt.learner_id == guest.id))
        session.commit()
    assert "Your progress starts with your first answer" in page_html(client)


def sign_in(app, client, answers: int) -> None:
    """An account (not a guest) with some answers, signed in as Flask-Login keeps it."""
    with Session(app.extensions["store"]) as session:
        learner = Learner(email="ada@example.com", password_hash="not-a-real-hash", name="Ada", guest=False)
        session.add(learner)
        session.commit()
        session.refresh(learner)
        for seed in range(answers):
            q = question("name-the-tile", seed, 1)
            record_answer(session, learner, q, drills.get("name-the-tile").grade(q, q.tile))
        token = login_sessions.start(session, learner.id)
        session.commit()
        user_id = learners.SignedIn.of(learner, token).get_id()
    with client.session_transaction() as cookie:
        cookie["_user_id"] = user_id
        cookie["_fresh"] = True


def test_a_signed_in_learner_sees_their_own_progress(app, client):
    sign_in(app, client, answers=2)
    html = page_html(client)
    assert stat(html, "attempts") == "2" and stat(html, "accuracy") == "100%"
    assert "practising as a guest" not in html


def test_an_account_with_no_answers_is_not_told_to_sign_up(app, client):
    sign_in(app, client, answers=0)
    html = page_html(client)
    assert "Your progress starts with your first answer" in html
    assert "No sign-up needed" not in html


# -- totals and charts --------------------------------------------------------------------------


def test_the_totals_streak_and_daily_goal_are_at_the_top(client):
    name_tile(client, 3)
    name_tile(client, 4, right=False)
    name_tile(client, 5)
    html = page_html(client)
    assert stat(html, "attempts") == "3"
    assert stat(html, "accuracy") == "67%"
    assert stat(html, "streak") == "1"
    assert stat(html, "today") == "3"
    assert "practising as a guest" in html and 'href="/signup"' in html  # a guest is offered an account
    assert "7 more for today’s goal" in unescape(html)
    assert 'aria-label="3 of 10 answers today"' in html


def test_each_drill_gets_a_chart_with_a_point_per_day(app, client):
    name_tile(client, 3)
    name_tile(client, 4, right=False)
    answer(client, "nearest-hand", 2, 1, None)  # "show me"
    session, guest = the_guest(app)
    now = datetime.now(UTC)
    with session:
        for seed, days_ago, right in [(20, 3, True), (21, 3, False), (22, 1, True)]:
            q = question("name-the-tile", seed, 1)
            given = q.tile if right else next(c for c in q.choices if c != q.tile)
            verdict = drills.get("name-the-tile").grade(q, given)
            record_answer(session, guest, q, verdict, when=now - timedelta(days=days_ago))
    html = page_html(client)
    tile_chart = svg_of(html, "chart-name-the-tile")
    hand_chart = svg_of(html, "chart-nearest-hand")
    assert chart_points(tile_chart) == 3  # three days: 3 days ago, yesterday, today
    assert chart_points(hand_chart) == 1
    assert "chart-first-pass" not in html  # a drill never answered has no chart
    assert tile_chart.get("role") == "img"
    assert tile_chart.find(f"{SVG}title").text == "Name the tile: accuracy per day"
    desc = tile_chart.find(f"{SVG}desc").text
    assert "3 days of practice" in desc and "5 answers, 60% right overall" in desc
    # The same numbers as a table, for anyone who would rather read them.
    assert "<th scope=\"row\">" in html and "Day by day" in html
    assert stat(html, "streak") == "2"  # yesterday and today in a row; 3 days ago was before the gap


def test_days_are_the_learners_own(app, client):
    """Two answers on one Los Angeles evening fall on two UTC days, but make one point."""
    name_tile(client, 3)
    session, guest = the_guest(app)
    la = ZoneInfo("America/Los_Angeles")
    with session:
        guest.time_zone = "America/Los_Angeles"
        session.add(guest)
        session.commit()
        day = local_day(datetime.now(UTC), la) - timedelta(days=3)
        for seed, clock in [(30, time(10, 0)), (31, time(18, 30))]:  # 17:00 and 01:30 UTC
            q = question("name-the-tile", seed, 1)
            record_answer(session, guest, q, drills.get("name-the-tile").grade(q, q.tile),
                          when=datetime.combine(day, clock, tzinfo=la).astimezone(UTC))
    html = page_html(client)
    assert chart_points(svg_of(html, "chart-name-the-tile")) == 2  # that evening, and today
    assert "America/Los Angeles time" in html


# -- mastery ------------------------------------------------------------------------------------


def test_mastery_is_shown_in_plain_words_for_every_skill(client):
    for seed in (1, 2, 3):
        name_tile(client, seed)
    q, _ = name_tile(client, 7)  # a fourth level-1 answer
    rows = skill_rows(page_html(client))
    level_1 = rows["name-the-tile:1"]
    assert MASTERY_WORDS["familiar"] in level_1 and "100%</strong> of 4 tries" in level_1
    assert MASTERY_WORDS["new"] in rows["name-the-tile:2"]  # a level not tried yet
    assert MASTERY_WORDS["new"] in rows["first-pass:1"]
    assert 'href="/drills/name-the-tile?level=2"' in rows["name-the-tile:2"]
    tile = f"tile:{q['tile']}"
    label = "Soap (White Dragon)" if q["tile"] == "WD" else tiles.name(q["tile"])
    assert label in rows[tile] and MASTERY_WORDS["attempted"] in rows[tile]


def test_rule_skills_show_the_rules_title(client):
    seed = next(s for s in range(100) if question("name-the-tile", s, 4).tile == "J")
    name_tile(client, seed, level=4)
    rows = skill_rows(page_html(client))
    assert str(escape(rules.rule("J1").title)) in rows["rule:J1"]
    assert 'href="/rules#J1"' in rows["rule:J1"]
    assert "Joker" in rows["tile:J"]


# -- the weakest skills --------------------------------------------------------------------------


def test_the_weakest_skills_link_to_their_drill_and_level(client):
    name_tile(client, 4, level=2, right=False)
    name_tile(client, 5, level=2, right=False)
    name_tile(client, 6, level=1)
    name_tile(client, 8, level=1)
    weak = weak_rows(page_html(client))
    assert "name-the-tile:2" in weak
    assert 'href="/drills/name-the-tile?level=2"' in weak["name-the-tile:2"]
    assert "Practise this" in weak["name-the-tile:2"] and "0 of 2 right" in weak["name-the-tile:2"]
    assert "name-the-tile:1" not in weak  # all right: nothing to work on
    assert not [skill for skill in weak if skill.startswith("tile:")]  # one try a tile is not enough to judge


def test_a_weak_tile_links_to_a_fresh_question_about_that_tile(client):
    seeds: dict[str, list[int]] = {}
    for s in range(300):
        seeds.setdefault(question("name-the-tile", s, 1).tile, []).append(s)
    code, (first, second, *_) = next((c, ss) for c, ss in seeds.items() if len(ss) >= 2)
    name_tile(client, first, right=False)
    name_tile(client, second, right=False)
    html = page_html(client)
    weak = weak_rows(html)[f"tile:{code}"]
    link = re.search(r'href="(/drills/name-the-tile\?level=1&amp;seed=(\d+))"', weak)
    assert link, weak
    seed = int(link.group(2))
    assert seed not in (first, second)  # not a question already counted
    assert question("name-the-tile", seed, 1).tile == code
    replay = client.get(unescape(link.group(1))).get_data(as_text=True)
    assert f'src="{question_tile_src(client.application, code)}"' in replay


def test_a_skill_that_slipped_is_a_weak_spot_even_with_good_accuracy(client):
    seeds = list(range(200, 212))
    for seed in seeds[:10]:
        name_tile(client, seed, level=4)
    for seed in seeds[10:]:
        name_tile(client, seed, level=4, right=False)
    html = unescape(page_html(client))
    weak = weak_rows(html)["name-the-tile:4"]
    assert "Slipped from “Mastered” to “Good”" in weak and "10 of 12 right" in weak
    assert 'was “Mastered”' in skill_rows(html)["name-the-tile:4"]


def test_with_nothing_weak_the_page_says_so(client):
    for seed in (1, 2, 3):
        name_tile(client, seed)
    html = page_html(client)
    assert weak_rows(html) == {}
    assert "No weak spots" in html


# -- recent mistakes ------------------------------------------------------------------------------


def test_recent_mistakes_show_their_explanations_and_replay_the_same_question(client):
    name_tile(client, 3)
    _, wrong = name_tile(client, 5, level=2, right=False)
    q_hand, shown = answer(client, "nearest-hand", 2, 1, None)
    html = page_html(client)
    found = mistakes(html)
    assert [re.search(r'data-drill="([^"]+)"', m).group(1) for m in found] == ["nearest-hand", "name-the-tile"]
    newest, older = found
    for line in wrong["explanation"]:
        assert str(escape(line)) in older
    for line in shown["explanation"]:
        assert str(escape(line)) in newest
    assert "You asked to be shown" in newest
    assert str(escape(q_hand["prompt"])) in newest
    assert 'href="/drills/name-the-tile?level=2&amp;seed=5"' in older
    assert 'href="/drills/nearest-hand?level=1&amp;seed=2"' in newest
    q = question("name-the-tile", 5, 2)
    assert tiles.name(q.tile) in older  # the right answer, by name
    for rule_id in wrong["rules"]:
        assert f'href="/rules#{rule_id}"' in older
    # The link opens the very question that was missed.
    replay = client.get("/drills/name-the-tile?level=2&seed=5").get_data(as_text=True)
    assert f'src="{question_tile_src(client.application, q.tile)}"' in replay and q.prompt in replay


def test_only_the_last_ten_mistakes_are_listed_newest_first(client):
    for seed in range(40, 52):
        name_tile(client, seed, right=False)
    found = mistakes(page_html(client))
    assert len(found) == 10
    seeds = [int(re.search(r"seed=(\d+)", m).group(1)) for m in found]
    assert seeds == list(range(51, 41, -1))


def test_a_mistake_on_another_card_offers_a_fresh_question(app, client):
    name_tile(client, 3)
    session, guest = the_guest(app)
    with session:
        q = dataclasses.replace(question("name-the-tile", 9, 1), card="Last Year's Card")
        verdict = drills.get("name-the-tile").grade(q, next(c for c in q.choices if c != q.tile))
        record_answer(session, guest, q, verdict)
    (mistake,) = mistakes(page_html(client))
    assert "The card has changed since" in mistake
    assert "seed=9" not in mistake and "data-try-again" not in mistake
    assert 'href="/drills/name-the-tile?level=1" data-fresh' in mistake
    q = question("name-the-tile", 9, 1)
    right = "Soap (White Dragon)" if q.tile == "WD" else tiles.name(q.tile)
    assert f"<dt>Right answer</dt><dd>{escape(right)}</dd>" in mistake  # still shown, by name


def test_no_mistakes_yet_is_said_kindly(client):
    name_tile(client, 3)
    assert "No mistakes so far" in page_html(client)


# -- in a browser ---------------------------------------------------------------------------------




def test_C4_work_on_these_next_points_at_C4_only_after_a_joker_is_passed(client):
    """Issue 25: worse first passes that keep the joker are C1 misses, never
    C4's; passing the joker is what puts C4 on the list."""
    from tests.support.passes import every_pass

    joker_seeds = [s for s in range(100) if "J" in question("first-pass", s, 2).rack][:4]
    for seed in joker_seeds[:2]:
        q = question("first-pass", seed, 2)
        worst = every_pass(CARD, q.key["rack"], q.seed).options[-1]
        assert "J" not in worst.codes
        _, verdict = answer(client, "first-pass", seed, 2, worst.codes)
        assert not verdict["correct"] and "C4" not in verdict["rules"]
    weak = weak_rows(page_html(client))
    assert "first-pass:2" in weak and "rule:C1" in weak
    assert "rule:C4" not in weak
    for seed in joker_seeds[2:]:
        q = question("first-pass", seed, 2)
        _, verdict = answer(client, "first-pass", seed, 2, ["J", *[c for c in q.rack if c != "J"][:2]])
        assert "C4" in verdict["rules"]
    assert "rule:C4" in weak_rows(page_html(client))
