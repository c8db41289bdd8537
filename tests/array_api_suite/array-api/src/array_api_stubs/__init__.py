# Vendored for rune (see tests/array_api_suite/VENDORED.txt): only the 2024.12
# revision's stubs are here, so this file no longer imports every revision.
