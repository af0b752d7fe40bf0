"""Where the web app finds its files, from a checkout or installed from the wheel.

The repository keeps `templates/` and `static/` at its top level; the wheel
maps them into `coach/web/` (pyproject's `package-dir`), so an installed
app finds them beside this module. The instance folder (secret key, SQLite
file) is the data folder setting (`coach.common.settings.DATA_DIR`) when
set, else `instance/` in a checkout as it always was, else the user's data
folder (platformdirs), since an installed package's own folder may be
read-only and is replaced by every upgrade.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_dir

from coach.common.settings import DATA_DIR

# This module is coach/web/infra/places.py; the app's files are found from coach/web/.
PACKAGE = Path(__file__).resolve().parents[1]
CHECKOUT = PACKAGE.parents[1]
APP_NAME = "mahjong-coach"


def in_checkout() -> bool:
    """Run from the repository (plain or editable install), not from an installed wheel."""
    return (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "templates").is_dir()


def asset_folder(name: str) -> Path:
    """`templates` or `static`: the installed copy, else the checkout's own."""
    installed = PACKAGE / name
    return installed if installed.is_dir() else CHECKOUT / name


def instance_folder(data_dir: Path | None = None) -> Path:
    """`data_dir` (the app's resolved setting), else the environment's, else the default."""
    data_dir = data_dir or DATA_DIR.read(os.environ)
    if data_dir:
        return Path(data_dir).resolve()
    if in_checkout():
        return CHECKOUT / "instance"
    return Path(user_data_dir(APP_NAME, appauthor=False))
