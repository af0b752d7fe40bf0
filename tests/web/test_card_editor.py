"""The card editor (issue 14, part 3): the YAML beside the card as printed,
every problem at its line, "try a rack", this year's layout, saving a new
card through the upload's own checks, and the "How to write a card" page.

Routes are driven through the test client with real CSRF tokens; which
person may use each route is in tests/web/test_teach.py's ROUTES table.
"""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from coach.notation.card import HOUSE_CARD, MAX_LINES, parse_card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import read_holding
from coach.store.models import TeacherCard
from coach.web.shared.cards import editor as card_editor
from tests.support.teaching import GOOD_CARD, card_id_named, db, post, sign_up, snapshot, text_of, upload_card

HTMX = {"HX-Request": "true"}
PREVIEW = "/teach/cards/editor/preview"
RACK = "/teach/cards/editor/rack"
SAVE = "/teach/cards/editor/save"
# GOOD_CARD with E-2's pattern one tile short (line 13 of the text).
SHORT = GOOD_CARD.replace('"FF 2222a 44b 66c 8888a"', '"FF 2222a 44b 66c 888a"')
SHORT_LINE = SHORT.splitlines().index('        pattern: "FF 2222a 44b 66c 888a"') + 1


def cards(app) -> list[TeacherCard]:
    with db(app) as session:
        return list(session.exec(select(TeacherCard).order_by(TeacherCard.id)).all())


@pytest.fixture
def tess(app):
    return sign_up(app, "tess@example.org", name="Tess")


def test_the_editor_opens_empty_and_from_this_years_layout(tess):
    page = text_of(tess.get("/teach/cards/editor"))
    assert 'id="card_text"' in page and 'hx-trigger="keyup changed delay:400ms' in page
    assert "How to write a card" in page
    layout = text_of(tess.get("/teach/cards/editor?start=layout"))
    for section in ("2026", "2468", "Any Like Numbers", "Addition Hands", "Quints", "Consecutive Run",
                    "13579", "Winds - Dragons", "369", "Singles and Pairs"):
        assert f'<h3 class="printed-section__name">{section}</h3>' in layout, section
    assert "# An example line" in layout  # the commented example is in the textarea


def test_the_layouts_only_problems_are_its_sections_still_empty():
    shown = card_editor.preview(card_editor.LAYOUT)
    assert len(shown.problems) == 9 and all(p.said.endswith('"hands" must be a non-empty list') for p in shown.problems)
    (example,) = shown.sections[0].lines
    assert not example.broken and example.id == "2026-1"
    filled = card_editor.LAYOUT.replace("hands: []", 'hands: [{id: "N-LOOP", pattern: "NNNN EEEE WWWW SS", value: 25}]')
    filled = filled.replace('"N-LOOP"', '"N-{n}"')
    filled = "".join(part + (str(i) if i < 9 else "") for i, part in enumerate(filled.split("{n}")))
    assert parse_card(filled).name == "My card 2026"  # the example line itself reads


def test_a_problem_is_shown_at_its_line_as_one_types(tess):
    response = post(tess, PREVIEW, {"card_text": SHORT}, headers=HTMX)
    assert response.status_code == 200
    body = text_of(response)
    assert body.lstrip().startswith('<div id="editor-preview"')  # the partial alone
    assert f'data-problem-lines="{SHORT_LINE}"' in body
    row = re.search(r'<li class="editor-problem" data-line="(\d+)">(.*?)</li>', body, re.S)
    assert row and int(row.group(1)) == SHORT_LINE
    assert f"Line {SHORT_LINE}" in row.group(2)
    assert 'pattern: "FF 2222a 44b 66c 888a"' in row.group(2)  # the line itself, beside its number
    assert "has 13 tiles, not 14" in row.group(2)
    # The rest of the card still shows, the broken line marked.
    assert body.count('class="printed-line"') == 1 and body.count('class="printed-line is-broken"') == 1


def test_a_card_that_reads_is_shown_as_printed_with_colours_and_marks(tess):
    body = text_of(post(tess, PREVIEW, {"card_text": GOOD_CARD}, headers=HTMX))
    card = parse_card(GOOD_CARD)
    readings = sum(len(line.readings) for line in card.lines)
    assert f"The card reads: 2 lines, {readings} concrete hands" in body
    assert 'class="pattern__token suit-a"><span aria-hidden="true">2222</span>' in body
    assert 'class="pattern__token suit-c"><span aria-hidden="true">66</span>' in body
    assert body.count('class="cx cx--x"') == 2 and "editor-problem" not in body


def test_preview_without_javascript_is_the_whole_page(tess):
    response = post(tess, PREVIEW, {"card_text": SHORT})
    body = text_of(response)
    assert response.status_code == 200 and "<html" in body
    assert f"Line {SHORT_LINE}" in body and SHORT.splitlines()[0] in body  # the text kept to fix


def test_a_display_without_letters_keeps_the_forms_colours():
    tokens = card_editor.printed_tokens("FFFF 2468 222 222", "FFFF 2468a 222b 222c")
    assert [(t["text"], t["suit"]) for t in tokens] == [("FFFF", ""), ("2468", "a"), ("222", "b"), ("222", "c")]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("name: [unclosed", '<li class="editor-problem" data-line="1">'),  # YAML that does not parse, at its line
        ("name: x\nsections: 5\n", '"sections" must be a list'),
        ("- just\n- a list\n", "a card is a mapping"),
        ("name: x\nsections:\n  - name: s\n    hands:\n      - id: 1\n        pattern: 7\n        value: 1\n", '"pattern" must be text'),
        ("name: x\nsections:\n  - name: s\n    hands:\n" + "      - {id: a, pattern: 'NNNN EEEE WWWW SS', value: 1}\n" * (MAX_LINES + 1),
         f"at most {MAX_LINES} lines"),
        ("name: \"\u0007\"", "not allowed"),
    ],
)
def test_bad_input_gets_a_clear_message_never_a_500(tess, text, said):
    for headers in (HTMX, {}):
        response = post(tess, PREVIEW, {"card_text": text}, headers=headers)
        assert response.status_code in (200, 400), response.status_code
        assert said in text_of(response)


def test_a_body_over_the_cap_is_refused_plainly(tess):
    response = post(tess, PREVIEW, {"card_text": "#" * (70 * 1024)}, headers=HTMX)
    assert response.status_code == 413 and "larger than 64 KB" in text_of(response)


def test_try_a_rack_shows_the_nearest_lines_of_the_card_being_written(tess):
    rack = "2B 2B 2B 4B 4B 4B 6B 6B 6B 8B 8B 8B 8B"
    body = text_of(post(tess, RACK, {"card_text": GOOD_CARD, "rack": rack}, headers=HTMX))
    holding, _ = read_holding(rack)
    nearest = analyze(parse_card(GOOD_CARD), holding).nearest
    first = re.search(r'<span class="rack-line__away">(.*?)</span>\s*<span class="rack-line__pattern">.*?\((.*?), ', body, re.S)
    assert first is not None
    assert first.group(2) == nearest.line.id and first.group(1) == f"{nearest.distance} away"


@pytest.mark.parametrize(
    ("card", "rack", "said"),
    [
        (GOOD_CARD, "", "Type a rack of 13 or 14 tiles"),
        (GOOD_CARD, "2B 2B zz", '"zz" is not a tile'),
        (GOOD_CARD, "2B 2B 2B", "a hand holds 13 or 14 tiles"),
        (GOOD_CARD, "2B " * 100, "at most 200 characters"),
        (SHORT, "2B 2B 2B 4B 4B 4B 6B 6B 6B 8B 8B 8B 8B", "Fix the card first: it has 1 problem"),
    ],
)
def test_a_rack_that_cannot_be_tried_says_why(tess, card, rack, said):
    response = post(tess, RACK, {"card_text": card, "rack": rack}, headers=HTMX)
    assert response.status_code == 200 and said in text_of(response)


def test_save_stores_a_new_card_through_the_upload_checks(app, tess):
    response = post(tess, SAVE, {"card_text": GOOD_CARD})
    assert response.status_code == 303
    (row,) = cards(app)
    assert response.headers["Location"] == f"/teach/cards/{row.id}"
    assert row.source == GOOD_CARD and row.name == "Spring class" and row.lines == 2


def test_a_card_with_problems_is_not_saved_and_each_problem_is_at_its_line(app, tess):
    before = snapshot(app)
    response = post(tess, SAVE, {"card_text": SHORT})
    assert response.status_code == 422 and snapshot(app) == before
    body = text_of(response)
    assert "The card was not saved" in body and f'data-line="{SHORT_LINE}"' in body
    assert post(tess, SAVE, {"card_text": "  "}).status_code == 422 and snapshot(app) == before


def test_editing_makes_a_new_card_and_the_old_one_never_changes(app, tess):
    assert upload_card(tess, GOOD_CARD).status_code == 303
    old = card_id_named(app, "Spring class")
    page = text_of(tess.get(f"/teach/cards/{old}/edit"))
    assert 'name="from" value="%d"' % old in page and "saving this makes a new card" in page
    changed = GOOD_CARD.replace("value: 25", "value: 30", 1)
    # The same name: refused at the name line, nothing stored.
    before = snapshot(app)
    response = post(tess, SAVE, {"card_text": changed, "from": str(old)})
    assert response.status_code == 422 and snapshot(app) == before
    assert 'data-line="1"' in text_of(response) and "Spring class v2" in text_of(response)
    # A new name: a second card; the first is as it was.
    renamed = changed.replace('"Spring class"', '"Spring class v2"')
    assert post(tess, SAVE, {"card_text": renamed, "from": str(old)}).status_code == 303
    first, second = cards(app)
    assert first.id == old and first.source == GOOD_CARD
    assert second.name == "Spring class v2" and second.source == renamed


def test_another_teacher_cannot_open_or_post_from_someone_elses_card(app, tess):
    assert upload_card(tess, GOOD_CARD).status_code == 303
    card_id = card_id_named(app, "Spring class")
    other = sign_up(app, "other@example.org", name="Other")
    assert other.get(f"/teach/cards/{card_id}/edit").status_code == 404
    # A `from` that is not theirs is ignored: nothing of the owner's is shown or touched.
    for url in (PREVIEW, RACK):
        response = post(other, url, {"card_text": GOOD_CARD.replace("Spring", "Autumn"), "from": str(card_id)})
        assert response.status_code == 200 and "Spring class" not in text_of(response), url
    response = post(other, SAVE, {"card_text": GOOD_CARD.replace("Spring", "Autumn"), "from": str(card_id)})
    assert response.status_code == 303
    owners, others = cards(app)
    assert owners.id == card_id and owners.source == GOOD_CARD and others.name == "Autumn class"
    assert others.owner_id != owners.owner_id


def test_text_typed_on_a_copy_of_a_card_deleted_meanwhile_is_kept(app, tess):
    assert upload_card(tess, GOOD_CARD).status_code == 303
    card_id = card_id_named(app, "Spring class")
    assert post(tess, f"/teach/cards/{card_id}/delete").status_code == 303
    renamed = GOOD_CARD.replace("Spring class", "Spring class v2")
    response = post(tess, PREVIEW, {"card_text": renamed, "from": str(card_id)})
    assert response.status_code == 200 and "Spring class v2" in text_of(response)
    assert post(tess, SAVE, {"card_text": renamed, "from": str(card_id)}).status_code == 303


def test_a_learner_is_refused(app):
    stu = sign_up(app, "stu@example.org", teacher=False)
    for url in (PREVIEW, RACK, SAVE):
        assert post(stu, url, {"card_text": GOOD_CARD}).status_code == 403
    assert stu.get("/teach/cards/editor").status_code == 403
    assert stu.get("/teach/cards/how-to").status_code == 403


def test_a_post_without_its_csrf_token_is_refused(app, tess):
    before = snapshot(app)
    for url in (PREVIEW, RACK, SAVE):
        response = tess.post(url, data={"card_text": GOOD_CARD}, headers=HTMX)
        assert response.status_code == 400 and "security token" in text_of(response), url
    assert snapshot(app) == before


def test_previews_are_rate_limited(app, tess):
    app.extensions["settings"] = app.extensions["settings"].updated({"COACH_LIMIT_CARD_EDITOR_LEARNER": "3/minute"})
    statuses = [post(tess, PREVIEW, {"card_text": GOOD_CARD}, headers=HTMX).status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    response = post(tess, RACK, {"card_text": GOOD_CARD, "rack": "2B"}, headers=HTMX)  # shares the count
    assert response.status_code == 429 and "Too many card previews" in text_of(response)
    assert 1 <= int(response.headers["Retry-After"]) <= 61  # a minute, rounded up


def test_how_to_write_a_card_documents_every_key(tess):
    page = text_of(tess.get("/teach/cards/how-to"))
    for words in ("pattern", "display", "suits: [1, 2]", "only: [B, C]", "numbers: any", "concealed",
                  "a list of forms", "Soap"):
        assert words in page, words
    assert "/teach/cards/how-to" in text_of(tess.get("/teach/cards/editor"))


def test_the_house_card_reads_in_the_editor_line_for_line():
    text = HOUSE_CARD.read_text(encoding="utf-8")
    shown = card_editor.preview(text)
    card = parse_card(text)
    assert shown.problems == [] and shown.lines == len(card.lines)
    assert [line.id for s in shown.sections for line in s.lines] == [line.id for line in card.lines]


FORMS_CARD = """\
name: "Forms"
sections:
  - name: "2468"
    hands:
      - id: "E-7"
        display: "FFFF 2468 222 222"
        pattern: ["FFFF 2468a 222b 222c", "FFFF 2468a 444b 444c",
                  "FFFF 2468a 666b 666c", "FFFF 2468a 888b 888c"]
        value: 25
        suits: [1, 3]
        only: [B, C]
"""


def test_a_line_of_several_forms_prints_once_with_its_forms_and_suit_keys():
    """Read as the card format defines it, or (before coach.notation.card knows the new
    keys) from the raw YAML: the printed line is the same either way."""
    shown = card_editor.preview(FORMS_CARD)
    (line,) = [line for section in shown.sections for line in section.lines]
    assert [(t["text"], t["suit"]) for t in line.tokens] == [("FFFF", ""), ("2468", "a"), ("222", "b"), ("222", "c")]
    assert [[t["text"] for t in form] for form in line.forms][1] == ["FFFF", "2468", "444", "444"]
    assert len(line.forms) == 4
    assert line.extras == ["any 1 or 3 suits", "Bams and Craks only"]


# -- learners have the editor too (issue 14: "for teachers and learners") -----------------------


def test_a_learner_writes_a_card_in_the_editor_and_drills_on_it(app):
    lee = sign_up(app, "lee@example.org", teacher=False, name="Lee")
    page = text_of(lee.get("/account/cards/editor"))
    assert 'id="card_text"' in page and 'action="/account/cards/editor/save"' in page
    assert 'hx-post="/account/cards/editor/preview"' in page and ">Account</a>" in page
    assert "How to write a card" in text_of(lee.get("/account/cards/how-to"))
    assert 'href="/account/cards/editor"' in text_of(lee.get("/account/cards"))
    shown = text_of(post(lee, "/account/cards/editor/preview", {"card_text": SHORT}, headers=HTMX))
    assert f'data-problem-lines="{SHORT_LINE}"' in shown and "has 13 tiles, not 14" in shown
    assert post(lee, "/account/cards/editor/save", {"card_text": SHORT}).status_code == 422
    saved = post(lee, "/account/cards/editor/save", {"card_text": GOOD_CARD})
    assert saved.status_code == 303 and re.fullmatch(r"/account/cards/\d+", saved.headers["Location"])
    number = int(saved.headers["Location"].rsplit("/", 1)[1])
    assert post(lee, "/account/cards/choose", {"card": str(number)}).status_code == 303
    drill = text_of(lee.get("/drills/nearest-hand?level=1&seed=3"))
    assert "Spring class" in drill  # the drill deals from the card just written
    assert lee.get(f"/account/cards/{number}/edit").status_code == 200


def test_the_learners_editor_is_refused_to_guests_and_visitors(app):
    visitor = app.test_client()
    opened = visitor.get("/account/cards/editor")  # a link followed: sign in first, then come back
    assert opened.status_code == 303 and opened.headers["Location"] == "/signin?next=/account/cards/editor"
    assert post(visitor, "/account/cards/editor/save", {"card_text": GOOD_CARD}).status_code == 403
    other = sign_up(app, "olga@example.org", teacher=False)
    lee = sign_up(app, "lee@example.org", teacher=False)
    saved = post(lee, "/account/cards/editor/save", {"card_text": GOOD_CARD})
    number = int(saved.headers["Location"].rsplit("/", 1)[1])
    assert other.get(f"/account/cards/{number}/edit").status_code == 404
