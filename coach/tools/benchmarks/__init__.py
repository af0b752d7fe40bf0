"""Benchmarks: each prints times and asserts nothing (`python -m coach.tools.benchmarks.NAME`).

They are not tests (pytest never collects them); some compare the code with an
earlier revision of itself, which a test could not do on a loaded machine."""
