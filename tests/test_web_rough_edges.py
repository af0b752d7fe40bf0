"""The drill pages' rough edges (issue 15, part 4): the three-tile pass, the
card search by words, whose table tiles are shown, a reload after answering,
question images without their answer, and the end of today's practice."""

from __future__ import annotations

import re
from html import unescape

from drills import first_pass
from tests.test_web_pages import CARD, open_drill

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
    from coach import tiles

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
