"""rune.literate's settings: the ``[tool.rune-literate]`` table of pyproject.toml.

pytest polices its own configuration: an ini key that no installed plugin
declares is a warning, so ``literate_paths`` in ``[tool.pytest.ini_options]``
stops pytest (an INTERNALERROR under ``filterwarnings = error``, "Unknown config
option" under ``strict = true``) wherever rune is not installed. pytest never
reads ``[tool.rune-literate]``. The ini keys still work (the older form); a
setting given in both places is an error, so that no run guesses which one wins.

This module imports only the standard library and nothing of the package: the
light pytest plugin (`rune_literate_pytest`) loads this file alone.
"""

from __future__ import annotations

import os
import tomllib

TABLE = "[tool.rune-literate]"
# Each setting of the table, and the older pytest ini key that says the same.
INI_KEYS = {
    "paths": "literate_paths",
    "docstring_paths": "literate_docstring_paths",
    "doctest_optionflags": "literate_doctest_optionflags",
}


class SettingsError(ValueError):
    """The table is malformed, or a setting is given both there and as an ini key."""


def read_table(pyproject: str | os.PathLike) -> dict[str, list[str]]:
    """The settings of ``[tool.rune-literate]`` in ``pyproject`` ({} without the file or table).

    Raises:
      SettingsError: the file is not TOML, or the table holds an unknown setting
        or a value that is not a list of strings.
    """
    if not os.path.isfile(pyproject):
        return {}
    try:
        with open(pyproject, "rb") as file:
            table = tomllib.load(file).get("tool", {}).get("rune-literate", {})
    except tomllib.TOMLDecodeError as error:
        raise SettingsError(f"{pyproject}: not valid TOML: {error}") from None
    if not isinstance(table, dict):
        raise SettingsError(f"{pyproject}: {TABLE}: expected a table, got {table!r}")
    for key, value in table.items():
        if key not in INI_KEYS:
            raise SettingsError(f"{pyproject}: {TABLE} has no setting {key!r}; the settings "
                                f"are {', '.join(INI_KEYS)}")
        if not (isinstance(value, list) and all(isinstance(entry, str) for entry in value)):
            raise SettingsError(f"{pyproject}: {TABLE} {key}: expected a list of strings, "
                                f"got {value!r}")
    return table


def merged_settings(pyproject: str | os.PathLike, ini_setting) -> dict[str, list[str]]:
    """Every setting, from the table of ``pyproject`` or else from ``ini_setting(ini_key)``.

    Raises:
      SettingsError: as `read_table`, or a setting is given in both places.
    """
    table = read_table(pyproject)
    settings = {}
    for key, ini_key in INI_KEYS.items():
        from_ini = list(ini_setting(ini_key))
        if key in table and from_ini:
            raise SettingsError(f"{pyproject}: {TABLE} {key} and pytest's {ini_key} both set "
                                f"it; keep the table, which pytest without rune ignores")
        settings[key] = table[key] if key in table else from_ini
    return settings
