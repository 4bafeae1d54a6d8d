"""Where the assistant finds its files: the source checkout it runs from, or the installed package.

Inside a checkout, ``prompts/``, ``seeds/`` and ``data/`` sit at the top of the repository.
An installed wheel carries the prompts and the seeds inside ``assistant/resources/`` (see
``[tool.setuptools.package-dir]`` in ``pyproject.toml``) and keeps its index in the user's
data dir, so ``assistant`` works from any directory.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from importlib.resources import files
from pathlib import Path

APP_NAME = "icml-assistant"
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def in_checkout(root: Path = PROJECT_ROOT) -> bool:
    """True when the package runs from its source tree (a plain checkout or an editable install)."""
    return (root / "pyproject.toml").is_file() and (root / "assistant" / "__init__.py").is_file()


def user_data_dir(
    environ: Mapping[str, str] | None = None, platform: str = sys.platform, home: Path | None = None
) -> Path:
    """The per-user data folder, as platformdirs names it: ``$XDG_DATA_HOME/icml-assistant``
    (else ``~/.local/share/…``) on Linux, ``~/Library/Application Support/…`` on macOS,
    ``%LOCALAPPDATA%\\…`` on Windows."""
    env = os.environ if environ is None else environ
    home = home or Path.home()
    if platform == "darwin":
        base = home / "Library" / "Application Support"
    elif platform.startswith("win"):
        base = Path(env.get("LOCALAPPDATA") or home / "AppData" / "Local")
    else:
        xdg = env.get("XDG_DATA_HOME", "").strip()
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".local" / "share"
    return base / APP_NAME


def default_data_dir() -> Path:
    """``data/`` in a checkout, else the user's data dir."""
    return PROJECT_ROOT / "data" if in_checkout() else user_data_dir()


def resource(name: str) -> Path:
    """A file or folder of package data (``prompts``, ``seeds``, ``seed_metadata.json``): the copy
    inside the installed package when there is one, else the checkout's top-level folder."""
    packaged = files("assistant.resources") / name
    # A wheel installs unzipped, so the resource is a real path that folders can be listed from.
    if isinstance(packaged, Path) and packaged.exists():
        return packaged
    return PROJECT_ROOT / name
