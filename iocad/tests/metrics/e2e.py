#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""iocad's metrics against a real Prometheus server, and the Grafana dashboard.

A Prometheus server (Debian's) starts on 127.0.0.1 with a temporary
storage dir, scraping a free loopback port every 200 ms; once it has its
target, iocad runs the fig7a scenario on the simulator in wall-clock time
(--pace, 150 intervals of 100 ms, through the event at t = 10 s) with
[metrics] listen on that port, a textfile and a CSV trace. Then every scrape Prometheus
stored is checked against the trace: gauges against the row whose index
the scrape carries (ioca_interval_index), counters against the sums of the
rows up to it. The dashboard's queries name only exported metrics and run
on that server.

Usage: e2e.py IOCAD REPO_ROOT. Prints TAP lines and "metrics: N passed, M failed".
"""
import csv
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import node_exporter  # noqa: E402
import promql_names  # noqa: E402
import tls_auth  # noqa: E402
import trace_check  # noqa: E402

INTERVAL_MS = 100
INTERVALS = 150
SCRAPE = "200ms"


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def check(self, ok, what, detail=""):
        self.n += 1
        self.failed += not ok
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}")
        if not ok and detail:
            for line in str(detail).splitlines()[:20]:
                print(f"# {line}")
        return ok

    def done(self):
        print(f"metrics: {self.n - self.failed} passed, {self.failed} failed")
        return 0 if self.failed == 0 and self.n else 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read().decode()


def wait_for(cond, secs):
    end = time.monotonic() + secs
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.1)
    return None


def promtool_lint(text):
    p = subprocess.run(["promtool", "check", "metrics"], input=text, text=True,
                       capture_output=True)
    return p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(), \
        p.stdout + p.stderr


class Prom:
    def __init__(self, tmp, target, job_extra="", name="prometheus"):
        """@job_extra: more YAML of the scrape job (scheme, tls_config, basic_auth)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.logpath = os.path.join(tmp, f"{name}.log")
        cfg = os.path.join(tmp, f"{name}.yml")
        with open(cfg, "w") as f:
            f.write(f"global:\n  scrape_interval: {SCRAPE}\n  scrape_timeout: 150ms\n"
                    f"scrape_configs:\n  - job_name: iocad\n{job_extra}"
                    f"    static_configs:\n      - targets: ['{target}']\n")
        self.log = open(self.logpath, "w")
        self.proc = subprocess.Popen(
            ["prometheus", f"--config.file={cfg}",
             f"--storage.tsdb.path={os.path.join(tmp, name + '-tsdb')}",
             f"--web.listen-address=127.0.0.1:{self.port}", "--log.level=warn"],
            stdout=self.log, stderr=subprocess.STDOUT)

    def discovered(self):
        """Its scrape loop exists (after service discovery's first update)."""
        try:
            return bool(self.api("targets")["data"]["activeTargets"])
        except (OSError, KeyError, ValueError):
            return False

    def ready(self):
        try:
            return "Ready" in get(self.url + "/-/ready", 1)
        except OSError:
            return False

    def api(self, path, **params):
        q = urllib.parse.urlencode(params)
        return json.loads(get(f"{self.url}/api/v1/{path}?{q}", 10))

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def start_iocad(iocad, root, tmp, port):
    ini = os.path.join(root, "examples/iocad/fig7a-aggregation.ini")
    with open(ini) as f:
        text = f.read().replace("interval_ms = 1000", f"interval_ms = {INTERVAL_MS}")
    cfg = os.path.join(tmp, "iocad.ini")
    with open(cfg, "w") as f:
        f.write(text + f"\n[metrics]\nlisten = 127.0.0.1:{port}\n"
                f"textfile = {os.path.join(tmp, 'ioca.prom')}\n")
    err = open(os.path.join(tmp, "iocad.err"), "w")
    proc = subprocess.Popen(
        [iocad, "--sim", os.path.join(root, "examples/iocad/fig7a-aggregation.scn"), cfg,
         "--pace", "--quiet", "--intervals", str(INTERVALS),
         "--trace", os.path.join(tmp, "trace.csv")],
        stdout=subprocess.DEVNULL, stderr=err)
    return proc, err


def served_at(tmp, err="iocad.err"):
    with open(os.path.join(tmp, err)) as f:
        for line in f:
            if "metrics: serving http" in line:
                return line.split("://")[1].split("/")[0]
    return None


def dashboard_checks(t, root, tmp, prom, at):
    with open(os.path.join(root, "iocad/dist/grafana/ioca.json")) as f:
        dash = json.load(f)
    with open(os.path.join(tmp, "ioca.prom")) as f:
        exported = promql_names.exported_names(f.read())
    queries = promql_names.dashboard_queries(dash)
    bad, used = [], set()
    for title, q in queries:
        names = promql_names.metric_names(q)
        used |= names
        if not names:
            bad.append(f"{title}: no metric name found in {q}")
        bad += [f"{title}: {n} is not exported" for n in sorted(names - exported)]
    t.check(len(queries) >= 15 and not bad,
            f"dashboard: all {len(queries)} queries name only exported metrics", "\n".join(bad))
    need = {"ioca_fsm_state", "ioca_tenant_llc_way", "ioca_ddio_llc_way",
            "ioca_ddio_hits_total", "ioca_ddio_misses_total", "ioca_tenant_ipc",
            "ioca_tenant_llc_misses_total"}
    t.check(need <= used, "dashboard: FSM state, way map, DDIO hits and misses, tenant IPC "
            "and misses are on it", f"missing: {sorted(need - used)}")
    failed = []
    for title, q in queries:
        if q.startswith("label_values("):
            continue
        e = (q.replace("$__rate_interval", "2s").replace("$__interval", "1s")
             .replace("$instance", ".*").replace("$socket", ".*").replace("$tenant", ".*"))
        r = prom.api("query", query=e, time=at)
        if r.get("status") != "success" or not r["data"]["result"]:
            failed.append(f"{title}: {e}: {r.get('error', 'no data')}")
    t.check(not failed, "dashboard: every panel query runs on Prometheus and returns data",
            "\n".join(failed))


def extractor_checks(t):
    got = promql_names.metric_names(
        'sum by (tenant) (rate(ioca_a_total{socket=~"$socket", x="y{z}"}[$__rate_interval]))'
        ' / on (socket) group_left ioca_b offset 5m > 1e3 and bogus_name')
    t.check(got == {"ioca_a_total", "ioca_b", "bogus_name"},
            "the dashboard check finds every metric name in an expression (so an unknown "
            "one fails it)", f"got {sorted(got)}")


def sigterm_check(t, iocad, root, tmp):
    """SIGTERM must reach the loop's thread, not the HTTP server's: with a
    60 s paced interval, iocad exits at once rather than at the interval's end."""
    ini = os.path.join(root, "examples/iocad/fig7a-aggregation.ini")
    with open(ini) as f:
        text = f.read().replace("interval_ms = 1000", "interval_ms = 60000")
    cfg = os.path.join(tmp, "slow.ini")
    with open(cfg, "w") as f:
        f.write(text + "\n[metrics]\nlisten = 127.0.0.1:0\n")
    with open(os.path.join(tmp, "slow.err"), "w") as err:
        p = subprocess.Popen([iocad, "--sim",
                              os.path.join(root, "examples/iocad/fig7a-aggregation.scn"),
                              cfg, "--pace", "--quiet"], stdout=subprocess.DEVNULL, stderr=err)
    path = os.path.join(tmp, "slow.err")
    up = wait_for(lambda: "serving" in open(path).read(), 10)
    time.sleep(0.5)  # into the first interval's wait
    p.terminate()
    try:
        rc = p.wait(20)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
    t.check(up and rc == 0, "SIGTERM ends a paced iocad with a metrics server within its "
            "60 s interval (exit 0)", open(path).read())


def main():
    iocad, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    t = Tap()
    for tool in ("prometheus", "promtool"):
        if not shutil.which(tool):
            t.check(False, f"{tool} is installed (scripts/deps.sh installs Debian's "
                    "prometheus package)")
            return t.done()
    extractor_checks(t)
    tmp = tempfile.mkdtemp(prefix="ioca-metrics-e2e-")
    sigterm_check(t, iocad, root, tmp)
    tls_auth.run(t, iocad, root, tmp, Prom, wait_for, served_at)
    node_exporter.run(t, iocad, root, tmp, wait_for)
    # Prometheus first, scraping a port iocad takes next: its scrapes then
    # cover the whole run however long Prometheus takes to start here.
    port = free_port()
    prom = Prom(tmp, f"127.0.0.1:{port}")
    proc = err = None
    try:
        up = wait_for(lambda: prom.ready() and prom.discovered(), 60)
        if not t.check(up, "Prometheus is ready and has its scrape target",
                       open(os.path.join(tmp, "prometheus.log")).read()):
            return t.done()
        proc, err = start_iocad(iocad, root, tmp, port)
        addr = wait_for(lambda: served_at(tmp), 10)
        if not t.check(addr == f"127.0.0.1:{port}", "iocad serves /metrics where Prometheus "
                       "scrapes", open(os.path.join(tmp, "iocad.err")).read()):
            return t.done()
        text = get(f"http://{addr}/metrics")
        ok, out = promtool_lint(text)
        t.check(ok, "promtool check metrics: the endpoint's text is clean", out)
        rc = proc.wait(INTERVALS * INTERVAL_MS / 1000 + 30)
        t.check(rc == 0, f"iocad ran {INTERVALS} intervals and exited 0",
                open(os.path.join(tmp, "iocad.err")).read())
        with open(os.path.join(tmp, "ioca.prom")) as f:
            ok, out = promtool_lint(f.read())
        t.check(ok, "promtool check metrics: the textfile is clean", out)
        with open(os.path.join(tmp, "trace.csv")) as f:
            trace = list(csv.DictReader(f))
        t.check(len(trace) == INTERVALS, f"the trace has {INTERVALS} rows", len(trace))
        r = prom.api("series", **{"match[]": 'ioca_fsm_state{job="iocad"}'})
        states = {s["state"] for s in r.get("data", []) if s.get("socket") == "0"}
        t.check(len(states) == 5, "Prometheus' series API returns ioca_fsm_state for socket 0 "
                "in its five states", r)
        r = prom.api("query", query='{__name__=~"ioca_.+",job="iocad"}[5m]', time=time.time())
        scrapes = trace_check.by_scrape(r["data"]["result"])
        trace_check.run(t, scrapes, trace)
        dashboard_checks(t, root, tmp, prom, max(scrapes) if scrapes else time.time())
        r = prom.api("query", query='ioca_tenant_info{job="iocad"}', time=max(scrapes))
        t.check({(s["metric"]["tenant"], s["metric"]["priority"]) for s in r["data"]["result"]}
                and all(s["value"][1] == "1" for s in r["data"]["result"]),
                "ioca_tenant_info carries each tenant's priority (value 1)", r)
        r = prom.api("query", query='count by (__name__) ({__name__=~"ioca_tenant_.+",'
                     'priority!=""})', time=max(scrapes))
        t.check([s["metric"]["__name__"] for s in r["data"]["result"]] == ["ioca_tenant_info"],
                "priority is on ioca_tenant_info only", r)
    finally:
        if proc and proc.poll() is None:
            proc.kill()
            proc.wait()
        if err:
            err.close()
        prom.stop()
        if t.failed:
            print(f"# kept {tmp} for a look")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
