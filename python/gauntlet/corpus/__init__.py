"""The hostile corpus as a release for importer authors (hostile/RELEASE.md)."""
