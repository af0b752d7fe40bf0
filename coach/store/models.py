"""The tables. Times are aware UTC datetimes in and out (UTCDateTime refuses a
naive one); a learner's own day comes from their time zone when streaks and
daily goals are counted."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, ForeignKey, Index, Integer, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from coach.common.clock import now
from coach.store.utc_datetime import UTCDateTime

# SQLite hands a deleted row's id to the next row unless a table says
# AUTOINCREMENT: ids are never reused, so nothing cached or remembered under
# an old id (a card, a signed-in learner) can ever point at a newcomer.
# (PostgreSQL's sequences never reuse a number.) Migration 0005 rebuilt the tables so.
NEVER_REUSED = {"sqlite_autoincrement": True}


class Learner(SQLModel, table=True):
    """A learner; a guest until they sign up (email and password set)."""

    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    email: str | None = Field(default=None, unique=True, index=True, max_length=254)
    password_hash: str | None = Field(default=None, max_length=255)
    name: str = Field(default="", max_length=80)
    guest: bool = Field(default=True)
    role: str = Field(default="learner", max_length=16)
    time_zone: str = Field(default="UTC", max_length=64)
    daily_goal: int = Field(default=10)
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class Attempt(SQLModel, table=True):
    """One graded answer. A question (drill, level, seed, card) counts once a learner."""

    __table_args__ = (UniqueConstraint("learner_id", "question", name="uq_attempt_learner_question"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(
        sa_column=Column(Integer, ForeignKey("learner.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    drill: str = Field(max_length=40, index=True)
    level: int
    seed: int
    card: str = Field(max_length=120)
    question: str = Field(max_length=240)  # "drill|level|seed|card": what counts once
    answer: str  # the learner's answer as JSON (null: "show me")
    correct: bool
    score: float
    items: str = Field(default="[]")  # JSON [[skill item, right?], ...]
    explanation: str = Field(default="[]")  # JSON list of the verdict's lines
    rules: str = Field(default="[]")  # JSON list of rule ids
    best: str = Field(default="null")  # JSON best answer
    time_taken_ms: int | None = Field(default=None)
    answered_at: datetime = Field(default_factory=now, index=True, sa_type=UTCDateTime)


class SkillState(SQLModel, table=True):
    """A learner's review schedule for one skill (fsrs card), updated with each stored answer.

    Skills are a drill at a level ("name-the-tile:2") and the finer items a
    question exercises ("tile:5D", "rule:J2")."""

    __table_args__ = (UniqueConstraint("learner_id", "skill", name="uq_skill_learner_skill"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(
        sa_column=Column(Integer, ForeignKey("learner.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    skill: str = Field(max_length=80)
    card: str  # the fsrs Card as JSON
    due: datetime = Field(index=True, sa_type=UTCDateTime)
    reviews: int = Field(default=0)
    updated_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class DailySession(SQLModel, table=True):
    """Today's practice for one learner: the questions planned and how far they got.

    Planned once a day (the learner's own day), so a reload carries on
    where they left off instead of planning again."""

    __table_args__ = (UniqueConstraint("learner_id", "day", name="uq_daily_learner_day"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(
        sa_column=Column(Integer, ForeignKey("learner.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    day: str = Field(max_length=10)  # the learner's local date, ISO
    plan: str  # JSON [[drill, level, seed, why], ...]
    position: int = Field(default=0)  # questions done or skipped
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


# -- teaching: classes, cards, drill sets, assignments --------------------------------


def _owner(table: str = "learner.id") -> Column:
    return Column(Integer, ForeignKey(table, ondelete="CASCADE"), nullable=False, index=True)


class Classroom(SQLModel, table=True):
    """A teacher's class; students join it with its code."""

    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    teacher_id: int = Field(sa_column=_owner())
    name: str = Field(max_length=80)
    join_code: str = Field(max_length=16, unique=True, index=True)
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class Membership(SQLModel, table=True):
    """A student in a class. Leaving or being removed deletes this row only:
    the student's answers stay theirs and come back if they join again."""

    __table_args__ = (
        UniqueConstraint("classroom_id", "learner_id", name="uq_membership_class_learner"),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    classroom_id: int = Field(sa_column=_owner("classroom.id"))
    learner_id: int = Field(sa_column=_owner())
    joined_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class TeacherCard(SQLModel, table=True):
    """A card file a teacher uploaded: private to them and their classes.

    Kept as the text they sent (the YAML), parsed again when a question
    needs it; a card never changes once uploaded, so questions asked on it
    stay the same questions."""

    __table_args__ = (UniqueConstraint("owner_id", "name", name="uq_teachercard_owner_name"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(sa_column=_owner())
    name: str = Field(max_length=120)  # the card's own name, unique for its teacher
    source: str  # the YAML text
    lines: int = Field(default=0)  # hands on the card, for lists
    uploaded_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class CardChoice(SQLModel, table=True):
    """The card a learner's drills deal from when it is not the house card:
    one of their own, or a class's card they have an assignment on. Checked
    again at every use (the card may be gone, the class left): then the
    house card. No row: the house card. Deleting the card deletes the
    choice (the foreign key cascades)."""

    __tablename__ = "cardchoice"
    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(
        sa_column=Column(Integer, ForeignKey("learner.id", ondelete="CASCADE"), nullable=False, unique=True)
    )
    card_id: int = Field(
        sa_column=Column(Integer, ForeignKey("teachercard.id", ondelete="CASCADE"), nullable=False, index=True)
    )
    chosen_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class DrillSetRow(SQLModel, table=True):
    """A teacher's drill set, kept as its canonical YAML (drills/sets.py)."""

    __tablename__ = "drillset"
    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    owner_id: int = Field(sa_column=_owner())
    title: str = Field(max_length=80)
    source: str  # canonical YAML of the set
    card_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("teachercard.id"), nullable=True, index=True)
    )
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class Assignment(SQLModel, table=True):
    """A drill set given to a class. The set is copied in when assigned, so
    editing the set later never changes what a class is working on."""

    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    classroom_id: int = Field(sa_column=_owner("classroom.id"))
    title: str = Field(max_length=80)
    source: str  # canonical YAML of the set as assigned
    card_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("teachercard.id"), nullable=True, index=True)
    )
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class AssignmentWork(SQLModel, table=True):
    """One student's copy of an assignment: the seed of their questions
    (the set's own with fixed seeds, their own with fresh seeds)."""

    __table_args__ = (
        UniqueConstraint("assignment_id", "learner_id", name="uq_work_assignment_learner"),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    assignment_id: int = Field(sa_column=_owner("assignment.id"))
    learner_id: int = Field(sa_column=_owner())
    seed: int
    started_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class AssignmentAnswer(SQLModel, table=True):
    """A student's answer to one question of an assignment: the first one counts."""

    __table_args__ = (
        UniqueConstraint("assignment_id", "learner_id", "slot", name="uq_assignment_answer_slot"),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    assignment_id: int = Field(sa_column=_owner("assignment.id"))
    learner_id: int = Field(sa_column=_owner())
    slot: int
    drill: str = Field(max_length=40)
    level: int
    seed: int
    answer: str  # JSON (null: "show me")
    answer_text: str = Field(default="", max_length=240)  # the answer as a teacher reads it
    correct: bool
    score: float
    explanation: str = Field(default="[]")  # JSON list of the verdict's lines
    answered_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


# -- sign-in sessions ---------------------------------------------------------------


class LoginSession(SQLModel, table=True):
    """One signed-in browser: the cookie holds "<learner id>:<token>", this row
    holds the token's SHA-256 only, so a stolen database opens no browser.

    A session ends on sign-out, on "Sign out everywhere", on a password
    change or reset, and 30 days after it began; a cookie naming an ended
    (or deleted) row opens nothing. AUTOINCREMENT: a row id is never reused."""

    __tablename__ = "login_session"
    __table_args__ = {"sqlite_autoincrement": True}

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(sa_column=_owner())
    token_hash: str = Field(max_length=64, unique=True, index=True)  # sha256 hex of the cookie's token
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    last_seen_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    ended_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


# -- practice hands against the computer -------------------------------------------------


class PracticeHand(SQLModel, table=True):
    """A practice hand a learner plays against three computer players
    (coach/play/hand.py): its seed, card and actions so far rebuild it exactly,
    so it resumes after a reload or on another device."""

    __tablename__ = "practice_hand"
    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(sa_column=_owner())
    seed: int
    card: str = Field(max_length=120)  # the card's name, as questions name it
    seat: str = Field(default="East", max_length=8)  # the learner's seat
    bots: str = Field(default="club", max_length=12)  # the computer players' strength
    actions: str = Field(default="[]")  # JSON list of every action, the bots' too
    hints: int = Field(default=0)  # "What would the coach do?" presses
    result: str = Field(default="null")  # JSON: winner, how, line, pays (once over)
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    # The table rules it is played under (TableRules.to_json; "{}": the League's), so that
    # it replays exactly. NULL: stored before the switches existed, played with C6 on
    # (TableRules.from_record; coach/store/table_rules.py reads it).
    rules: str | None = Field(default="{}")


class ClassHand(SQLModel, table=True):
    """A practice hand a teacher gives a class (issue 16, part 6): every
    student plays the same deal (seed) against the same computer players,
    on the class's card (card_id) or the house card (None)."""

    __tablename__ = "class_hand"
    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    classroom_id: int = Field(sa_column=_owner("classroom.id"))
    title: str = Field(max_length=80)
    seed: int
    bots: str = Field(default="club", max_length=12)
    card_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("teachercard.id"), nullable=True, index=True)
    )
    due_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    # The class's table rules when the hand was given, kept with it: every student plays
    # the same deal under the same rules, so their hands compare. NULL: given before the
    # switches existed (its students' hands were played with C6 on; TableRules.from_record).
    rules: str | None = Field(default="{}")


class ClassHandPlay(SQLModel, table=True):
    """A student's own hand of a class hand: one per student (a second
    start resumes the first). The hand itself is an ordinary practice hand."""

    __tablename__ = "class_hand_play"
    __table_args__ = (
        UniqueConstraint("class_hand_id", "learner_id", name="uq_class_hand_play_learner"),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    class_hand_id: int = Field(sa_column=_owner("class_hand.id"))
    learner_id: int = Field(sa_column=_owner())
    hand_id: int = Field(sa_column=Column(Integer, ForeignKey("practice_hand.id", ondelete="CASCADE"), nullable=False, unique=True))


# -- lessons --------------------------------------------------------------------------


class LessonProgress(SQLModel, table=True):
    """One learner's way through one lesson (drills/lessons.py): the checks
    answered right so far, and when the last of them was, which finishes it."""

    __tablename__ = "lesson_progress"
    __table_args__ = (UniqueConstraint("learner_id", "lesson", name="uq_lesson_learner_lesson"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(sa_column=_owner())
    lesson: str = Field(max_length=40)  # the lesson's slug
    passed: str = Field(default="[]")  # JSON list of check ids answered right
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    updated_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


# -- display settings ---------------------------------------------------------------------


class LearnerDisplay(SQLModel, table=True):
    """A learner's display settings (coach/web/account/display.py); no row means the defaults.

    A table of its own, not columns on `learner`, so that learners' rows stay as they were."""

    __tablename__ = "learner_display"
    __table_args__ = (UniqueConstraint("learner_id", name="uq_display_learner"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(sa_column=_owner())
    theme: str = Field(default="system", max_length=8)  # "system" follows the device's dark mode
    tile_size: str = Field(default="normal", max_length=8)


class LearnerRules(SQLModel, table=True):
    """A learner's own table rules (coach/store/table_rules.py): their practice hands and
    their own drills use them; no row means the League's rules. A table of its own, as
    `learner_display`, so that learners' rows stay as they were."""

    __tablename__ = "learner_rules"
    __table_args__ = (UniqueConstraint("learner_id", name="uq_learner_rules_learner"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(sa_column=_owner())
    rules: str = Field(default="{}")  # TableRules.to_json
    updated_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class ClassRules(SQLModel, table=True):
    """A class's table rules, set by its teacher (coach/store/teaching/classrooms.py):
    its assignments' questions and the class hands given from then on use them; no
    row means the League's rules. A table of its own, so that classes' rows stay as they were."""

    __tablename__ = "class_rules"
    __table_args__ = (UniqueConstraint("classroom_id", name="uq_class_rules_classroom"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    classroom_id: int = Field(sa_column=_owner("classroom.id"))
    rules: str = Field(default="{}")  # TableRules.to_json
    updated_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class ReplayPosition(SQLModel, table=True):
    """A decision of a finished practice hand to ask again ("replay this
    position", coach/play/positions.py): the hand and the decision's number in its
    record, with the position's own review schedule (fsrs card) and its last answer."""

    __tablename__ = "replay_position"
    __table_args__ = (UniqueConstraint("hand_id", "number", name="uq_replay_position_hand_number"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    learner_id: int = Field(sa_column=_owner())
    hand_id: int = Field(sa_column=_owner("practice_hand.id"))
    number: int  # the decision's index in the hand's actions
    schedule: str = Field(default="")  # the fsrs Card as JSON ("" until the first answer)
    due: datetime = Field(index=True, sa_type=UTCDateTime)
    reviews: int = Field(default=0)
    last_answer: str = Field(default="null")  # JSON, in the drill's answer shape
    last_correct: bool | None = Field(default=None)
    answered_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)


class HandReview(SQLModel, table=True):
    """The coach's review of one seat's decisions in a practice hand, computed
    once in the background (coach/store/reviews.py) and kept: while it runs,
    how far it has got; once done, the review as JSON (coach/play/review.py).
    `moves` and `version` say what it was made from: a review of fewer moves
    than the hand now has, or graded by an older REVIEW_VERSION, is made again."""

    __tablename__ = "hand_review"
    __table_args__ = (UniqueConstraint("hand_id", "seat", name="uq_hand_review_hand_seat"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(sa_column=_owner("practice_hand.id"))
    seat: str = Field(max_length=8)
    status: str = Field(max_length=8)  # running, done, failed
    attempt: int = Field(default=1)  # which claim is working on it: a write from an older one is refused
    moves: int  # the hand's actions reviewed
    version: int  # REVIEW_VERSION it was graded with
    done: int = Field(default=0)  # decisions graded so far
    total: int = Field(default=0)  # decisions to grade (0 until the first is graded)
    review: str = Field(default="null")  # JSON: Review.to_json() once done
    error: str = Field(default="", max_length=200)  # why it failed, in one line
    started_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    heartbeat_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)  # its worker's last sign of life
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


# -- tables with friends and classes (issue 28) -------------------------------------------


class GameTable(SQLModel, table=True):
    """A table people play at together, live, with computer players in the empty
    seats (coach/play/people.py; coach/store/tables.py). Friends join with its
    short code; a class table (`class_id`) is for its class's members."""

    __tablename__ = "game_table"
    __table_args__ = NEVER_REUSED

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(max_length=16, unique=True, index=True)  # the join code, read aloud and typed
    host_id: int = Field(sa_column=_owner())
    card: str = Field(max_length=120)  # the card's name, as a practice hand names it
    rules: str = Field(default="{}")  # TableRules.to_json: each hand keeps its own copy when dealt
    bots: str = Field(default="club", max_length=12)  # the computer players' strength
    settings: str = Field(default="{}")  # TableSettings.to_json (coach/play/people.py)
    kind: str = Field(default="friends", max_length=8)  # friends, waits or class
    class_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("classroom.id", ondelete="CASCADE"), nullable=True, index=True)
    )
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    # The class round the table was seated for (coach/store/class_tables.py); None at any other table.
    round_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("class_round.id", ondelete="CASCADE"), nullable=True, index=True)
    )


class ClassRound(SQLModel, table=True):
    """A class seated at tables by its teacher (issue 28, item 5): every table of
    the round plays the same deal (seed), card and table rules, so the dashboard
    compares them decision by decision. `started_at` is set once, by a compare
    and set, when the teacher starts the hand at every table together. A class
    has one round not yet started at most (`uq_class_round_open`, migration
    0019): "Seat the class" sent twice seats it once."""

    __tablename__ = "class_round"
    __table_args__ = (
        Index(
            "uq_class_round_open", "classroom_id", unique=True,
            sqlite_where=text("started_at IS NULL"), postgresql_where=text("started_at IS NULL"),
        ),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    classroom_id: int = Field(sa_column=_owner("classroom.id"))
    seed: int
    card: str = Field(max_length=120)  # the card's key, as the tables name it
    rules: str = Field(default="{}")  # TableRules.to_json: the class's rules when it was seated
    bots: str = Field(default="club", max_length=12)  # the computer players' strength
    created_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    started_at: datetime | None = Field(default=None, sa_type=UTCDateTime)


class TableSeat(SQLModel, table=True):
    """One seat of a table: a person's (`learner_id`) or, with none, a computer
    player's. One person holds one seat of a table at most, and a seat one person."""

    __tablename__ = "table_seat"
    __table_args__ = (
        UniqueConstraint("table_id", "seat", name="uq_table_seat_seat"),
        UniqueConstraint("table_id", "learner_id", name="uq_table_seat_learner"),
        NEVER_REUSED,
    )

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(sa_column=_owner("game_table.id"))
    seat: str = Field(max_length=8)  # East, South, West or North
    learner_id: int | None = Field(
        default=None, sa_column=Column(Integer, ForeignKey("learner.id", ondelete="SET NULL"), nullable=True, index=True)
    )
    present: bool = Field(default=False)  # at the table now; away, the table goes on or waits by its kind
    last_seen: int = Field(default=0)  # the state number (coach/play/seat_view.py) last sent to this seat
    seen_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # the person's page or stream last heard from


class TableHand(SQLModel, table=True):
    """One hand played at a table: its seed, rules and actions rebuild it exactly
    (coach/play/hand.py); `held` are the answers of the decision still open
    (coach/play/people.py). `version` grows with every save: a save on an older
    version is refused (compare and set), so two moves at once never both land."""

    __tablename__ = "table_hand"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_table_hand_number"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(sa_column=_owner("game_table.id"))
    number: int  # the table's hands counted from 1
    seed: int
    rules: str = Field(default="{}")  # the table's rules when it was dealt (TableRules.to_json)
    actions: str = Field(default="[]")  # JSON list of every action in the hand
    held: str = Field(default="[]")  # JSON list of the answers held for the open decision
    version: int = Field(default=0)
    result: str = Field(default="null")  # JSON: winner, how, line, pays (once over)
    started_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    moved_at: datetime | None = Field(default=None, sa_type=UTCDateTime)  # the last save
    # JSON {seat: [kind, state number, ISO time]}: each person's decision owed at the last
    # save and when it was put to them, which their turn timer runs from (None: not recorded)
    owed: str | None = Field(default=None)


class TableHandReview(SQLModel, table=True):
    """One person's review of their own seat in a table hand: a `HandReview` in every
    column, keyed by the table hand and seat (coach/store/reviews.py serves both)."""

    __tablename__ = "table_hand_review"
    __table_args__ = (UniqueConstraint("hand_id", "seat", name="uq_table_hand_review_hand_seat"), NEVER_REUSED)

    id: int | None = Field(default=None, primary_key=True)
    hand_id: int = Field(sa_column=_owner("table_hand.id"))
    seat: str = Field(max_length=8)
    status: str = Field(max_length=8)
    attempt: int = Field(default=1)
    moves: int
    version: int
    done: int = Field(default=0)
    total: int = Field(default=0)
    review: str = Field(default="null")
    error: str = Field(default="", max_length=200)
    started_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    heartbeat_at: datetime = Field(default_factory=now, sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
