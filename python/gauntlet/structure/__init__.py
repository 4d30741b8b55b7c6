"""The structure rules `make test` enforces (docs/harness.md, "Structure rules")."""
