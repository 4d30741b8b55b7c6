"""The ClusterFuzzLite workflow files and build, ctest `fuzz_workflows`; no
network. Each .github/workflows/cflite_*.yml parses as YAML and has the keys GitHub
Actions needs (name, on, permissions, jobs; each job runs-on and steps); every job builds
with google/clusterfuzzlite/actions/build_fuzzers@v1 in the language of
.clusterfuzzlite/project.yaml and, except the continuous build, runs
google/clusterfuzzlite/actions/run_fuzzers@v1 with the token, a fuzz-seconds and a mode,
with the same sanitizer for both steps. Together they cover the modes code-change (on
pull requests), batch (on a schedule), prune and coverage (the coverage build). The
.clusterfuzzlite build fetches nothing beyond its base image and Ubuntu's packages: no
clone, no download.
"""
import glob
import os
import re
import unittest

import yaml

from gauntlet.settings import ROOT
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
BUILD = "google/clusterfuzzlite/actions/build_fuzzers@v1"
RUN = "google/clusterfuzzlite/actions/run_fuzzers@v1"
MODES = {"code-change", "batch", "prune", "coverage"}
SANITIZERS = {"address", "undefined", "coverage"}  # MemorySanitizer is not used (README)


def load(path):
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    # YAML 1.1 reads a bare `on` key as the boolean true.
    if True in doc:
        doc["on"] = doc.pop(True)
    return doc


def sanitizers(step, job):
    """The sanitizer values a step runs with (a matrix expands to its list)."""
    value = (step.get("with") or {}).get("sanitizer", "address")
    m = re.fullmatch(r"\$\{\{\s*matrix\.(\w+)\s*\}\}", str(value))
    if m:
        return list(job["strategy"]["matrix"][m.group(1)])
    return [value]


class Workflows(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = sorted(glob.glob(os.path.join(WORKFLOWS, "cflite_*.yml")))
        cls.docs = {os.path.basename(p): load(p) for p in cls.files}
        with open(os.path.join(ROOT, ".clusterfuzzlite", "project.yaml"), encoding="utf-8") as f:
            cls.language = yaml.safe_load(f)["language"]

    def runs(self):
        """(file, job name, job, build step, run step or None) of every job."""
        for name, doc in self.docs.items():
            for job_name, job in doc["jobs"].items():
                uses = [s.get("uses", "") for s in job["steps"]]
                build = next((s for s in job["steps"] if s.get("uses") == BUILD), None)
                run = next((s for s in job["steps"] if s.get("uses") == RUN), None)
                self.assertIsNotNone(build, f"{name}: {job_name} does not use {BUILD}: {uses}")
                if run is not None:
                    self.assertLess(job["steps"].index(build), job["steps"].index(run), f"{name}: {job_name}")
                yield name, job_name, job, build, run

    def test_the_four_workflows_exist(self):
        self.assertEqual(sorted(self.docs), ["cflite_batch.yml", "cflite_build.yml", "cflite_cron.yml", "cflite_pr.yml"])

    def test_top_level_keys(self):
        for name, doc in self.docs.items():
            for key in ("name", "on", "permissions", "jobs"):
                self.assertIn(key, doc, name)
            for job_name, job in doc["jobs"].items():
                self.assertIn("runs-on", job, f"{name}: {job_name}")
                self.assertTrue(job.get("steps"), f"{name}: {job_name}")

    def test_every_job_builds_with_the_project_language_and_runs_with_a_mode(self):
        for name, job_name, job, build, run in self.runs():
            self.assertEqual(build["with"]["language"], self.language, f"{name}: {job_name}")
            if run is None:
                self.assertTrue(build["with"].get("upload-build"), f"{name}: {job_name} builds without keeping it")
                continue
            args = run["with"]
            self.assertIn(args.get("mode"), MODES, f"{name}: {job_name}")
            self.assertEqual(args.get("github-token"), "${{ secrets.GITHUB_TOKEN }}", f"{name}: {job_name}")
            self.assertIsInstance(args.get("fuzz-seconds"), int, f"{name}: {job_name}")
            self.assertEqual(sanitizers(build, job), sanitizers(run, job), f"{name}: {job_name}")
            for s in sanitizers(run, job):
                self.assertIn(s, SANITIZERS, f"{name}: {job_name}")

    def test_sarif_needs_security_events(self):
        for name, job_name, job, build, run in self.runs():
            if run is not None and run["with"].get("output-sarif"):
                self.assertEqual((job.get("permissions") or {}).get("security-events"), "write",
                                 f"{name}: {job_name} writes SARIF")

    def test_modes_and_their_triggers(self):
        seen = {}
        for name, job_name, job, build, run in self.runs():
            if run is not None:
                seen.setdefault(run["with"]["mode"], []).append((name, job, build, run))
        self.assertEqual(set(seen), MODES)
        for name, *_ in seen["code-change"]:
            self.assertIn("pull_request", self.docs[name]["on"])
        for mode in ("batch", "prune", "coverage"):
            for name, *_ in seen[mode]:
                crons = [c["cron"] for c in self.docs[name]["on"].get("schedule", [])]
                self.assertTrue(crons and all(len(c.split()) == 5 for c in crons), f"{name}: {mode}")
        for name, job, build, run in seen["coverage"]:
            self.assertEqual(sanitizers(build, job), ["coverage"])
        for name, job, build, run in seen["batch"]:
            self.assertGreaterEqual(run["with"]["fuzz-seconds"], 1800, "a batch campaign is a long one")
        for name, job, build, run in seen["code-change"]:
            self.assertLessEqual(run["with"]["fuzz-seconds"], 900, "PR fuzzing is a short one")

    def test_the_build_fetches_nothing_beyond_its_base_image_and_packages(self):
        with open(os.path.join(ROOT, ".clusterfuzzlite", "Dockerfile"), encoding="utf-8") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        self.assertTrue(lines[0].startswith("FROM gcr.io/oss-fuzz-base/base-builder"), lines[0])
        for line in lines:
            self.assertNotRegex(line, r"\b(git clone|curl|wget|pip3? install|ADD https?://)", line)
        with open(os.path.join(ROOT, "ci", "oss-fuzz", "build.sh"), encoding="utf-8") as f:
            script = f.read()
        self.assertNotRegex(script, r"\b(git clone|curl|wget)\b")
        self.assertIn("cmake -S", script, "build.sh builds through CMake, not a second build in shell")

    def test_both_builds_run_on_ubuntu_24_04(self):
        # Ubuntu 20.04's flatbuffers (1.11) lacks Verifier::Options, which the .ort schema build needs.
        for folder in (".clusterfuzzlite", os.path.join("ci", "oss-fuzz")):
            with open(os.path.join(ROOT, folder, "Dockerfile"), encoding="utf-8") as f:
                self.assertIn("FROM gcr.io/oss-fuzz-base/base-builder:ubuntu-24-04\n", f.read(), folder)
            with open(os.path.join(ROOT, folder, "project.yaml"), encoding="utf-8") as f:
                self.assertEqual(yaml.safe_load(f).get("base_os_version"), "ubuntu-24-04", folder)

