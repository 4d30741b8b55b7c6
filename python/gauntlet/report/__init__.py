"""`make report`: each stage of the report, the cross-importer matrix and its peers, and the
pages it writes (gauntlet/report/README.md)."""
