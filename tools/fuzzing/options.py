"""A target's corpus/TARGET.options ([libfuzzer] key = value, the OSS-Fuzz format) as
libFuzzer flags; the dictionary is named relative to corpus/, as OSS-Fuzz ships it next
to the binary, and is made absolute here."""
import os

from paths import CORPUS


def read_options(target, corpus_dir=CORPUS):
    """{key: value} of the [libfuzzer] section (an absent file gives {})."""
    path = os.path.join(corpus_dir, target + ".options")
    values, section = {}, None
    if not os.path.isfile(path):
        return values
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line.strip("[]").strip()
                continue
            if section == "libfuzzer" and "=" in line:
                key, value = (s.strip() for s in line.split("=", 1))
                values[key] = value
    return values


def libfuzzer_flags(target, corpus_dir=CORPUS):
    flags = []
    for key, value in read_options(target, corpus_dir).items():
        if key == "dict":
            value = os.path.join(corpus_dir, value)
        flags.append(f"-{key}={value}")
    return flags


def max_len(target, corpus_dir=CORPUS, default=65536):
    try:
        return int(read_options(target, corpus_dir).get("max_len", default))
    except ValueError:
        return default
