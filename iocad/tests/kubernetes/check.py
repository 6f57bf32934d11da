#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host test of iocad/dist/kubernetes (TAP, run by `make -C iocad check`
from iocad/): every YAML document parses (PyYAML, as Kubernetes' own
loaders take YAML 1.1/JSON), the DaemonSet asks for exactly what iocad
needs and nothing more, and the ConfigMaps' iocad.ini with its tenant
files passes `iocad --check-config` (on this host's CPUs, with
tenants_dir pointed at the ConfigMap's files as the pod mounts them).
Nothing here talks to a cluster."""
import copy
import os
import ssl
import subprocess
import sys
import tempfile
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.join(HERE, "..", "..", "dist", "kubernetes")
IOCAD = os.path.join(HERE, "..", "..", "build", "iocad")

n = 0
failed = 0


def check(desc, cond, why=""):
    global n, failed
    n += 1
    if cond:
        print(f"ok {n} - kubernetes: {desc}")
    else:
        failed += 1
        print(f"not ok {n} - kubernetes: {desc}")
        if why:
            for line in str(why).splitlines():
                print(f"# {line}")


def load(name):
    with open(os.path.join(DIST, name), encoding="utf-8") as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


docs = {}
for name in ("daemonset.yaml", "configmap.yaml"):
    try:
        docs[name] = load(name)
        ok = all(isinstance(d, dict) and d.get("apiVersion") and d.get("kind")
                 for d in docs[name])
        check(f"{name} parses, every document has apiVersion and kind", ok)
    except yaml.YAMLError as e:
        docs[name] = []
        check(f"{name} parses", False, e)

kinds = {(d["kind"], d["metadata"]["name"]): d
         for ds in docs.values() for d in ds}
ds = kinds.get(("DaemonSet", "iocad"))
check("a DaemonSet iocad", ds is not None)
spec = ds["spec"]["template"]["spec"] if ds else {}
meta = ds["spec"]["template"]["metadata"] if ds else {}
check("hostNetwork (the ioca family lives in the initial network namespace)",
      spec.get("hostNetwork") is True)
ctr = next((c for c in spec.get("containers", []) if c["name"] == "iocad"), {})
sc = ctr.get("securityContext", {})
caps = sc.get("capabilities", {})
check("capabilities: all dropped, exactly NET_ADMIN, SYS_RAWIO, PERFMON added",
      caps.get("drop") == ["ALL"] and
      sorted(caps.get("add", [])) == ["NET_ADMIN", "PERFMON", "SYS_RAWIO"], caps)
check("not privileged, no privilege escalation, read-only root filesystem",
      not sc.get("privileged") and sc.get("allowPrivilegeEscalation") is False and
      sc.get("readOnlyRootFilesystem") is True)
check("the init container drops every capability",
      all(c.get("securityContext", {}).get("capabilities", {}).get("drop") == ["ALL"]
          and not c.get("securityContext", {}).get("capabilities", {}).get("add")
          for c in spec.get("initContainers", [])))
vols = {v["name"]: v for v in spec.get("volumes", [])}
mounts = {m["mountPath"]: m for m in ctr.get("volumeMounts", [])}
host = {vols[m["name"]].get("hostPath", {}).get("path"): m
        for m in mounts.values() if "hostPath" in vols.get(m["name"], {})}
check("hostPath volumes: /sys/fs/resctrl, /sys/fs/cgroup, /run/iocad, "
      "/run/ioca/tenants.d and nothing else",
      sorted(host) == ["/run/ioca/tenants.d", "/run/iocad", "/sys/fs/cgroup",
                       "/sys/fs/resctrl"], sorted(host))
check("/sys/fs/resctrl writable, /sys/fs/cgroup and the tenant dir read-only",
      not host.get("/sys/fs/resctrl", {}).get("readOnly") and
      host.get("/sys/fs/cgroup", {}).get("readOnly") is True and
      host.get("/run/ioca/tenants.d", {}).get("readOnly") is True)
ann = meta.get("annotations", {})
port = [p["containerPort"] for p in ctr.get("ports", []) if p.get("name") == "metrics"]
check("Prometheus scrape annotations name the metrics port",
      ann.get("prometheus.io/scrape") == "true" and
      ann.get("prometheus.io/path") == "/metrics" and
      port and ann.get("prometheus.io/port") == str(port[0]), ann)
check("scheduled only where ioca.ko is loaded (a node label), loads nothing itself",
      spec.get("nodeSelector", {}).get("ioca/ready") == "true" and
      "SYS_MODULE" not in caps.get("add", []))

ns = kinds.get(("Namespace", "ioca-system"), {})
labels = ns.get("metadata", {}).get("labels", {})
check("the Namespace enforces Pod Security level privileged (hostNetwork, hostPath)",
      labels.get("pod-security.kubernetes.io/enforce") == "privileged", labels)
aa_field = sc.get("appArmorProfile", {}).get("type")
aa_ann = ann.get("container.apparmor.security.beta.kubernetes.io/iocad")
check("AppArmor unconfined (the runtime default denies resctrl writes), "
      "field and annotation agree",
      aa_field == "Unconfined" and aa_ann == "unconfined", (aa_field, aa_ann))
probes = [ctr.get("livenessProbe", {}), ctr.get("readinessProbe", {})]
check("liveness and readiness probes GET /healthz on the metrics port, on loopback",
      all(p.get("httpGet", {}).get("path") == "/healthz" and
          p.get("httpGet", {}).get("port") == "metrics" and
          p.get("httpGet", {}).get("host") == "127.0.0.1" for p in probes), probes)
tol = spec.get("tolerations", [])
check("tolerates control-plane nodes and every other taint",
      any(t.get("key") == "node-role.kubernetes.io/control-plane" for t in tol) and
      any(t.get("operator") == "Exists" and "key" not in t for t in tol), tol)
allc = spec.get("containers", []) + spec.get("initContainers", [])
check("every container requests CPU and memory and limits memory",
      all(c.get("resources", {}).get("requests", {}).get("cpu") and
          c.get("resources", {}).get("requests", {}).get("memory") and
          c.get("resources", {}).get("limits", {}).get("memory") for c in allc))
check("iocad logs --quiet (no line per interval)", "--quiet" in ctr.get("command", []))
with open(os.path.join(HERE, "..", "..", "..", "VERSION"), encoding="utf-8") as f:
    version = f.read().strip()
images = sorted({c.get("image") for c in allc})
check(f"every container runs localhost/ioca/iocad:{version} (make image's tag, VERSION)",
      images == [f"localhost/ioca/iocad:{version}"], images)

cfg = kinds.get(("ConfigMap", "iocad-config"), {}).get("data", {})
ten = kinds.get(("ConfigMap", "iocad-tenants"), {}).get("data", {})
cmd = ctr.get("command", [])
check("the container runs iocad on the ConfigMap's iocad.ini",
      cmd[:1] == ["iocad"] and cmd[-1] == "/etc/ioca/config/iocad.ini" and
      "iocad.ini" in cfg and mounts.get("/etc/ioca/config", {}).get("name") == "config" and
      vols.get("config", {}).get("configMap", {}).get("name") == "iocad-config")
check("the tenants ConfigMap is mounted where iocad.ini's tenants_dir says",
      "tenants_dir = /etc/ioca/tenants.d" in cfg.get("iocad.ini", "") and
      mounts.get("/etc/ioca/tenants.d", {}).get("name") == "tenants" and
      vols.get("tenants", {}).get("configMap", {}).get("name") == "iocad-tenants")
check("cgroup_root is where the host's cgroup tree is mounted",
      "cgroup_root = /host/sys/fs/cgroup" in cfg.get("iocad.ini", "") and
      "/host/sys/fs/cgroup" in mounts)

def metrics_keys(ini):
    """[metrics]'s keys of an iocad.ini text (last value wins, as iocad reads)."""
    keys, section = {}, None
    for ln in ini.splitlines():
        ln = ln.split(";", 1)[0].strip()
        if ln.startswith("[") and ln.endswith("]"):
            section = ln[1:-1].strip()
        elif section == "metrics" and "=" in ln:
            k, v = (x.strip() for x in ln.split("=", 1))
            keys[k] = v
    return keys


def exposure_problems(ini, tmpl):
    """What is unsafe or inconsistent in how the pod template @tmpl serves
    iocad.ini's metrics endpoint: a listen beyond loopback without
    web_config (hostNetwork: every node address, no TLS, no password), a
    web_config not from a mandatory read-only Secret, probes or the scrape
    annotation whose scheme does not match the endpoint's. [] when safe."""
    spec, ann = tmpl.get("spec", {}), tmpl.get("metadata", {}).get("annotations", {})
    c = next((c for c in spec.get("containers", []) if c.get("name") == "iocad"), {})
    m = metrics_keys(ini)
    listen, web = m.get("listen", ""), m.get("web_config", "")
    host = listen.rsplit(":", 1)[0] if ":" in listen else "127.0.0.1"
    loopback = host.startswith("127.") or host == "[::1]"
    tls = bool(web)
    bad = []
    if listen and not loopback and not tls:
        bad.append(f"listen = {listen} (every address of the node, hostNetwork) "
                   "without web_config: no TLS, no authentication")
    if tls:
        vols = {v["name"]: v for v in spec.get("volumes", [])}
        mnt = next((mt for mt in c.get("volumeMounts", [])
                    if os.path.dirname(web) == mt.get("mountPath")), None)
        sec = vols.get(mnt["name"], {}).get("secret") if mnt else None
        if not sec or sec.get("optional") or not mnt.get("readOnly"):
            bad.append(f"web_config = {web} is not in a read-only mount of a Secret "
                       f"that is not optional (mount {mnt}, secret {sec})")
        elif sec.get("defaultMode", 0o644) & 0o077:
            bad.append(f"the Secret's files (key, bcrypt hashes) are readable by others: "
                       f"defaultMode {oct(sec.get('defaultMode', 0o644))}")
    want = "HTTPS" if tls else "HTTP"
    for name in ("livenessProbe", "readinessProbe"):
        got = c.get(name, {}).get("httpGet", {}).get("scheme", "HTTP")
        if listen and got != want:
            bad.append(f"{name} scheme {got}, the endpoint serves {want}")
        # The probe's address must be one the socket accepts: iocad binds
        # [::] IPv6-only (no dual stack), and a node address (one for every
        # node in one ConfigMap) is no loopback.
        probe_host = c.get(name, {}).get("httpGet", {}).get("host")
        reach = {"127.0.0.1": ("0.0.0.0", "127.0.0.1"), "::1": ("[::]", "[::1]")}
        if listen and probe_host in reach and host not in reach[probe_host]:
            bad.append(f"{name} at {probe_host} cannot reach listen = {listen}")
    if listen and ann.get("prometheus.io/scheme", "http") != want.lower():
        bad.append(f"annotation prometheus.io/scheme {ann.get('prometheus.io/scheme')}, "
                   f"the endpoint serves {want.lower()}")
    return bad


tmpl = ds["spec"]["template"] if ds else {}
ini = cfg.get("iocad.ini", "")
bad = exposure_problems(ini, tmpl)
check("the metrics endpoint beyond loopback has TLS and basic auth (web_config from a "
      "mandatory read-only Secret), probes and scrape annotation use https",
      not bad and metrics_keys(ini).get("web_config"), bad)
# ... and the check is not blind: the old default (0.0.0.0 in the clear),
# probes left on HTTP, and an optional Secret are each refused
old_ini = ini.replace("web_config =", "; web_config =")
http_probes = copy.deepcopy(tmpl)
for p in ("livenessProbe", "readinessProbe"):
    for c in http_probes.get("spec", {}).get("containers", []):
        c.get(p, {}).get("httpGet", {}).pop("scheme", None)
optional = copy.deepcopy(tmpl)
for v in optional.get("spec", {}).get("volumes", []):
    if "secret" in v:
        v["secret"]["optional"] = True
v6_ini = ini.replace("listen = 0.0.0.0:", "listen = [::]:")
check("... and refuses listen = 0.0.0.0 without web_config, HTTP probes on TLS, an "
      "optional Secret, a listen the probes at 127.0.0.1 cannot reach ([::], IPv6 only)",
      any("without web_config" in b for b in exposure_problems(old_ini, tmpl)) and
      any("livenessProbe scheme HTTP" in b for b in exposure_problems(ini, http_probes)) and
      any("not optional" in b for b in exposure_problems(ini, optional)) and
      v6_ini != ini and
      any("127.0.0.1 cannot reach listen = [::]" in b for b in exposure_problems(v6_ini, tmpl)),
      (exposure_problems(old_ini, tmpl), exposure_problems(ini, http_probes),
       exposure_problems(v6_ini, tmpl)))


# The lock in /run/iocad is shared with a systemd iocad on the same node
# (README.md here): the unit must never remove that directory. Removed when
# its start is refused (the pod holds the lock), it takes the pod's lock
# file and hostPath mount along, and the next start runs a second iocad.
UNIT = os.path.join(HERE, "..", "..", "dist", "iocad.service.in")
with open(UNIT, encoding="utf-8") as f:
    unit = [ln.strip() for ln in f if not ln.lstrip().startswith("#")]
check("the systemd unit never removes /run/iocad, where the pod takes the lock "
      "(RuntimeDirectory=iocad with RuntimeDirectoryPreserve=yes)",
      "/run/iocad" in host and "RuntimeDirectory=iocad" in unit and
      "RuntimeDirectoryPreserve=yes" in unit,
      [ln for ln in unit if ln.startswith("RuntimeDirectory")])

# The Kubernetes API schema (validate.mjs, kubernetes-models from npm), and
# a document it must refuse, so a validator that passes everything fails.
VALIDATE = os.path.join(HERE, "validate.mjs")
if not os.path.isdir(os.path.join(HERE, "node_modules", "kubernetes-models")):
    check("the manifests validate against the Kubernetes API schema", False,
          "no iocad/tests/kubernetes/node_modules: run scripts/deps.sh (npm ci there)")
else:
    files = [os.path.join(DIST, n) for n in ("daemonset.yaml", "configmap.yaml")]
    r = subprocess.run(["node", VALIDATE] + files, capture_output=True, text=True,
                       check=False)
    check(f"the manifests validate against the Kubernetes API schema "
          f"({r.stdout.count('ok ')} documents)",
          r.returncode == 0 and r.stdout.count("ok ") == sum(len(d) for d in docs.values()),
          r.stdout + r.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        broken = os.path.join(tmp, "broken.yaml")
        with open(os.path.join(DIST, "daemonset.yaml"), encoding="utf-8") as f:
            text = f.read()
        with open(broken, "w", encoding="utf-8") as f:
            f.write(text.replace("periodSeconds: 10", "periodSeconds: ten", 1))
        r = subprocess.run(["node", VALIDATE, broken], capture_output=True, text=True,
                           check=False)
        check("... and refuses a probe period that is not an integer",
              r.returncode == 1 and "periodSeconds must be integer" in r.stdout,
              r.stdout + r.stderr)

# iocad --check-config on the ConfigMaps as the pod sees them
with tempfile.TemporaryDirectory() as tmp:
    tdir = os.path.join(tmp, "tenants.d")
    os.mkdir(tdir)
    for name, text in ten.items():
        with open(os.path.join(tdir, name), "w", encoding="utf-8") as f:
            f.write(text)
    ini = cfg.get("iocad.ini", "").replace("/etc/ioca/tenants.d", tdir)
    ini = ini.replace("/run/ioca/tenants.d", os.path.join(tmp, "none.d"))
    path = os.path.join(tmp, "iocad.ini")
    with open(path, "w", encoding="utf-8") as f:
        f.write(ini)
    r = subprocess.run([IOCAD, "--check-config", path], capture_output=True, text=True,
                       check=False)
    out = r.stdout + r.stderr
    check("iocad --check-config accepts iocad.ini with the ConfigMap's tenants",
          r.returncode == 0 and f"ok: {len(ten)} tenant(s)" in out, out)
    # and the check is not blind: a broken tenant file fails it, naming file:line
    with open(os.path.join(tdir, "zz-bad.ini"), "w", encoding="utf-8") as f:
        f.write("[tenant bad]\ncpus = 0\nways = 1\n")
    r = subprocess.run([IOCAD, "--check-config", path], capture_output=True, text=True,
                       check=False)
    out = r.stdout + r.stderr
    check("... and refuses a tenant file that conflicts, naming file:line",
          r.returncode == 2 and "zz-bad.ini:2: [tenant bad] cpus: CPU 0 is also in tenant"
          in out, out)

# The ConfigMap's [metrics] served as the pod serves it: its web_config in a
# directory laid out as the kubelet mounts a Secret (the keys are links
# through ..data into a timestamped directory), made with the commands
# README.md here gives (openssl; the bcrypt hash from libcrypt as htpasswd
# -B makes it: tests/metrics/tls_auth.py), and the probes' request: HTTPS
# without verifying the certificate (as the kubelet does), no password.
sys.path.insert(0, os.path.join(HERE, "..", "metrics"))
import tls_auth  # noqa: E402 (its certificate and web.yml, not a copy)


def https(url, user=None, password=None):
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return tls_auth.status(url, ctx, user, password)


with tempfile.TemporaryDirectory() as tmp:
    data = os.path.join(tmp, "web", "..2026_01_01_00_00_00.000000000")
    os.makedirs(data)
    tls_auth.make_files(data)
    web = os.path.join(tmp, "web")
    os.symlink(os.path.basename(data), os.path.join(web, "..data"))
    for key in ("web.yml", "tls.crt", "tls.key"):
        os.symlink(os.path.join("..data", key), os.path.join(web, key))
    mk = metrics_keys(cfg.get("iocad.ini", ""))
    with open(os.path.join(HERE, "..", "..", "..", "examples/iocad/fig7a-aggregation.ini"),
              encoding="utf-8") as f:
        ini = f.read().replace("interval_ms = 1000", "interval_ms = 100")
    path = os.path.join(tmp, "iocad.ini")
    with open(path, "w", encoding="utf-8") as f:
        f.write(ini + "\n[metrics]\nlisten = 127.0.0.1:0\nweb_config = " +
                mk.get("web_config", "").replace("/etc/ioca/web", web) + "\n")
    errpath = os.path.join(tmp, "iocad.err")
    with open(errpath, "w", encoding="utf-8") as err:
        proc = subprocess.Popen(
            [IOCAD, "--sim", os.path.join(HERE, "..", "..", "..",
                                          "examples/iocad/fig7a-aggregation.scn"),
             path, "--pace", "--quiet", "--intervals", "100"],
            stdout=subprocess.DEVNULL, stderr=err)
    addr = None
    try:
        for _ in range(100):
            with open(errpath, encoding="utf-8") as f:
                addr = next((ln.split("://")[1].split("/")[0] for ln in f
                             if "metrics: serving https://" in ln), None)
            if addr or proc.poll() is not None:
                break
            time.sleep(0.1)
        got = [https(f"https://{addr}/healthz")[0], https(f"https://{addr}/metrics")[0],
               tls_auth.status(f"http://{addr}/healthz", None)[0]] if addr else []
    finally:
        proc.kill()
        proc.wait()
    with open(errpath, encoding="utf-8") as f:
        log = f.read()
    check("the ConfigMap's web_config from a Secret-like mount: the probes' HTTPS GET "
          "/healthz is 200 without a password, /metrics 401 without one, plain HTTP "
          "refused", got[:2] == [200, 401] and got[2] != 200, (got, log))

print(f"1..{n}")
sys.exit(1 if failed else 0)
