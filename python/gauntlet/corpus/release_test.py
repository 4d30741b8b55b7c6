"""`make corpus-release`: two runs give the same bytes, the tarball holds what its
README promises, SHA256SUMS matches the contents, links stay links, and the runner in it
works on the corpus in it with no repository around.

    python3 -m gauntlet test corpus.release_test IMPORTER   (build/bin/onnximport)
"""
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile

from gauntlet import settings

RELEASE = settings.module_argv("gauntlet.corpus.release")
TOP = "onnx-gauntlet-hostile-corpus"


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def main():
    importer = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        outs = [os.path.join(tmp, f"run{i}", "corpus.tar.gz") for i in (1, 2)]
        for out in outs:
            subprocess.run(RELEASE + ["--out", out], check=True)
        data = [open(o, "rb").read() for o in outs]
        if data[0] != data[1]:
            fail("two runs of corpus_release.py wrote different bytes")
        print(f"same bytes on two runs: {len(data[0])} bytes, sha256 {hashlib.sha256(data[0]).hexdigest()}")

        with tarfile.open(outs[0]) as tar:
            members = {m.name: m for m in tar.getmembers()}
            for need in ("README.md", "docs/rules.md", "tools/run_corpus.sh", "SHA256SUMS",
                         "hostile/corpus/manifest.json", "hostile/corpus/data.bin"):
                if f"{TOP}/{need}" not in members:
                    fail(f"{need} is not in the tarball")
            for m in members.values():
                if m.mtime != 0 or m.uid != 0 or m.gid != 0:
                    fail(f"{m.name}: time or owner not fixed")
            link = members.get(f"{TOP}/hostile/corpus/link-parent")
            if link is None or not link.issym() or link.linkname != "..":
                fail("hostile/corpus/link-parent is not kept as the link -> ..")
            if not members[f"{TOP}/tools/run_corpus.sh"].mode & 0o100:
                fail("tools/run_corpus.sh is not executable in the tarball")
            sums = tar.extractfile(f"{TOP}/SHA256SUMS").read().decode().splitlines()
            files = [n for n, m in members.items() if m.isfile() and not n.endswith("/SHA256SUMS")]
            if len(sums) != len(files):
                fail(f"SHA256SUMS lists {len(sums)} files, the tarball holds {len(files)}")
            for line in sums:
                digest, name = line.split("  ", 1)
                if hashlib.sha256(tar.extractfile(f"{TOP}/{name}").read()).hexdigest() != digest:
                    fail(f"SHA256SUMS is wrong for {name}")
            tar.extractall(tmp)
        print(f"{len(files)} files listed in SHA256SUMS and matching")

        # The runner, from the unpacked tarball alone, over the corpus beside it.
        unpacked = os.path.join(tmp, TOP)
        proc = subprocess.run([os.path.join(unpacked, "tools", "run_corpus.sh"), "--quiet", "--jobs", "2",
                               "--results", os.path.join(tmp, "results.json"), f"{importer} check"],
                              cwd=tmp, capture_output=True, text=True)
        last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        print(f"run_corpus.sh from the tarball: {last}")
        if proc.returncode != 0 or " 0 failed" not in last:
            fail(f"run_corpus.sh over the unpacked corpus: exit {proc.returncode}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        with open(os.path.join(tmp, "results.json"), encoding="utf-8") as f:
            results = json.load(f)
        with open(os.path.join(unpacked, "hostile", "corpus", "manifest.json"), encoding="utf-8") as f:
            listed = [k["file"] for k in json.load(f)["cases"]]
        if [c["file"] for c in results["cases"]] != listed or results["jobs"] != 2 or \
                any(not c["rule_id"] for c in results["cases"]):
            fail("--results does not list every case of the manifest in its order with its rule_id, or not the jobs given")
        counts = {s: sum(1 for c in results["cases"] if c["status"] == s) for s in ("ok",)}
        if counts["ok"] != results["passed"] or results["failed"] != 0:
            fail(f"--results counts disagree: {counts['ok']} ok rows, passed {results['passed']}")
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
