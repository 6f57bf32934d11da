#!/usr/bin/env python3
"""Every `make ...` command the project's Markdown shows must run as written.

Usage: readme_commands.py [--root DIR] [--self-test] [--verbose]

Finds the make commands in every tracked *.md (fenced and indented code
blocks, inline `make ...` spans), resolves each one's directory (-C DIR from
the document's folder, else from the top; without -C the document's folder
if its Makefile has the targets, else the top) and checks it:
  - the directory has a Makefile and make knows every target (`make -n`);
  - a cheap command (building, help, printing) runs, for real;
  - an expensive one (tests, VMs, benchmarks, packages, installs) is not
    run, only found; but a target that runs what the folder builds (bench,
    run) must depend on each thing `make` there builds that its recipes name
    (make -n -B), or it fails on a fresh clone.
A command with a placeholder (<x>, ..., N) is checked for its targets only.
Prints one line per failure naming file:line, then
"readme-commands: N passed, M failed"; exits non-zero on a failure or when
no command was found. --self-test runs the checks on a made-up tree with
known good and bad commands first; --verbose prints each check's time.
"""

import functools
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

# Targets that take minutes, need root, boot VMs, write outside the tree or
# clean it: made sure to exist, never run.
EXPENSIVE = {
    "bench", "check", "check-debug", "check-metrics", "clean", "deb", "demo",
    "deps", "dkms-src", "eval", "eval-check", "fuzz", "image", "install", "kunit", "lint", "oci",
    "run", "seeds", "soak", "sparse", "vmtest",
}
# Targets that run what their folder builds: on a fresh clone they must
# build it first.
RUNNERS = {"bench", "run"}
VERBOSE = "--verbose" in sys.argv
PLACEHOLDER = re.compile(r"<[^>]*>|\.\.\.|^[A-Z]$|/path/to/")
MAKE_OPTS_WITH_ARG = {"-C", "-j", "-f", "-o", "-W", "-l"}


def tracked_markdown(root):
    out = subprocess.run(
        ["git", "-C", root, "ls-files", "-co", "--exclude-standard", "*.md"],
        capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return sorted(os.path.relpath(os.path.join(d, f), root)
                      for d, _, fs in os.walk(root) for f in fs
                      if f.endswith(".md"))
    return sorted(p for p in out.stdout.split("\n") if p)


def shell_segments(text):
    """The simple commands of a shell line, comments dropped."""
    text = re.sub(r"(^|\s)#.*", "", text)
    for seg in re.split(r"&&|\|\||;|\|", text):
        seg = seg.strip()
        if seg.startswith("$ "):
            seg = seg[2:].strip()
        yield seg


def make_words(seg):
    """The words after `make` in one simple command, or None."""
    seg = re.sub(r"<[^>]*>", "<placeholder>", seg)
    try:
        words = shlex.split(seg)
    except ValueError:
        return None
    while words and (words[0] == "sudo" or re.match(r"^[A-Z_]+=", words[0])):
        words.pop(0)
    if not words or words[0] != "make":
        return None
    return words[1:]


def find_commands(root, doc):
    """(line, words) for every make command in one Markdown file."""
    found = []
    fence = False
    with open(os.path.join(root, doc), encoding="utf-8") as f:
        lines = f.read().split("\n")
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if fence or line.startswith("    ") or line.startswith("\t"):
            for seg in shell_segments(line):
                words = make_words(seg)
                if words is not None:
                    found.append((n, words))
            continue
        for span in re.findall(r"`([^`]+)`", line):
            for seg in shell_segments(span):
                words = make_words(seg)
                if words is not None:
                    found.append((n, words))
    return found


def parse(words):
    """-C DIR, variables, targets and whether it holds a placeholder."""
    cdir, variables, targets, opts = None, [], [], []
    holder = False
    i = 0
    while i < len(words):
        w = words[i]
        if w in MAKE_OPTS_WITH_ARG and i + 1 < len(words):
            if w == "-C":
                cdir = words[i + 1]
            else:
                opts += [w, words[i + 1]]
            i += 2
            continue
        if w.startswith("-C") and len(w) > 2:
            cdir = w[2:]
        elif w.startswith("-"):
            opts.append(w)
        elif "=" in w:
            name, _, value = w.partition("=")
            if PLACEHOLDER.search(value) or value == "":
                holder = True
            else:
                variables.append(w)
        else:
            if PLACEHOLDER.search(w):
                holder = True
            else:
                targets.append(w)
        i += 1
    if cdir is not None and PLACEHOLDER.search(cdir):
        holder = True
    return cdir, variables, targets, opts, holder


def make(d, *args, timeout=600):
    return subprocess.run(
        ["make", "--no-print-directory", "-C", d, *args],
        capture_output=True, text=True, timeout=timeout, check=False,
        env=dict(os.environ, MAKEFLAGS="", MAKELEVEL=""))


@functools.lru_cache(maxsize=None)
def has_target(d, target):
    r = make(d, "-n", target)
    return "No rule to make target" not in r.stderr, r


def database(d):
    """Explicit rules' prerequisites, from make's printed database."""
    r = make(d, "-pq", "__readme_commands_none__")
    rules = {}
    goal = None
    for line in r.stdout.split("\n"):
        m = re.match(r"^\.DEFAULT_GOAL :?= (\S+)$", line)
        if m:
            goal = m.group(1)
            continue
        m = re.match(r"^([^\s#:=%][^:=]*?):(?!=)\s*(.*)$", line)
        if m and not line.startswith("\t"):
            for t in m.group(1).split():
                rules.setdefault(t, []).extend(
                    p for p in m.group(2).split("|")[0].split() if p)
    return rules, goal


def closure(rules, target):
    seen, todo = set(), [target]
    while todo:
        t = todo.pop()
        for p in rules.get(t, []):
            if p not in seen:
                seen.add(p)
                todo.append(p)
    return seen


def unbuilt_uses(d, rules, target):
    """What the folder builds (`make`'s prerequisites) that the target's
    recipes, or those of what it builds, name without depending on it: a
    program reading build/handlers.ll at run time, its path compiled in."""
    r = make(d, "-n", "-B", target)
    text = r.stdout
    deps = closure(rules, target)
    return [p for p in rules.get("all", []) if p not in deps and
            re.search(r"""(^|[\s/"'=])%s($|[\s"'\\])""" % re.escape(p), text, re.M)]


def resolve_dir(root, doc, cdir, targets):
    here = os.path.dirname(os.path.join(root, doc))
    if cdir is not None:
        for base in (here, root):
            d = os.path.normpath(os.path.join(base, cdir))
            if os.path.isfile(os.path.join(d, "Makefile")):
                return d
        return None
    if os.path.abspath(here) != os.path.abspath(root) and \
            os.path.isfile(os.path.join(here, "Makefile")) and \
            all(has_target(here, t)[0] for t in targets):
        return here
    return root


def tail(text, n=6):
    return " | ".join(text.strip().split("\n")[-n:])


def check(root, doc, words, done):
    """None when the command is fine, else why not; done remembers the
    commands already checked and each folder's rules."""
    cdir, variables, targets, opts, holder = parse(words)
    d = resolve_dir(root, doc, cdir, targets)
    if d is None:
        return "no directory %s with a Makefile (from %s or the top)" % (
            cdir, os.path.dirname(doc) or ".")
    key = (d, tuple(opts), tuple(variables), tuple(targets), holder)
    if key not in done:
        done[key] = verify(root, d, opts, variables, targets, holder, done)
    return done[key]


def verify(root, d, opts, variables, targets, holder, done):
    for t in targets:
        ok, r = has_target(d, t)
        if not ok:
            return "no target '%s' in %s" % (t, os.path.relpath(d, root))
    if holder:
        return None
    if d not in done:
        done[d] = database(d)
    rules, goal = done[d]
    costly = [t for t in targets or [goal] if t in EXPENSIVE]
    for t in costly:
        if t in RUNNERS:
            missing = unbuilt_uses(d, rules, t)
            if missing:
                return ("'%s' uses %s but does not depend on it: a fresh clone "
                        "lacks it" % (t, " ".join(missing)))
    cheap = [t for t in targets if t not in EXPENSIVE]
    if cheap or not costly:
        r = make(d, *opts, *variables, *cheap)
        if r.returncode != 0:
            return "failed (exit %d): %s" % (r.returncode, tail(r.stderr or r.stdout))
    return None


def run(root, quiet=False):
    passed = failed = 0
    done = {}
    for doc in tracked_markdown(root):
        if doc.startswith("build/") or "/build/" in doc:
            continue
        for line, words in find_commands(root, doc):
            cmd = "make " + " ".join(words)
            start = time.monotonic()
            why = check(root, doc, words, done)
            if VERBOSE:
                print("# %.1f s %s: %s" % (time.monotonic() - start, doc, cmd))
            if why is None:
                passed += 1
            else:
                failed += 1
                if not quiet:
                    print("%s:%d: `%s`: %s" % (doc, line, cmd, why))
    return passed, failed


SELF_TEST_MAKEFILE = """\
all: prog data
prog:
\t@touch prog
data:
\t@touch data
help:
\t@echo help
bench: prog
\t@./prog data
run: all
\t@true
broken:
\t@false
"""

SELF_TEST_README = """\
# t
`make`, `make help`, `make run`, `make install PREFIX=...` (4 passing)
```sh
make -C sub all && sudo make help   # 2 passing
make nosuch                          # no target
make -C nodir                        # no directory
make bench                           # bench does not build data
make broken                          # fails
```
"""


def self_test():
    with tempfile.TemporaryDirectory() as t:
        for d in (t, os.path.join(t, "sub")):
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "Makefile"), "w") as f:
                f.write(SELF_TEST_MAKEFILE.replace("help:", "install:\n\t@false\nhelp:"))
        with open(os.path.join(t, "README.md"), "w") as f:
            f.write(SELF_TEST_README)
        got = run(t, quiet=True)
    want = (6, 4)
    if got != want:
        print("readme-commands: self-test: %d passed, %d failed, want %d and %d" %
              (got + want))
        return False
    print("ok - self-test: good commands pass; a missing target, a missing "
          "directory, an incomplete bench and a failing build are caught")
    return True


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(__file__), ".."))
    args = sys.argv[1:]
    if "--root" in args:
        root = args[args.index("--root") + 1]
    passed = failed = 0
    if "--self-test" in args:
        if self_test():
            passed += 1
        else:
            failed += 1
    p, f = run(root)
    passed += p
    failed += f
    print("readme-commands: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and p > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
