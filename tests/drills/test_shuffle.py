"""The drills' quick shuffle is `random.Random.shuffle`, draw for draw (issue 26)."""

from __future__ import annotations

import random

from drills.kit.shuffle import shuffle


def test_the_quick_shuffle_gives_the_same_list_and_leaves_the_same_random_state():
    for seed in range(600):
        for length in (0, 1, 2, 3, 5, 13, 64, 152, 160):
            mine, theirs = list(range(length)), list(range(length))
            ours, reference = random.Random(f"s:{seed}"), random.Random(f"s:{seed}")
            for _ in range(3):  # shuffled again from where it stands, as a deal's tries do
                shuffle(ours, mine)
                reference.shuffle(theirs)
                assert mine == theirs, (seed, length)
            assert ours.getstate() == reference.getstate(), (seed, length)


def test_a_source_of_its_own_kind_is_shuffled_by_its_own_shuffle():
    class Loaded(random.Random):
        def random(self) -> float:
            return 0.0

    items = list(range(20))
    shuffle(Loaded(1), items)
    expected = list(range(20))
    Loaded(1).shuffle(expected)
    assert items == expected
