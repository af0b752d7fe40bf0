"""The JSON API: every route, every bad input, signed question tokens."""

from __future__ import annotations

import json

import pytest
from itsdangerous import URLSafeSerializer

import drills
from coach.notation.card import house_card
from coach.web import create_app
from coach.web.shared.drilling import TOKEN_SALT

CARD_NAME = house_card().name


def post(client, url, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type=content_type)


def ask(client, name="name-the-tile", **body):
    response = post(client, f"/api/drills/{name}/questions", body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def answer(client, name, token, value):
    return post(client, f"/api/drills/{name}/answers", {"token": token, "answer": value})


def assert_error(response, status, *words):
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    data = response.get_json()
    assert set(data) == {"error"} and isinstance(data["error"], str) and data["error"]
    for word in words:
        assert word in data["error"], (word, data["error"])
    assert "Traceback" not in data["error"]


# -- GET /api/drills ------------------------------------------------------------


def test_list_drills_in_teaching_order(client):
    response = client.get("/api/drills")
    assert response.status_code == 200
    data = response.get_json()
    assert [d["name"] for d in data["drills"]] == list(drills.DRILLS)
    names = [d["name"] for d in data["drills"]]
    assert names[0] == "name-the-tile" and names.index("nearest-hand") < names.index("first-pass")
    for entry, module in zip(data["drills"], drills.DRILLS.values(), strict=True):
        assert entry["title"] == module.TITLE
        assert [level["number"] for level in entry["levels"]] == list(range(1, len(module.LEVELS) + 1))
        assert all(level["title"] and level["description"] for level in entry["levels"])


# -- POST questions ---------------------------------------------------------------


def test_new_question_201_with_token_and_what_the_drill_shows(client):
    data = ask(client, "name-the-tile", seed=7, level=1)
    assert set(data) == {"token", "drill", "seed", "level", "card", "prompt", "choices", "tile", "hint"}
    assert data["drill"] == "name-the-tile" and data["seed"] == 7 and data["level"] == 1
    assert data["card"] == CARD_NAME
    module = drills.get("name-the-tile")
    q = module.generate(7, 1, house_card())
    assert {k: v for k, v in data.items() if k != "token"} == {**q.public(), "hint": module.hint(q)}


def test_nearest_hand_question_shows_rack_and_exposures(client):
    data = ask(client, "nearest-hand", seed=3, level=3)
    assert len(data["rack"]) + sum(len(e) for e in data["exposed"]) == 14
    assert all(isinstance(code, str) for code in data["rack"])
    data = ask(client, "nearest-hand", seed=3, level=2)
    assert len(data["rack"]) in (13, 14) and "exposed" not in data


def test_level_defaults_to_1_and_seed_to_a_random_one(client):
    seeds = {ask(client, "name-the-tile")["seed"] for _ in range(5)}
    assert len(seeds) > 1
    assert ask(client, "nearest-hand")["level"] == 1


def test_same_seed_same_question_and_token(client):
    first = ask(client, "nearest-hand", seed=42, level=2)
    second = ask(client, "nearest-hand", seed=42, level=2)
    assert first == second


def test_token_carries_only_drill_seed_level_and_card(app, client):
    data = ask(client, "nearest-hand", seed=9, level=1)
    payload = URLSafeSerializer(app.config["SECRET_KEY"], salt=TOKEN_SALT).loads(data["token"])
    assert payload == {"drill": "nearest-hand", "seed": 9, "level": 1, "card": CARD_NAME}


def test_regenerated_question_equals_the_original(app, client):
    for name, levels in (("name-the-tile", (1, 2, 3, 4)), ("nearest-hand", (1, 2, 3))):
        for level in levels:
            data = ask(client, name, seed=123, level=level)
            fresh = create_app({"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"]})
            with fresh.app_context():
                asked = fresh.extensions["coach"].from_token(name, data["token"])
            assert {"token": data["token"], **asked.question.public(), "hint": drills.hint(asked.question)} == data


# -- POST answers ---------------------------------------------------------------


def test_right_wrong_and_show_me_answers(client):
    data = ask(client, "name-the-tile", seed=3, level=1)
    right = answer(client, "name-the-tile", data["token"], data["tile"])
    assert right.status_code == 200
    verdict = right.get_json()
    assert set(verdict) == {"correct", "score", "headline", "reasons", "details", "explanation", "rules", "best", "counted"}
    assert verdict["headline"].startswith("Right") and 1 <= len(verdict["reasons"]) <= 3
    assert verdict["correct"] is True and verdict["score"] == 1 and verdict["best"] == data["tile"]
    assert verdict["rules"] and all(isinstance(line, str) for line in verdict["explanation"])
    wrong_choice = next(c for c in data["choices"] if c != data["tile"])
    wrong = answer(client, "name-the-tile", data["token"], wrong_choice).get_json()
    assert wrong["correct"] is False and wrong["score"] == 0 and wrong["best"] == data["tile"]
    shown = answer(client, "name-the-tile", data["token"], None)
    assert shown.status_code == 200
    shown = shown.get_json()
    assert shown["correct"] is False and shown["best"] == data["tile"] and shown["explanation"]


def test_name_the_tile_takes_a_name_as_well_as_a_code(client):
    data = ask(client, "name-the-tile", seed=3, level=1)
    from coach.notation import tiles

    verdict = answer(client, "name-the-tile", data["token"], tiles.name(data["tile"]).lower()).get_json()
    assert verdict["correct"] is True


def test_nearest_hand_right_tie_and_wrong(client):
    data = ask(client, "nearest-hand", seed=5, level=2)
    shown = answer(client, "nearest-hand", data["token"], None).get_json()
    best = shown["best"]
    right = answer(client, "nearest-hand", data["token"], best).get_json()
    assert right["correct"] is True and right["score"] == 1
    module = drills.get("nearest-hand")
    analysis = module.generate(5, 2, house_card()).key
    far = next(r for r in reversed(analysis.lines) if r.distance is not None and r.distance > analysis.nearest.distance)
    wrong = answer(client, "nearest-hand", data["token"], far.line.id).get_json()
    assert wrong["correct"] is False and wrong["best"] == best and wrong["score"] < 1
    assert "H1" in wrong["rules"] and "J2" in wrong["rules"]


# -- bad input: never a 500 --------------------------------------------------------


@pytest.mark.parametrize("url", ["/api/drills/name-the-tile/questions", "/api/drills/name-the-tile/answers"])
def test_bad_json_is_400(client, url):
    assert_error(post(client, url, "{not json"), 400, "not valid JSON")
    assert_error(post(client, url, b"\xff\xfe"), 400, "not valid JSON")
    assert_error(post(client, url, ""), 400, "empty")
    assert_error(post(client, url, "[1, 2]"), 400, "JSON object")
    assert_error(post(client, url, "null"), 400, "JSON object")
    assert_error(post(client, url, '"text"'), 400, "JSON object")


@pytest.mark.parametrize("url", ["/api/drills/name-the-tile/questions", "/api/drills/nearest-hand/answers"])
@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None]
)
def test_non_json_content_type_is_415(client, url, content_type):
    if content_type is None:
        response = client.post(url, data='{"level": 1}')
    else:
        response = client.post(url, data='{"level": 1}', content_type=content_type)
    assert_error(response, 415, "application/json")


def test_json_with_charset_is_accepted(client):
    response = client.post(
        "/api/drills/name-the-tile/questions", data='{"seed": 1}', content_type="application/json; charset=utf-8"
    )
    assert response.status_code == 201


def test_unknown_drill_is_404(client):
    assert_error(post(client, "/api/drills/mystery/questions", {}), 404, 'no drill "mystery"', "name-the-tile")
    assert_error(post(client, "/api/drills/mystery/answers", {"token": "x", "answer": None}), 404, "mystery")


def test_unknown_drill_is_404_even_with_a_bad_body(client):
    assert_error(post(client, "/api/drills/mystery/questions", "{bad"), 404, "mystery")


@pytest.mark.parametrize("level", [0, 5, -1, 1.5, "1", True, [1], {"n": 1}])
def test_bad_level_is_400(client, level):
    assert_error(post(client, "/api/drills/name-the-tile/questions", {"level": level}), 400, "level")


def test_level_range_depends_on_the_drill(client):
    assert post(client, "/api/drills/name-the-tile/questions", {"level": 4}).status_code == 201
    assert_error(post(client, "/api/drills/nearest-hand/questions", {"level": 4}), 400, "from 1 to 3")


@pytest.mark.parametrize("seed", [-1, 2**53, 1.5, "7", True, [1]])
def test_bad_seed_is_400(client, seed):
    assert_error(post(client, "/api/drills/name-the-tile/questions", {"seed": seed}), 400, "seed")


def test_unknown_keys_are_400(client):
    assert_error(post(client, "/api/drills/name-the-tile/questions", {"levle": 1}), 400, 'unknown key "levle"')
    data = ask(client)
    body = {"token": data["token"], "answer": None, "extra": 1}
    assert_error(post(client, "/api/drills/name-the-tile/answers", body), 400, '"extra"')


def test_missing_token_or_answer_is_400(client):
    data = ask(client)
    assert_error(post(client, "/api/drills/name-the-tile/answers", {"answer": "5D"}), 400, '"token" is missing')
    no_answer = post(client, "/api/drills/name-the-tile/answers", {"token": data["token"]})
    assert_error(no_answer, 400, '"answer" is missing')


@pytest.mark.parametrize("token", ["", "garbage", 42, None, ["x"], {"drill": "name-the-tile"}])
def test_bad_token_is_400(client, token):
    assert_error(post(client, "/api/drills/name-the-tile/answers", {"token": token, "answer": "5D"}), 400, "token")


def test_altered_token_is_400(client):
    token = ask(client, seed=5)["token"]
    payload, signature = token.split(".")
    flipped = signature[:-1] + ("A" if signature[-1] != "A" else "B")
    for bad in (f"{payload}.{flipped}", f"{payload[:-2]}.{signature}", token + "x", token[1:]):
        assert_error(answer(client, "name-the-tile", bad, "5D"), 400, "not valid", "altered")


def test_forged_token_is_400(client):
    forged = URLSafeSerializer("another-secret", salt=TOKEN_SALT).dumps(
        {"drill": "name-the-tile", "seed": 5, "level": 1, "card": CARD_NAME}
    )
    assert_error(answer(client, "name-the-tile", forged, "5D"), 400, "not valid")
    # right key, wrong salt: still refused
    salted = URLSafeSerializer("test-secret-key-not-for-production", salt="other").dumps(
        {"drill": "name-the-tile", "seed": 5, "level": 1, "card": CARD_NAME}
    )
    assert_error(answer(client, "name-the-tile", salted, "5D"), 400, "not valid")


def test_token_with_extra_or_missing_fields_is_400(app, client):
    signer = URLSafeSerializer(app.config["SECRET_KEY"], salt=TOKEN_SALT)
    for payload in (
        {"drill": "name-the-tile", "seed": 5, "level": 1},
        {"drill": "name-the-tile", "seed": 5, "level": 1, "card": CARD_NAME, "answer": "5D"},
        {"drill": "name-the-tile", "seed": None, "level": 1, "card": CARD_NAME},
        {"drill": "name-the-tile", "seed": 5, "level": 9, "card": CARD_NAME},
        ["name-the-tile", 5, 1, CARD_NAME],
    ):
        assert_error(answer(client, "name-the-tile", signer.dumps(payload), "5D"), 400)


def test_token_for_another_drill_or_card_is_400(app, client):
    token = ask(client, "nearest-hand", seed=5)["token"]
    assert_error(answer(client, "name-the-tile", token, "5D"), 400, 'for the drill "nearest-hand"')
    signer = URLSafeSerializer(app.config["SECRET_KEY"], salt=TOKEN_SALT)
    other = signer.dumps({"drill": "name-the-tile", "seed": 5, "level": 1, "card": "Another Card"})
    assert_error(answer(client, "name-the-tile", other, "5D"), 400, "Another Card", "new question")


@pytest.mark.parametrize("value", [5, 1.5, True, [], ["5D"], {"tile": "5D"}, "", "  "])
def test_answer_of_the_wrong_shape_is_400(client, value):
    token = ask(client, seed=5, level=1)["token"]
    assert_error(answer(client, "name-the-tile", token, value), 400)
    token = ask(client, "nearest-hand", seed=5, level=1)["token"]
    assert_error(answer(client, "nearest-hand", token, value), 400)


def test_unknown_tile_is_400_where_choices_are_tiles(client):
    token = ask(client, seed=5, level=1)["token"]
    assert_error(answer(client, "name-the-tile", token, "dragonfly"), 400, '"dragonfly" is not a tile')


def test_typo_is_graded_wrong_where_the_name_is_typed(client):
    token = ask(client, seed=5, level=2)["token"]
    response = answer(client, "name-the-tile", token, "5 dto")
    assert response.status_code == 200 and response.get_json()["correct"] is False


def test_unknown_line_is_400_naming_it(client):
    token = ask(client, "nearest-hand", seed=5)["token"]
    assert_error(answer(client, "nearest-hand", token, "NOPE-1"), 400, '"NOPE-1"')


def test_wrong_method_and_unknown_routes_answer_json(client):
    assert_error(client.get("/api/drills/name-the-tile/questions"), 405, "GET")
    assert_error(client.put("/api/drills", json={}), 405)
    assert_error(client.get("/api/nothing"), 404, "/api/drills")
    assert_error(client.get("/api"), 404)


def test_a_405_names_the_methods_the_route_takes_in_allow(client):
    wrong = client.get("/api/drills/name-the-tile/questions")
    assert wrong.status_code == 405 and wrong.headers["Allow"] == "OPTIONS, POST"  # as HTTP requires
    assert set(client.put("/api/drills", json={}).headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    page = client.put("/signin")  # a page's 405 says it too
    assert page.status_code == 405 and "POST" in page.headers["Allow"].split(", ")


def test_too_large_body_is_413_json(client):
    body = json.dumps({"seed": 1, "pad": "x" * 100_000})
    assert_error(post(client, "/api/drills/name-the-tile/questions", body), 413)


def test_api_takes_no_csrf_token(app):
    """CSRF protection is on for the pages but the API is exempt (JSON only)."""
    assert app.config.get("WTF_CSRF_ENABLED", True)
    client = app.test_client()
    assert post(client, "/api/drills/name-the-tile/questions", {"seed": 1}).status_code == 201


@pytest.mark.server_error
def test_an_unexpected_error_is_a_json_500_without_a_traceback(app, client, monkeypatch):
    module = drills.get("name-the-tile")

    def broken(question, value):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(module, "grade", broken)
    token = ask(client, seed=1)["token"]
    response = answer(client, "name-the-tile", token, "5D")
    assert_error(response, 500, "unexpected")
    assert "secret internals" not in response.get_data(as_text=True)
