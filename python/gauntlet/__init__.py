"""The harness of onnx-gauntlet, one package run as `python3 -m gauntlet <command>`
(`python3 -m gauntlet --help` lists the commands; docs/harness.md describes the layout).

    settings    where things are: the repository, the interpreter, the build folder, the
                corpus, the one resolver of the backend test data
    kinds       the error kinds and the file-name prefixes that name them
    rules       docs/rules.md's rule IDs, parsed strictly
    manifest    the hostile corpus manifest, read strictly
    known       expected-failure lists (sweep/known/<peer>.txt) and the check that keeps them current
    text        a message on one line
    data_types  bits per element of each tensor element type
    report, sweep, ort, fuzz, bench, corpus, cli, structure   one subpackage per command

Modules import each other by their full name (`from gauntlet import settings`); tests sit
beside their modules as *_test.py and run through `python3 -m gauntlet test`.
"""
