"""The learners' progress in a database: SQLModel tables, Alembic migrations.

SQLite in the instance folder by default (WAL journal, foreign keys on),
PostgreSQL when COACH_DATABASE_URL names one. The schema only ever moves
by migrations, applied on start, so an upgrade never loses a learner's
history.
"""
