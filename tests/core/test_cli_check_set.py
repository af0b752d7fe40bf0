"""`python -m coach check-set`: a teacher checks a drill set file before uploading it."""

from __future__ import annotations

import io

from coach.cli import main
from drills.sets import SAMPLE_FILES, SAMPLES


def run(argv):
    out = io.StringIO()
    code = main(argv, stdout=out)
    return code, out.getvalue()


def test_a_sample_set_is_valid(capsys):
    for name in SAMPLE_FILES:
        code, out = run(["check-set", str(SAMPLES / name)])
        assert code == 0 and "The set is valid" in out


def test_every_problem_is_listed_with_its_line_and_the_exit_status_is_2(tmp_path, capsys):
    path = tmp_path / "set.yaml"
    path.write_text("set: Homework\ndrills:\n  - drill: nope\n  - drill: jokers\n    level: 9\n", encoding="utf-8")
    code, out = run(["check-set", str(path)])
    assert code == 2
    lines = out.splitlines()
    assert len(lines) == 2
    assert 'line 3, drills item 1, "drill"' in lines[0] and "nope" in lines[0]
    assert "drills item 2" in lines[1] and '"level"' in lines[1] and "line 5" in lines[1]
    assert "2 problem(s)" in capsys.readouterr().err


def test_a_card_name_is_accepted_only_when_given(tmp_path, capsys):
    path = tmp_path / "set.yaml"
    path.write_text("set: Homework\ncard: Spring class\ndrills:\n  - drill: nearest-hand\n", encoding="utf-8")
    assert run(["check-set", str(path)])[0] == 2
    assert run(["check-set", str(path), "--card", "Spring class"])[0] == 0


def test_an_unreadable_file_is_one_line_on_stderr(tmp_path, capsys):
    assert run(["check-set", str(tmp_path / "missing.yaml")])[0] == 2
    assert "cannot read the drill set" in capsys.readouterr().err
