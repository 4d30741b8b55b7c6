"""Triage of a campaign's findings: each crash, timeout, leak or out-of-memory input is
replayed on the libFuzzer binary, minimized, named by its stack signature (what broke and
the top frames of our code under the sanitizer) and filed once under corpus/regression/
with the command that reproduces it. Two inputs with one signature are one finding.

A signature is `KIND | frame < frame < frame`: KIND from the sanitizer's or libFuzzer's
headline (or the broken fuzz invariant), the frames the first three of the first stack
that are not the sanitizer, libFuzzer, the C or C++ runtime or the abort helper, each a
function name without its parameters (line numbers move with every edit; names do not).
"""
import datetime
import hashlib
import os
import re
import shutil
import subprocess

from gauntlet.fuzz.paths import CORPUS, REGRESSION, ROOT

FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (.+?)(?: (/\S+|\(\S+\)))?$")
BUILD_ID = re.compile(r" \(BuildId: [0-9a-f]+\)$")
RUNTIME_PREFIXES = (
    "__sanitizer", "__asan", "__ubsan", "__lsan", "__interceptor", "__interception", "fuzzer::", "__libc",
    "__GI_", "abort", "raise", "gsignal", "pthread_kill", "__pthread", "std::terminate", "std::__terminate",
    "__cxa", "__cxxabiv1", "__gnu_cxx::__verbose_terminate_handler", "__clang_call_terminate", "operator new",
    "operator delete", "malloc", "calloc", "realloc", "free", "memcpy", "memmove", "memset", "memcmp", "strlen",
    "gauntlet_fuzz::fuzz_fail", "_start", "main", "start_thread", "clone",
)
RUNTIME_LIBS = ("libc.so", "libstdc++.so", "libc++", "libgcc_s", "ld-linux", "libpthread")
HEADLINES = (
    (re.compile(r"FUZZ INVARIANT BROKEN: (.*)"), lambda m: "invariant " + m.group(1).split(": ", 1)[0]),
    (re.compile(r"ERROR: AddressSanitizer: ([\w-]+)[^\n]*(?:\n(READ|WRITE) of size)?"),
     lambda m: "asan " + m.group(1) + (" " + m.group(2) if m.group(2) else "")),
    (re.compile(r"ERROR: LeakSanitizer: detected memory leaks"), lambda m: "leak"),
    (re.compile(r"runtime error: ([^\n]*)"), lambda m: "ubsan " + re.sub(r"0x[0-9a-f]+|\d+", "N", m.group(1))),
    (re.compile(r"ERROR: libFuzzer: (timeout|out-of-memory|deadly signal|fuzz target exited|"
                r"fuzz target overwrites its const input|malloc limit)"), lambda m: "libfuzzer " + m.group(1)),
)


def strip_parameters(name):
    """`ns::f(int, char const*) const` -> `ns::f`; `ns::g<int>()::$_0::operator()` kept whole."""
    name = re.sub(r"\s+const$", "", name.strip())
    if not name.endswith(")"):
        return name
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        if name[i] == ")":
            depth += 1
        elif name[i] == "(":
            depth -= 1
            if depth == 0:
                head = name[:i]
                return head if not head.endswith("operator") else name
    return name


def is_runtime(function, location):
    if function.startswith(RUNTIME_PREFIXES):
        return True
    return bool(location) and any(lib in location for lib in RUNTIME_LIBS)


def headline(report):
    # The invariant message comes before libFuzzer's own "deadly signal": it wins.
    for pattern, name in HEADLINES:
        m = pattern.search(report)
        if m:
            return name(m)
    return "crash"


def frames(report, count=3):
    """The top `count` frames of our code in the report's first stack."""
    out, seen_first = [], False
    for line in report.splitlines():
        m = FRAME.match(BUILD_ID.sub("", line.rstrip()))
        if not m:
            continue
        if m.group(1) == "0":
            if seen_first:
                break  # the next stack (the allocation's, the previous owner's)
            seen_first = True
        function = strip_parameters(m.group(2))
        if is_runtime(function, m.group(3)):
            continue
        out.append(function)
        if len(out) == count:
            break
    return out


def signature(report):
    top = frames(report)
    return headline(report) + (" | " + " < ".join(top) if top else "")


def slug(sig):
    s = re.sub(r"[^a-z0-9]+", "-", sig.lower().replace(" | ", " in "))
    return s.strip("-")[:60].rstrip("-") or "crash"


def env_for_replay():
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = "symbolize=1:detect_leaks=1:" + env.get("ASAN_OPTIONS", "")
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:" + env.get("UBSAN_OPTIONS", "")
    return env


def replay(binary, flags, path, timeout=120):
    """(crashed, report) of one run of the binary on one input."""
    cmd = [binary] + [f for f in flags if not f.startswith("-dict=")] + ["-timeout=25", path]
    try:
        proc = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env_for_replay())
    except subprocess.TimeoutExpired as e:
        return True, (e.stderr or b"").decode("utf-8", "replace") + "\nERROR: libFuzzer: timeout (replay)"
    return proc.returncode != 0, proc.stderr.decode("utf-8", "replace")


def minimize(binary, flags, path, out, seconds=60):
    """libFuzzer's -minimize_crash; the smaller input is kept only if it still breaks in
    the same place (minimize_crash accepts any crash, and may drift to another bug)."""
    cmd = [binary] + [f for f in flags if not f.startswith("-dict=")] + [
        "-minimize_crash=1", f"-max_total_time={seconds}", "-runs=100000", "-timeout=25",
        f"-exact_artifact_path={out}", path]
    try:
        subprocess.run(cmd, capture_output=True, timeout=seconds + 120, env=env_for_replay())
    except subprocess.TimeoutExpired:
        pass
    return out if os.path.isfile(out) and os.path.getsize(out) > 0 else None


def known_signatures(regression=REGRESSION):
    """{signature: filed input} from the `signature:` lines of corpus/regression/*/*.txt."""
    known = {}
    for folder, _, files in os.walk(regression):
        for name in files:
            if not name.endswith(".txt"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("signature: "):
                        known.setdefault(line[len("signature: "):].strip(), os.path.join(folder, name[:-4]))
    return known


def rel(path):
    return os.path.relpath(path, ROOT) if os.path.isabs(path) and path.startswith(ROOT + os.sep) else path


def reproducer(binary, flags, path):
    shown = [f for f in flags if not f.startswith("-dict=")]
    return " ".join([rel(binary)] + shown + [rel(path)])


def report_lines(report, limit=16):
    """The headline, the first stack and the summary of a report, for the note."""
    out, frames_seen = [], False
    for line in report.splitlines():
        m = FRAME.match(BUILD_ID.sub("", line.rstrip()))
        if m:
            if m.group(1) == "0" and frames_seen:
                break
            frames_seen = True
            out.append(BUILD_ID.sub("", line.strip()))
        elif re.search(r"INVARIANT|ERROR:|runtime error|^(READ|WRITE) of size", line) and not frames_seen:
            out.append(line.strip())
    summary = [line.strip() for line in report.splitlines() if line.startswith("SUMMARY:")]
    return out[:limit] + summary[:1]


def file_finding(target, binary, flags, path, sig, report, engine, regression=REGRESSION):
    dest_dir = os.path.join(regression, target)
    os.makedirs(dest_dir, exist_ok=True)
    with open(path, "rb") as f:
        sha = hashlib.sha1(f.read()).hexdigest()[:8]
    dest = os.path.join(dest_dir, f"{slug(sig)}-{sha}")
    shutil.copyfile(path, dest)
    replay_bin = os.path.join("build", "bin", target + "_replay")
    with open(dest + ".txt", "w", encoding="utf-8") as f:
        f.write(f"target: {target}\n")
        f.write(f"found: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%M:%SZ} "
                f"by python3 -m gauntlet fuzz ({engine})\n")
        f.write(f"signature: {sig}\n")
        f.write(f"reproduce: {reproducer(binary, flags, dest)}\n")
        if os.path.isfile(os.path.join(CORPUS, target + ".options")):  # a target with a replay binary
            f.write(f"replay (no fuzzer): {replay_bin} {rel(dest)}\n")
        f.write("report:\n" + "".join("  " + line + "\n" for line in report_lines(report)))
    return dest


def triage(target, binary, flags, inputs, work, engine="libfuzzer", regression=REGRESSION, log=print,
           shown_binary=None, limit=200):
    """Every input in `inputs` replayed, deduplicated, minimized and filed. Returns a list
    of findings: {signature, kind, input, filed, new, reproduced, copies, reproduce}, the
    inputs that did not reproduce, and how many were left untriaged beyond `limit` (a shallow
    bug under -fork -ignore_crashes can leave thousands of copies).
    `binary` runs the inputs; `shown_binary` (default the same) is the one notes name."""
    known = known_signatures(regression)
    by_sig = {}
    unreproduced = []
    os.makedirs(work, exist_ok=True)
    untriaged = max(0, len(inputs) - limit)
    if untriaged:
        log(f"triage: {untriaged} of {len(inputs)} inputs left untriaged (at most {limit} are replayed)")
    for path in inputs[:limit]:
        crashed, report = replay(binary, flags, path)
        if not crashed:
            unreproduced.append(path)
            log(f"triage: {rel(path)} does not reproduce on {rel(binary)}; not filed")
            continue
        sig = signature(report)
        if sig in by_sig:
            by_sig[sig]["copies"] += 1
            log(f"triage: {os.path.basename(path)} is another copy of [{sig}]; not filed again")
            continue
        chosen = path
        small = minimize(binary, flags, path, os.path.join(work, "min-" + os.path.basename(path)))
        if small and os.path.getsize(small) <= os.path.getsize(path):
            again, small_report = replay(binary, flags, small)
            if again and signature(small_report) == sig:
                chosen, report = small, small_report
        finding = {"signature": sig, "kind": headline(report), "input": rel(path), "copies": 1, "reproduced": True}
        if sig in known:
            finding.update(filed=rel(known[sig]), new=False)
            log(f"triage: [{sig}] is already filed as {rel(known[sig])} and still reproduces")
        else:
            dest = file_finding(target, shown_binary or binary, flags, chosen, sig, report, engine, regression)
            known[sig] = dest
            finding.update(filed=rel(dest), new=True)
            log(f"triage: new finding [{sig}] filed as {rel(dest)} ({os.path.getsize(chosen)} bytes)")
        finding["reproduce"] = reproducer(shown_binary or binary, flags, os.path.join(ROOT, finding["filed"]))
        by_sig[sig] = finding
    return list(by_sig.values()), unreproduced, untriaged
