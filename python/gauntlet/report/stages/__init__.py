"""The stages of `make report` (gauntlet/report/README.md, "Stages and what they read"), one
module each: hostile, sweep, peer, ort, fuzz, matrix. Each takes the options and the stage
record and returns its section of report.json."""
