"""`make corpus-release`: the hostile corpus as a tarball for importer authors.

    python/gauntlet/corpus/release.py [--out FILE] [--corpus DIR]

Writes FILE (default build/release/onnx-gauntlet-hostile-corpus.tar.gz) holding, under
onnx-gauntlet-hostile-corpus/:
  README.md              how to run the corpus against an importer (hostile/RELEASE.md)
  docs/rules.md          the rules the cases name by ID
  tools/run_corpus.sh    the runner (bash and Debian's python3 only)
  hostile/corpus/...     the committed corpus: cases, side files, links, manifest.json
  SHA256SUMS             sha256sum's format, one line per regular file above

The bytes depend on the content only: entries sorted by path, times, owners and modes
fixed (0644, 0755 for folders and executables), gzip without a name or a time. Two runs
give the same bytes (ctest corpus_release_deterministic). The manifest is checked first
(python/gauntlet/manifest.py): a case naming a rule docs/rules.md does not define stops it.
"""
import argparse
import gzip
import hashlib
import io
import os
import stat
import tarfile

from gauntlet import manifest, settings

TOP = "onnx-gauntlet-hostile-corpus"
FIXED_TIME = 0


def entries(corpus):
    """(archive path, source path) of everything in the release, sorted by archive path."""
    items = [("README.md", os.path.join(settings.ROOT, "hostile", "RELEASE.md")),
             ("docs/rules.md", settings.RULES_PAGE),
             ("tools/run_corpus.sh", settings.RUN_CORPUS)]
    for dirpath, dirnames, filenames in os.walk(corpus):  # does not follow links to folders
        rel = os.path.relpath(dirpath, corpus)
        for name in dirnames + filenames:
            sub = name if rel == "." else os.path.join(rel, name)
            items.append((f"hostile/corpus/{sub}", os.path.join(corpus, sub)))
    return sorted(items)


def tar_info(name, mode, kind, size=0, link=""):
    info = tarfile.TarInfo(f"{TOP}/{name}")
    info.mtime, info.uid, info.gid, info.uname, info.gname = FIXED_TIME, 0, 0, "", ""
    info.type, info.mode, info.size, info.linkname = kind, mode, size, link
    return info


def build(corpus, out):
    manifest.read(corpus)  # strict: every rule_id defined by docs/rules.md
    sums = []
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, src in entries(corpus):
            st = os.lstat(src)
            if stat.S_ISLNK(st.st_mode):
                tar.addfile(tar_info(name, 0o777, tarfile.SYMTYPE, link=os.readlink(src)))
            elif stat.S_ISDIR(st.st_mode):
                tar.addfile(tar_info(name, 0o755, tarfile.DIRTYPE))
            elif stat.S_ISREG(st.st_mode):
                with open(src, "rb") as f:
                    data = f.read()
                mode = 0o755 if st.st_mode & stat.S_IXUSR else 0o644
                tar.addfile(tar_info(name, mode, tarfile.REGTYPE, len(data)), io.BytesIO(data))
                sums.append(f"{hashlib.sha256(data).hexdigest()}  {name}\n")
            else:
                raise SystemExit(f"corpus_release: {src} is neither a file, a folder nor a link")
        listing = "".join(sums).encode()
        tar.addfile(tar_info("SHA256SUMS", 0o644, tarfile.REGTYPE, len(listing)), io.BytesIO(listing))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=FIXED_TIME, compresslevel=9) as gz:
        gz.write(raw.getvalue())
    os.replace(tmp, out)
    return len(sums)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(settings.build_dir(), "release", f"{TOP}.tar.gz"))
    ap.add_argument("--corpus", default=settings.COMMITTED_CORPUS, help="the corpus folder (default: hostile/corpus)")
    args = ap.parse_args()
    files = build(args.corpus, args.out)
    with open(args.out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print(f"corpus_release: {args.out}: {files} files, sha256 {digest}")


if __name__ == "__main__":
    main()
