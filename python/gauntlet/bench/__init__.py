"""Performance side by side (docs/performance.md): the runs, A/B of builds and the plot."""
