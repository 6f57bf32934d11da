#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of iocad/dist/grafana/ioca.json (TAP, run by `make -C iocad
check` from iocad/): a dashboard over a fleet. iocad runs a few intervals
of the fig7a scenario on the simulator and writes its textfile; then every
panel query names only metrics that file exports, selects by the node
($instance) and socket ($socket) variables in every series selector, keeps
instance and socket through every aggregation, and every legend names
both. Queries run on a real Prometheus in tests/metrics/e2e.py."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import promql_names  # noqa: E402

ROOT = os.path.join(HERE, "..", "..", "..")
IOCAD = os.path.join(HERE, "..", "..", "build", "iocad")
DASH = os.path.join(HERE, "..", "..", "dist", "grafana", "ioca.json")
VARS = ("instance", "socket")

n = failed = 0


def check(desc, cond, why=""):
    global n, failed
    n += 1
    failed += not cond
    print(f"{'ok' if cond else 'not ok'} {n} - dashboard: {desc}")
    if not cond and why:
        for line in str(why).splitlines()[:20]:
            print(f"# {line}")


def exported():
    """The families of a textfile iocad wrote on the simulator (sim_* included)."""
    tmp = tempfile.mkdtemp(prefix="ioca-dash-")
    try:
        with open(os.path.join(ROOT, "examples/iocad/fig7a-aggregation.ini")) as f:
            ini = f.read()
        cfg = os.path.join(tmp, "iocad.ini")
        prom = os.path.join(tmp, "ioca.prom")
        with open(cfg, "w") as f:
            f.write(ini + f"\n[metrics]\ntextfile = {prom}\n")
        p = subprocess.run([IOCAD, "--sim", os.path.join(ROOT, "examples/iocad/fig7a-aggregation.scn"),
                            cfg, "--quiet", "--intervals", "5"], capture_output=True, text=True)
        if p.returncode:
            return None, p.stderr
        with open(prom) as f:
            return promql_names.exported_names(f.read()), ""
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def selectors(expr):
    """(metric, matchers) of each series selector in @expr."""
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", expr)
    return re.findall(r"\b([a-z_:][a-z0-9_:]*)\s*\{([^}]*)\}", s)


def main():
    with open(DASH) as f:
        dash = json.load(f)
    names, why = exported()
    if not names:
        check("iocad wrote a textfile on the simulator", False, why)
        print(f"dashboard: {n - failed} passed, {failed} failed")
        return 1
    variables = {v["name"]: v for v in dash.get("templating", {}).get("list", [])}
    check("has the node ($instance) and socket ($socket) variables, multi-valued",
          all(variables.get(v, {}).get("multi") for v in VARS), sorted(variables))
    queries = promql_names.dashboard_queries(dash)
    bad_names, bad_sel, bad_by = [], [], []
    for title, q in queries:
        used = promql_names.metric_names(q)
        if not used:
            bad_names.append(f"{title}: no metric name in {q}")
        bad_names += [f"{title}: {m} is not exported" for m in sorted(used - names)]
        if title == "variable instance":
            continue  # the one query that lists the nodes
        for metric, matchers in selectors(q):
            want = ['instance=~"$instance"'] + ([] if title == "variable socket"
                                                else ['socket=~"$socket"'])
            miss = [w for w in want if w not in matchers]
            if miss:
                bad_sel.append(f"{title}: {metric}{{{matchers}}} lacks {', '.join(miss)}")
        for group in re.findall(r"\bby\s*\(([^)]*)\)", q):
            keys = {k.strip() for k in group.split(",")}
            if not set(VARS) <= keys:
                bad_by.append(f"{title}: by ({group}) drops {sorted(set(VARS) - keys)}")
    check(f"all {len(queries)} queries name only exported metrics", not bad_names,
          "\n".join(bad_names))
    check("every series selector filters on $instance and $socket", not bad_sel,
          "\n".join(bad_sel))
    check("every aggregation keeps instance and socket", not bad_by, "\n".join(bad_by))
    legends = []

    def walk(panels):
        for p in panels:
            for t in p.get("targets", []):
                lf = t.get("legendFormat", "")
                if "{{instance}}" not in lf or "{{socket}}" not in lf:
                    legends.append(f"{p.get('title')}: '{lf}'")
            walk(p.get("panels", []))

    walk(dash.get("panels", []))
    check("every legend names {{instance}} and {{socket}}", not legends, "\n".join(legends))
    joined = [q for _, q in queries if "priority" in q]
    check("priority comes from ioca_tenant_info, joined on the tenant's labels",
          joined and all("group_left (priority) ioca_tenant_info" in q for q in joined),
          "\n".join(joined))
    # the check itself: a query without the variables is caught
    probe = selectors('sum by (state) (ioca_fsm_state{socket=~"$socket"})')
    check("the selector check sees a query that merges nodes",
          probe == [("ioca_fsm_state", 'socket=~"$socket"')], probe)
    print(f"dashboard: {n - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
