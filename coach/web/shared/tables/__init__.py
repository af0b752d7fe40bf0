"""A live table's hand as every web part plays it (issue 28): the HTML area
(coach/web/tables), the JSON API (coach/web/api/tables.py) and the teacher's pages.

    state.py     load a table and its current hand (`load_table`), what each seat sees
    moves.py     a person's move (`play_move`), starting a hand, seats, presence and the
                 turn timer (`tick`), each publishing on the table's push topic after it commits
    reviews.py   each person's review of their own seat, computed in the background
"""
