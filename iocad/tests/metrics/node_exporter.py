# SPDX-License-Identifier: GPL-2.0
"""check-metrics: Debian's node_exporter, as its own user, reads the textfile.

iocad runs with umask 0077 (its unit's UMask=) and writes its textfile
into a directory laid out like /var/lib/prometheus/node-exporter (root's,
0755); prometheus-node-exporter runs as user prometheus (runuser) with
only its textfile collector on that directory. Its /metrics must carry
iocad's series and no textfile error. Needs root (to switch users).
"""
import os
import shutil
import subprocess
import urllib.request

USER = "prometheus"


def run(t, iocad, root, tmp, wait_for):
    from e2e import free_port  # noqa: E402

    exe = shutil.which("prometheus-node-exporter")
    if not t.check(exe, "node_exporter: prometheus-node-exporter is installed (scripts/deps.sh)"):
        return
    if os.geteuid() != 0:
        print("# node_exporter: skipped, needs root to run it as user prometheus")
        return
    d = os.path.join(tmp, "node-exporter")
    os.mkdir(d)
    os.chmod(tmp, 0o755)  # node_exporter's user must reach it
    os.chmod(d, 0o755)
    prom = os.path.join(d, "ioca.prom")
    ini = os.path.join(root, "examples/iocad/fig7a-aggregation.ini")
    cfg = os.path.join(tmp, "ne.ini")
    with open(ini) as f, open(cfg, "w") as o:
        o.write(f.read() + f"\n[metrics]\ntextfile = {prom}\n")
    p = subprocess.run([iocad, "--sim", os.path.join(root, "examples/iocad/fig7a-aggregation.scn"),
                        cfg, "--quiet", "--intervals", "5"], capture_output=True, text=True,
                       preexec_fn=lambda: os.umask(0o077))
    if not t.check(p.returncode == 0, "node_exporter: iocad wrote its textfile under umask 0077",
                   p.stderr):
        return
    mode = os.stat(prom).st_mode & 0o777
    t.check(mode == 0o644, f"node_exporter: the textfile is 0644 (got {mode:o})")
    port = free_port()
    log = open(os.path.join(tmp, "node-exporter.log"), "w")
    ne = subprocess.Popen(["runuser", "-u", USER, "--", exe, "--collector.disable-defaults",
                           "--collector.textfile", f"--collector.textfile.directory={d}",
                           f"--web.listen-address=127.0.0.1:{port}"],
                          stdout=log, stderr=subprocess.STDOUT)

    def scrape():
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
                return r.read().decode()
        except OSError:
            return None

    try:
        text = wait_for(scrape, 20) or ""
        lines = text.splitlines()
        t.check("node_textfile_scrape_error 0" in lines
                and any(l.startswith('ioca_intervals_total{socket="0"} 5') for l in lines)
                and any(l.startswith("ioca_tenant_info{") for l in lines),
                "node_exporter as user prometheus serves iocad's textfile with no error",
                "\n".join(l for l in lines if "textfile" in l or "ioca_intervals" in l)
                or open(os.path.join(tmp, "node-exporter.log")).read())
    finally:
        ne.terminate()
        try:
            ne.wait(10)
        except subprocess.TimeoutExpired:
            ne.kill()
            ne.wait()
        log.close()
