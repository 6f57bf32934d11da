#!/usr/bin/env python3
"""Every object or file the build makes with the version in depends on
../VERSION, so an incremental build after a bump (scripts/deb/build.sh's
DEB_FROM, or a developer's tree) never keeps one with the old version.

Per part (libioca, libspec, iocad): the sources outside tests/ that name a
version macro (IOCA_VERSION, LIBSPEC_VERSION, ...) and the *.in files with
@VERSION@; every target make knows for them (each build variant: plain,
ASan, testing) must list ../VERSION among its prerequisites. Reads make's
database (make -pq: nothing is built).

--self-test: the check finds a missing dependency (a copy of iocad's
Makefile without ../VERSION on the ASan ioca_build_info object).
Prints the offending targets; exits 1 on any."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PARTS = ("libioca", "libspec", "iocad")
MACRO = re.compile(r"\b[A-Z]+_VERSION\b")


def versioned_stems(part_dir):
    """Object stems ("metrics/metrics_render", "jit/jit_cache") and generated
    file names ("libspec.pc") that carry the version."""
    objs, files = set(), set()
    for top, dirs, names in os.walk(part_dir):
        rel_top = os.path.relpath(top, part_dir)
        dirs[:] = [d for d in dirs if d not in ("build", "tests") and not d.startswith(".")]
        for n in names:
            path = os.path.join(top, n)
            rel = os.path.normpath(os.path.join(rel_top, n))
            if n.endswith(".c"):
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                # LLVM_VERSION and the like are not the project's version
                if any(m.group(0) != "LLVM_VERSION" for m in MACRO.finditer(text)):
                    stem = rel[:-2]
                    objs.add(stem[4:] if stem.startswith("src/") else stem)
            elif n.endswith(".in"):
                with open(path, encoding="utf-8", errors="replace") as f:
                    if "@VERSION@" in f.read():
                        files.add(rel[:-3])
    return objs, files


def prerequisites(part_dir, makefile="Makefile"):
    """target -> set of prerequisites, from make's database."""
    out = subprocess.run(["make", "--no-print-directory", "-C", part_dir, "-f", makefile,
                          "-pq"], capture_output=True, text=True).stdout
    deps = {}
    for ln in out.splitlines():
        if not ln or ln[0] in "#\t " or ":=" in ln or "+=" in ln or "?=" in ln:
            continue
        m = re.match(r"^([^:=\s][^:=]*?):{1,2}(?!=)\s*(.*)$", ln)
        if not m or "%" in m.group(1):
            continue
        for t in m.group(1).split():
            deps.setdefault(t, set()).update(m.group(2).split("|")[0].split())
    return deps


def problems(part_dir, makefile="Makefile"):
    objs, files = versioned_stems(part_dir)
    deps = prerequisites(part_dir, makefile)
    bad, seen = [], set()
    for t, pre in sorted(deps.items()):
        hit = (t.endswith(".o") and any(t == s + ".o" or t.endswith("/" + s + ".o")
                                        for s in objs)) or \
            any(t.endswith("/" + os.path.basename(f)) for f in files)
        if hit:
            seen.add(t)
            if "../VERSION" not in pre:
                bad.append(f"{os.path.basename(part_dir)}: {t} has the version in but does "
                           "not depend on ../VERSION")
    if (objs or files) and not seen:
        bad.append(f"{os.path.basename(part_dir)}: no target found for {sorted(objs | files)}")
    return bad


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        mk = os.path.join(tmp, "Makefile")
        with open(os.path.join(ROOT, "iocad", "Makefile"), encoding="utf-8") as f:
            text = f.read()
        broken = text.replace(" $(B)/asan/metrics/metrics_render.o:", ":")
        if broken == text:
            return ["self-test: iocad/Makefile no longer names $(B)/asan/metrics/"
                    "metrics_render.o before its ../VERSION"]
        with open(mk, "w", encoding="utf-8") as f:
            f.write(broken)
        got = problems(os.path.join(ROOT, "iocad"), mk)
        if not any("asan/metrics/metrics_render.o" in b for b in got):
            return [f"self-test: a Makefile without ../VERSION on the ASan object passed: {got}"]
    return []


def main():
    if shutil.which("make") is None:
        print("version_deps: make not found")
        return 1
    bad = []
    for p in PARTS:
        bad += problems(os.path.join(ROOT, p))
    if "--self-test" in sys.argv[1:]:
        bad += self_test()
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
