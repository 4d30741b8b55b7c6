"""A target's corpus/TARGET.options (the OSS-Fuzz format: `[libfuzzer]` key = value as
libFuzzer flags, `[asan]` and `[ubsan]` as ASAN_OPTIONS and UBSAN_OPTIONS, which OSS-Fuzz
and ClusterFuzzLite apply the same way); the dictionary is named relative to corpus/, as
OSS-Fuzz ships it next to the binary, and is made absolute here."""
import os

from gauntlet.fuzz.paths import CORPUS


def read_options(target, corpus_dir=CORPUS, wanted="libfuzzer"):
    """{key: value} of one section (an absent file or section gives {})."""
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
            if section == wanted and "=" in line:
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


def sanitizer_env(target, corpus_dir=CORPUS, base=None):
    """The environment with the target's [asan] and [ubsan] options before any already set
    (a value the caller set wins: sanitizers read the last of a repeated key)."""
    env = dict(os.environ if base is None else base)
    for section, var in (("asan", "ASAN_OPTIONS"), ("ubsan", "UBSAN_OPTIONS")):
        values = read_options(target, corpus_dir, section)
        if values:
            ours = ":".join(f"{k}={v}" for k, v in values.items())
            env[var] = ours + (":" + env[var] if env.get(var) else "")
    return env
