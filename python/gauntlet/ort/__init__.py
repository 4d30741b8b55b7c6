"""The .ort conformance (docs/ort.md): `python3 -m gauntlet ort <part>`."""
