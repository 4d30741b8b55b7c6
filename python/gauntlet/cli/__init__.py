"""The CLI contract tests (docs/cli.md) and the protobuf bytes they build."""
