"""The pass, discard and simulate-charleston commands."""

import io
import json

from coach.cli import main
from coach.notation import tiles
from coach.notation.card import house_card
from coach.tools import simulate_charleston as simulate

NEAR = "F F F N N N N GD GD S S 5D 9C 2B"


def run(argv, stdin=""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def test_pass_json_shape():
    code, out = run(["pass", "--rack", NEAR, "--seed", "3", "--json"])
    assert code == 0
    data = json.loads(out)
    assert sorted(data["best"]) == ["2B", "5D", "9C"]
    assert {"tiles", "expected", "stderr"} <= set(data["ranked"][0])
    assert data["ranked"][0]["tiles"] == data["best"]
    assert data["explanation"] and all(isinstance(line, str) for line in data["explanation"])
    assert all("J" not in r["tiles"] for r in data["ranked"])


def test_pass_same_seed_same_answer():
    assert run(["pass", "--rack", NEAR, "--seed", "9", "--json"]) == run(["pass", "--rack", NEAR, "--seed", "9", "--json"])


def test_pass_table_and_batch():
    code, out = run(["pass", "--rack", NEAR, "--top", "3"])
    assert code == 0 and "expected" in out and "best pass" in out
    lines = '{"rack": "%s", "seed": 1}\n{"rack": "J J"}\n{"rack": "%s", "which": "first-left"}\n' % (NEAR, NEAR)
    code, out = run(["pass"], lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 3 and "error" in answers[1] and "best" in answers[2]


def test_pass_errors(capsys):
    assert run(["pass", "--rack", "1D 2D"])[0] == 2
    assert "13 or 14 tiles" in capsys.readouterr().err
    code, out = run(["pass"], '{"rack": "%s", "which": "sideways"}\n{"rack": "%s", "seed": "x"}\n' % (NEAR, NEAR))
    errors = [json.loads(line)["error"] for line in out.splitlines()]
    assert '"which" must be one of' in errors[0] and '"seed" must be a whole number' in errors[1]


def test_discard_json_and_others():
    argv = ["discard", "--rack", "F F F N N N N GD GD GD S S S 9C", "--others", "7B 7B 7B | E E E", "--json"]
    code, out = run(argv)
    data = json.loads(out)
    assert code == 0 and data["best"] == "9C"
    assert {"tile", "distance", "live_outs", "hot", "safe"} <= set(data["ranked"][0])


def test_discard_checks_the_supply_with_the_others_exposures(capsys):
    code, _ = run(["discard", "--rack", "F F F N N N N GD GD GD S S S 9C", "--others", "N N N"])
    assert code == 2
    assert "but a set has only 4" in capsys.readouterr().err


def test_discard_batch():
    lines = json.dumps({"rack": "F F F N N N N GD GD GD S S S 9C", "others": [["7B 7B 7B", "E E E"]], "late": True}) + "\n"
    lines += json.dumps({"rack": "F F F N N N N GD GD GD S S S 9C", "late": "yes"}) + "\n"
    code, out = run(["discard"], lines)
    first, second = [json.loads(line) for line in out.splitlines()]
    assert first["best"] == "9C" and '"late" must be true or false' in second["error"]


def test_simulate_charleston_prints_every_policy():
    code, out = run(["simulate-charleston", "--deals", "2", "--draws", "8", "--samples", "16"])
    assert code == 0
    for text in simulate.POLICY_TEXT.values():
        assert text in out
    assert "Mah Jongg share" in out


def test_baseline_policies_pass_three_legal_tiles():
    import random

    card = house_card()
    for seed in range(20):
        racks, _ = simulate.deal(seed)
        for name, policy in [("random", simulate.random_policy), ("nearest", simulate.nearest_three_policy),
                             ("least", simulate.least_suit_policy)]:
            rack = racks[seed % 4]
            chosen = policy(card, rack, [], random.Random(seed))
            assert len(chosen) == 3 and tiles.JOKER not in chosen, name
            left = list(rack)
            for t in chosen:
                left.remove(t)  # raises if a tile is not on the rack


def test_second_charleston_pass_carries_the_stop_vote():
    code, out = run(["pass", "--rack", "F F F N N N N GD GD GD S S S", "--which", "second-left", "--json"])
    data = json.loads(out)
    assert code == 0 and data["stop"] is True
    assert "C2" in data["explanation"][0]
    code, out = run(["pass", "--rack", NEAR, "--json"])
    assert "stop" not in json.loads(out)
