"""The repository's files as the structure rules see them: build folders, dot folders, npm's and
Python's caches pruned, not walked (tests running beside the check create and remove folders in
them, and a glob that meets a folder removed under it raises FileNotFoundError)."""
import os
import pathlib

PRUNED = ("node_modules", "__pycache__")


def files(folder, suffixes):
    """Every file under `folder` whose name ends with one of `suffixes`, sorted."""
    top = str(folder)
    found = []
    for here, subfolders, names in os.walk(top):
        subfolders[:] = [d for d in subfolders
                         if d not in PRUNED and not (here == top and d.startswith(("build", ".")))]
        found += [pathlib.Path(here) / n for n in names if n.endswith(suffixes)]
    return sorted(found)
