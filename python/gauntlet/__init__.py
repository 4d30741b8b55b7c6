"""Helpers shared by the project's Python scripts (report, matrix, corpus release, tests).

    paths     where things are: the repository, the interpreter, the corpus, the rules page,
              the backend test data
    kinds     the error kinds and the file-name prefixes that name them
    rules     docs/rules.md's rule IDs, parsed strictly
    manifest  the hostile corpus manifest, read strictly
    known     expected-failure lists (sweep/known/<peer>.txt) and the check that keeps them current
    text      a message on one line
    data_types  bits per element of each tensor element type

Scripts add tools/ to sys.path and `import gauntlet.paths` and so on; nothing here
imports onnx or any package outside the standard library.
"""
