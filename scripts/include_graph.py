#!/usr/bin/env python3
"""Include circles and layer breaks in the project's C sources (make lint).

A unit is x.c with its x.h. Unit A depends on unit B when x.c or x.h of A
includes B's header (or B's .c). The checker fails, naming the units, when a
strongly connected component of that graph spans more than one folder or
holds more than three units: a reader must be able to tell which file is
above which, and a circle between folders makes two parts one.

Within iocad/ the folders are layers (iocad/README.md): a file may include
only its own folder and the folders below it. The table below is that rule.

Usage: scripts/include_graph.py [ROOT]   (prints the graph's size on success)
"""
import os
import re
import subprocess
import sys

DIRS = ["kmod", "uapi", "common", "libioca", "libspec", "iocad", "selftests", "bench", "fuzz",
        "examples"]
# Where a quoted include is looked for after the including file's own folder
# (the -I paths the Makefiles give).
SEARCH = ["common", "uapi", "libspec/include", "libioca/include", "libioca/src", "iocad",
          "iocad/sim", "iocad/host", "iocad/ctl", "selftests/ioca"]

# iocad's layers: folder -> the iocad folders it may include besides its own.
# "." is iocad's top folder: platform.h, the one header a platform sees, and
# main.c, which may include everything.
BASE = {"."}
IOCAD_MAY = {
    "decide": BASE,
    "config": BASE | {"decide"},
    "loop": BASE | {"decide", "config"},
    "watch": BASE | {"decide", "config"},
    "metrics": BASE | {"decide", "config", "loop"},
    # platforms: platform.h and the decisions' types; the simulator also
    # reads scenarios in the config's value syntax (config/config_value.h)
    "host": BASE | {"decide"},
    "sim": BASE | {"decide", "config"},
    "ctl": BASE | {"config"},
    "tools": BASE | {"decide", "config", "sim"},
}
# Circles found when this check came, not yet broken (libspec's runtime
# state lives in runtime.h beside runtime.c; jit_int.h includes jit.h). Each
# is let through only while it holds exactly these units: one that grows,
# shrinks or appears anew fails. Breaking one means deleting it here.
KNOWN = [
    {"libspec/src/compiler", "libspec/src/runtime", "libspec/src/tier", "libspec/src/validate",
     "libspec/src/variant"},
    {"libspec/src/jit/" + u for u in ("jit", "jit_cache", "jit_gen", "jit_guard", "jit_int",
                                      "jit_ir", "jit_perf", "jit_scope", "jit_spec", "jit_stub",
                                      "jit_tls")},
]
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "--"] +
                         [d + "/" for d in DIRS], capture_output=True, text=True, check=True)
    return sorted(f for f in out.stdout.split()
                  if f.endswith((".c", ".h")) and not f.endswith(".mod.c") and
                  os.path.isfile(os.path.join(root, f)))


def resolve(root, f, name, known, by_base):
    cands = [os.path.join(os.path.dirname(f), name)] + [os.path.join(s, name) for s in SEARCH]
    for c in cands:
        c = os.path.normpath(c)
        if c in known:
            return c
    # a header found through a Makefile's own -I: the one of that name in
    # the same top folder
    top = f.split("/")[0]
    same = [p for p in by_base.get(os.path.basename(name), []) if p.split("/")[0] == top and
            p.endswith("/" + name)]
    return same[0] if len(same) == 1 else None


def unit(path):
    return os.path.splitext(path)[0]


def graph(root):
    files = sources(root)
    known = set(files)
    by_base = {}
    for f in files:
        by_base.setdefault(os.path.basename(f), []).append(f)
    edges = {}
    where = {}
    for f in files:
        u = unit(f)
        edges.setdefault(u, set())
        with open(os.path.join(root, f), errors="replace") as fh:
            text = fh.read()
        for name in INC.findall(text):
            t = resolve(root, f, name, known, by_base)
            if t is None:
                continue
            v = unit(t)
            if v != u:
                edges[u].add(v)
                where.setdefault((u, v), f)
    return edges, where


def sccs(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            pushed = False
            for w in it:
                if w not in edges:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    pushed = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if pushed:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def cycle(edges, comp):
    """One circle through the component's first unit, for the message."""
    inside = set(comp)
    start = comp[0]
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w not in inside:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return comp


def layer_breaks(edges, where):
    out = []
    for u, vs in sorted(edges.items()):
        if not u.startswith("iocad/"):
            continue
        src = os.path.dirname(u)[len("iocad/"):] or "."
        if src == "." and not u.endswith("/platform"):
            continue  # main.c sits on top
        may = IOCAD_MAY.get(src)
        if src == ".":
            may = set()  # platform.h includes nothing of iocad
        if may is None:
            continue  # tests/, bench/: above everything
        for v in sorted(vs):
            if not v.startswith("iocad/"):
                continue
            dst = os.path.dirname(v)[len("iocad/"):] or "."
            if dst != src and dst not in may:
                names = sorted("platform.h" if m == "." else m + "/" for m in may)
                out.append("%s includes %s (%s/ may include only itself and %s)" %
                           (where[(u, v)], v, src, ", ".join(names) or "nothing of iocad"))
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    edges, where = graph(root)
    bad = []
    for comp in sccs(edges):
        if len(comp) < 2:
            continue
        folders = sorted({os.path.dirname(u) for u in comp})
        if (len(folders) > 1 or len(comp) > 3) and set(comp) not in KNOWN:
            why = "crosses folders %s" % ", ".join(folders) if len(folders) > 1 else \
                "ties %d units" % len(comp)
            bad.append("include circle (%s): %s; all: %s" %
                       (why, " -> ".join(cycle(edges, comp)), " ".join(comp)))
    found = [set(c) for c in sccs(edges)]
    bad += ["known circle %s is gone: delete it from KNOWN" % " ".join(sorted(k))
            for k in KNOWN if k not in found]
    bad += ["layer: " + b for b in layer_breaks(edges, where)]
    for b in bad:
        print("include_graph: " + b)
    nedges = sum(len(v) for v in edges.values())
    print("include_graph: %d units, %d edges, %d problems" % (len(edges), nedges, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
