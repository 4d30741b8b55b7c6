"""Part of the report's render test: the report must open without a network.

Checks every HTML page under REPORT_DIR: no src/href/url() that names a network scheme,
no external script or stylesheet, and every relative link points at a file that exists.
Prints the offenders and exits 1 if there are any.
"""
import os
import re
import sys
from urllib.parse import unquote, urlsplit

ATTR = re.compile(r'\b(?:src|href)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')', re.I)
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)", re.I)


def main(report_dir):
    problems = []
    pages = 0
    for dirpath, _, files in os.walk(report_dir):
        for name in files:
            if not name.endswith(".html"):
                continue
            pages += 1
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                html = f.read()
            targets = [a or b for a, b in ATTR.findall(html)] + CSS_URL.findall(html)
            for target in targets:
                parts = urlsplit(target)
                if parts.scheme or target.startswith("//"):
                    problems.append(f"{path}: network or absolute reference {target}")
                    continue
                if not parts.path:
                    continue  # an anchor on the same page
                local = os.path.normpath(os.path.join(dirpath, unquote(parts.path)))
                if not os.path.exists(local):
                    problems.append(f"{path}: broken link {target}")
    for p in problems[:20]:
        print(p)
    if len(problems) > 20:
        print(f"... {len(problems) - 20} more")
    if pages == 0:
        print(f"no HTML page under {report_dir}")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
