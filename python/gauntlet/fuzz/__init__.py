"""The fuzz driver (docs/fuzzing.md): libFuzzer fork mode and AFL++ campaigns, their budget,
triage by stack signature, corpus merges and campaign records."""
