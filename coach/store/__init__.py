"""The learners' progress in a database: SQLModel tables, Alembic migrations.

SQLite in the instance folder by default (WAL journal, foreign keys on),
PostgreSQL when the database setting (coach.common.settings) names one.
The schema only ever moves by migrations, applied on start, so an upgrade
never loses a learner's history.
"""
