"""Shared fixtures for the rune.literate tests: the fixture pages and copies of them."""

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixtures_dir() -> Path:
    """The directory of fixture pages (never collected as tests themselves)."""
    return FIXTURES


@pytest.fixture
def fixture_text():
    """Read a fixture page's exact text, line endings as stored."""

    def read(name: str) -> str:
        with open(FIXTURES / name, encoding="utf-8", newline="") as file:
            return file.read()

    return read


@pytest.fixture
def copy_fixture(tmp_path):
    """Copy a fixture page into a temporary directory; return the copy's path."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copyfile(FIXTURES / name, target)
        return target

    return copy
