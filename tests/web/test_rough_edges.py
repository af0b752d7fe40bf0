"""The drill pages' rough edges (issue 15, part 4): the three-tile pass, the
card search by words, whose table tiles are shown, a reload after answering,
question images without their answer, and the end of today's practice."""

from __future__ import annotations

import re
from html import unescape

from drills import first_pass
from tests.support.cards import CARD
from tests.support.pages import open_drill

HTMX = {"HX-Request": "true"}


def _first_pass(client, seed: int = 4, level: int = 2):
    html, csrf, token = open_drill(client, f"/drills/first-pass?level={level}&seed={seed}")
    q = first_pass.generate(seed, level, CARD)
    naturals = [code for code in q.rack if code != "J"]
    return html, csrf, token, naturals


def test_first_pass_says_three_beside_the_button(client):
    html, _, _, _ = _first_pass(client)
    beside = re.search(r'<div class="pass-submit">(.*?)</div>', html, re.S).group(1)
    assert "Pick 3 tiles to pass" in beside and "0 of 3 chosen" in beside
    assert "Pass these three" in beside


def test_first_pass_without_javascript_four_picks_are_asked_again_in_plain_words(client):
    _, csrf, token, naturals = _first_pass(client)
    form = {"token": token, "csrf_token": csrf, "answer_list": "1", "answer": naturals[:4]}
    response = client.post("/drills/first-pass/answer", data=form)
    html = unescape(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "Pick exactly 3 tiles to pass; you picked 4." in html
    assert 'data-verdict=' not in html and 'name="token" value="' + token in html  # the same question, ungraded
    assert html.count(" checked>") == 4 and "4 of 3 chosen" in html  # the picks are kept, to uncheck one
    two = client.post("/drills/first-pass/answer", data={**form, "answer": naturals[:2]}, headers=HTMX)
    assert two.status_code == 422 and "<html" not in two.get_data(as_text=True)
    assert "Pick exactly 3 tiles to pass; you picked 2." in unescape(two.get_data(as_text=True))


def test_first_pass_api_message_is_plain_words(client):
    q = client.post("/api/drills/first-pass/questions", json={"seed": 4, "level": 2}).get_json()
    naturals = [code for code in q["rack"] if code != "J"]
    response = client.post("/api/drills/first-pass/answers", json={"token": q["token"], "answer": naturals[:4]})
    assert response.status_code == 400
    assert response.get_json() == {"error": "Pick exactly 3 tiles to pass; you picked 4."}
    three = client.post("/api/drills/first-pass/answers", json={"token": q["token"], "answer": naturals[:3]})
    assert three.status_code == 200 and "correct" in three.get_json()


# -- question images carry no answer ---------------------------------------------------------

IMG = re.compile(r'<img src="([^"]+)"')


def _stage(html: str) -> str:
    return html.split('id="stage"', 1)[1].split('id="verdict"', 1)[0]


def test_no_question_image_names_its_answer_in_any_drill(client):
    """Every drill, every level, a few seeds: where the question is a tile, its
    picture's address, alt text and served face say nothing of it."""
    import drills
    from coach.notation import tiles

    for name, module in drills.DRILLS.items():
        for level in module.LEVELS:
            for seed in (1, 2, 3):
                q = module.generate(seed, level.number, CARD)
                html, _, _ = open_drill(client, f"/drills/{name}?level={level.number}&seed={seed}")
                stage = _stage(html)
                if name == "name-the-tile" and q.tile and level.number != 3:
                    answer = tiles.name(tiles.INDEX[q.tile])
                    sources = IMG.findall(stage)
                    assert sources and all(f"/tiles/{q.tile}.svg" not in s for s in sources), (name, seed)
                    assert re.fullmatch(r"/tiles/q/[0-9a-f]{24}\.svg", sources[0])
                    picture = re.search(r'<div class="felt felt--solo">(.*?)</div>', stage, re.S).group(1)
                    assert answer not in unescape(picture) and q.tile not in picture
                    face = client.get(sources[0])
                    assert face.status_code == 200 and face.mimetype == "image/svg+xml"
                    body = face.get_data(as_text=True)
                    assert "<title>" not in body and "aria-label" not in body and q.tile not in re.findall(r'id="([^"]+)"', body)
                    assert "<svg" in body and "<rect" in body  # a real face all the same


def test_the_same_tile_has_the_same_opaque_address_and_unknown_ones_are_404(client):
    first, _, _ = open_drill(client, "/drills/name-the-tile?level=2&seed=1")
    again, _, _ = open_drill(client, "/drills/name-the-tile?level=2&seed=1")
    assert IMG.findall(_stage(first))[0] == IMG.findall(_stage(again))[0]
    assert client.get("/tiles/q/" + "0" * 24 + ".svg").status_code == 404
    assert client.get("/tiles/q/WD.svg").status_code == 404


# -- whose tiles -------------------------------------------------------------------------------

WHOSE = re.compile(r'<p class="felt__label" data-whose>([^<]+)</p>')


def test_hot_or_safe_page_says_whose_exposures_they_are(client):
    import drills

    html, _, _ = open_drill(client, "/drills/hot-or-safe?level=1&seed=0")
    q = drills.get("hot-or-safe").generate(0, 1, CARD)
    labels = [unescape(label) for label in WHOSE.findall(html)]
    expected = [f"{seat}'s exposure" for seat, groups in q.scene.others for _ in groups]
    assert labels == [f"Your rack · {len(q.rack)} tiles", *expected]
    assert "Exposed on the table" not in html


def test_calls_page_shows_whose_discard_is_called(client):
    html, _, _ = open_drill(client, "/drills/calls?level=1&seed=0")
    labels = [unescape(label) for label in WHOSE.findall(html)]
    assert labels[0] == "East's discard"  # "East just threw the 9 Bam."
    assert 'aria-label="East&#39;s discard"' in html and "/tiles/9B.svg" in html
    assert labels.count("Your exposure") == 2


# -- a reload after answering shows the verdict ----------------------------------------------


def test_an_htmx_answer_pushes_an_address_that_shows_the_verdict_again(client):
    from sqlmodel import Session, select

    from coach.store.models import Attempt
    from coach.web.infra import database

    _, csrf, token = open_drill(client, "/drills/name-the-tile?level=1&seed=3")
    q = __import__("drills").get("name-the-tile").generate(3, 1, CARD)
    wrong = next(c for c in q.choices if c != q.tile)
    response = client.post("/drills/name-the-tile/answer", data={"token": token, "answer": wrong},
                           headers={**HTMX, "X-CSRFToken": csrf})
    assert response.status_code == 200
    pushed = response.headers["HX-Push-Url"]
    assert pushed.startswith("/drills/name-the-tile/answer?r=") and wrong not in pushed.split("r=")[0]
    with client.application.app_context():
        with Session(database.engine()) as session:
            before = len(session.exec(select(Attempt)).all())
    reload = client.get(pushed)  # the browser's reload of that address
    html = unescape(reload.get_data(as_text=True))
    assert reload.status_code == 200 and "<html" in html
    assert 'data-verdict="wrong"' in html and 'name="token" value="' + token in html
    with client.application.app_context():
        with Session(database.engine()) as session:
            assert len(session.exec(select(Attempt)).all()) == before  # shown again, not stored again


def test_an_altered_answer_address_is_refused_plainly(client):
    _, csrf, token = open_drill(client, "/drills/name-the-tile?level=1&seed=3")
    response = client.post("/drills/name-the-tile/answer", data={"token": token, "show": "1"},
                           headers={**HTMX, "X-CSRFToken": csrf})
    pushed = response.headers["HX-Push-Url"]
    assert 'data-verdict' in unescape(client.get(pushed).get_data(as_text=True))  # "show me" too
    bad = client.get(pushed[:-3] + "xyz")
    assert bad.status_code == 400 and "not valid" in unescape(bad.get_data(as_text=True))
    assert client.get("/drills/name-the-tile/answer").status_code == 400


# -- today's practice: a reload keeps the verdict, the end has a summary ----------------------

ACTION = re.compile(r'action="/drills/([a-z-]+)/answer"')


def _answer_today(client, right: bool) -> str:
    """Answer the session's current question (right, or "show me"); the verdict partial."""
    html, csrf, token = open_drill(client, "/today")
    name = ACTION.search(html).group(1)
    slot = re.search(r'name="slot" value="(\d+)"', html).group(1)
    data = {"token": token, "session": "today", "slot": slot}
    if right:
        asked = client.application.extensions["coach"].from_token(name, token)
        best = asked.module.grade(asked.question, None).best
        data["answer"] = best if not isinstance(best, list) else best
        if isinstance(best, list):
            data["answer_list"] = "1"
    else:
        data["show"] = "1"
    reply = client.post(f"/drills/{name}/answer", data=data, headers={**HTMX, "X-CSRFToken": csrf})
    assert reply.status_code == 200 and "HX-Push-Url" not in reply.headers  # the address stays /today
    return slot


def _next(client, slot: str) -> None:
    html = client.get("/today").get_data(as_text=True)
    csrf = re.search(r'<meta name="csrf-token" content="([^"]+)">', html).group(1)
    assert client.post("/today/next", data={"after": slot}, headers={**HTMX, "X-CSRFToken": csrf}).status_code == 200


def test_a_reload_in_todays_practice_shows_the_verdict(client):
    _next(client, _answer_today(client, right=False))  # the first answer makes a guest with a plan of their own
    before = unescape(client.get("/today").get_data(as_text=True))
    assert "data-verdict" not in before
    slot = _answer_today(client, right=False)
    after = unescape(client.get("/today").get_data(as_text=True))  # the reload
    assert re.search(r"data-verdict=\"(shown|wrong)\"", after) and f"Question {int(slot) + 1} of 10" in after
    assert "Next question" in after and "I don't know, show me" not in after
    _next(client, slot)
    moved = unescape(client.get("/today").get_data(as_text=True))
    assert "data-verdict" not in moved and f"Question {int(slot) + 2} of 10" in moved


def test_todays_practice_ends_with_score_streak_and_mistakes_to_try_again(client):
    from coach.store.daily import SESSION_SIZE

    _next(client, _answer_today(client, right=True))  # a visitor's first answer makes the guest
    html = client.get("/today").get_data(as_text=True)
    start = int(re.search(r"Question (\d+) of", html).group(1)) - 1
    wrong_slots = []
    for n in range(start, SESSION_SIZE):
        right = n % 3 != 0
        slot = _answer_today(client, right=right)
        if not right:
            wrong_slots.append(int(slot))
        _next(client, slot)
    done = unescape(client.get("/today").get_data(as_text=True))
    assert "That's today's practice done." in done
    answered = SESSION_SIZE - start
    summary = done.split("data-daily-summary", 1)[1]
    assert f"{answered - len(wrong_slots)} of {answered} right" in re.sub(r"<[^>]+>", "", summary)
    assert f"{start} skipped" in summary if start else "skipped" not in summary
    assert "day in a row" in done
    tries = re.findall(r'<a class="btn btn--secondary" href="([^"]+)" data-try-again>', summary)
    assert len(tries) == len(wrong_slots) and summary.count('class="daily-mistake"') == len(wrong_slots)
    # "Try again" re-asks that very question: the slot's drill, level and seed.
    from sqlmodel import Session, select

    from coach.store.daily import today
    from coach.store.models import Learner
    from coach.web.infra import database

    with client.application.app_context():
        with Session(database.engine()) as session:
            learner = session.exec(select(Learner)).all()[-1]
            plan = today(session, learner)
    for url, n in zip(tries, wrong_slots):
        s = plan.slots[n]
        assert url == f"/drills/{s.drill}?level={s.level}&seed={s.seed}"
        page = client.get(url).get_data(as_text=True)
        assert "data-verdict" not in page, page[page.find("data-verdict") - 400:page.find("data-verdict") + 50]
        assert "I don't know, show me" in page
