"""coach.common.kept: the last few results, by key and owner, bounded (issue 13)."""

import threading

from coach.common.kept import Kept


class Owner:
    pass


def test_kept_by_key_and_owner_oldest_out_first():
    kept: Kept[int] = Kept(2)
    made = []

    def make(n):
        return lambda: made.append(n) or n

    a, b = Owner(), Owner()
    assert kept.get("x", make(1), owner=a) == 1
    assert kept.get("x", make(2), owner=a) == 1  # kept
    assert kept.get("x", make(3), owner=b) == 3  # another owner under the same key: made afresh
    assert kept.get("y", make(4)) == 4
    assert kept.get("x", make(5), owner=b) == 3  # used last: stays
    assert kept.get("z", make(6)) == 6  # "y" goes, the least recently used
    assert list(kept) == ["x", "z"] and len(kept) == 2
    assert kept.get("y", make(7)) == 7
    assert made == [1, 3, 4, 6, 7]
    kept.clear()
    assert len(kept) == 0


def test_kept_from_many_threads_stays_bounded_and_right():
    kept: Kept[int] = Kept(16)
    wrong = []

    def work(offset):
        for n in range(400):
            key = (n + offset) % 40
            if kept.get(key, lambda: key * key) != key * key:
                wrong.append(key)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wrong == [] and len(kept) <= 16
