# SPDX-License-Identifier: GPL-2.0
"""check-metrics: a real Prometheus scrapes iocad over TLS with basic auth.

A self-signed certificate for 127.0.0.1 (openssl) and a bcrypt hash
(libcrypt, as htpasswd -B makes them) go into a web config of the format
Prometheus' exporters read; iocad serves with it ([metrics] web_config) for
30 paced intervals while Prometheus scrapes with scheme https, the
certificate as its CA and the user's password. Then: Prometheus stored
scrapes with up = 1, a request without or with a wrong password is 401, a
plain-HTTP request gets no metrics, /healthz needs no password.
"""
import base64
import ctypes
import ctypes.util
import os
import ssl
import subprocess
import time
import urllib.error
import urllib.request

USER, PASSWORD = "prometheus", "s3cret-scrape"


def bcrypt(password):
    lib = ctypes.CDLL(ctypes.util.find_library("crypt"))
    lib.crypt_gensalt.restype = ctypes.c_char_p
    lib.crypt_gensalt.argtypes = [ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p, ctypes.c_int]
    lib.crypt.restype = ctypes.c_char_p
    lib.crypt.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    salt = lib.crypt_gensalt(b"$2b$", 5, None, 0)
    return lib.crypt(password.encode(), salt).decode()


def make_files(tmp):
    cert, key = os.path.join(tmp, "tls.crt"), os.path.join(tmp, "tls.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=iocad",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    web = os.path.join(tmp, "web.yml")
    with open(web, "w") as f:
        # relative names: the web config's directory, as node_exporter reads them
        f.write(f"tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n"
                f"basic_auth_users:\n  {USER}: {bcrypt(PASSWORD)}\n")
    return cert, web


def status(url, ctx, user=None, password=None):
    req = urllib.request.Request(url)
    if user:
        tok = base64.b64encode(f"{user}:{password}".encode()).decode()
        req.add_header("Authorization", "Basic " + tok)
    try:
        with urllib.request.urlopen(req, timeout=5, context=ctx) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, ""
    except (OSError, ssl.SSLError) as e:
        return 0, str(e)


def run(t, iocad, root, tmp, prom_cls, wait_for, served_at):
    from e2e import free_port  # noqa: E402 (one module's helper, not a copy)

    cert, web = make_files(tmp)
    port = free_port()
    job = (f"    scheme: https\n    tls_config:\n      ca_file: {cert}\n"
           f"    basic_auth:\n      username: {USER}\n      password: {PASSWORD}\n")
    prom = prom_cls(tmp, f"127.0.0.1:{port}", job, name="prometheus-tls")
    ini = os.path.join(root, "examples/iocad/fig7a-aggregation.ini")
    with open(ini) as f:
        text = f.read().replace("interval_ms = 1000", "interval_ms = 100")
    cfg = os.path.join(tmp, "tls.ini")
    with open(cfg, "w") as f:
        f.write(text + f"\n[metrics]\nlisten = 127.0.0.1:{port}\nweb_config = {web}\n")
    errpath = os.path.join(tmp, "tls.err")
    proc = None
    try:
        up = wait_for(lambda: prom.ready() and prom.discovered(), 60)
        if not t.check(up, "TLS: Prometheus is ready", open(prom.logpath).read()):
            return
        with open(errpath, "w") as err:
            proc = subprocess.Popen(
                [iocad, "--sim", os.path.join(root, "examples/iocad/fig7a-aggregation.scn"), cfg,
                 "--pace", "--quiet", "--intervals", "40"], stdout=subprocess.DEVNULL, stderr=err)
        addr = wait_for(lambda: served_at(tmp, "tls.err"), 10)
        log = open(errpath).read()
        t.check(addr and f"serving https://127.0.0.1:{port}/metrics (basic auth)" in log,
                "TLS: iocad says it serves https with basic auth", log)
        ctx = ssl.create_default_context(cafile=cert)
        url = f"https://127.0.0.1:{port}"
        got = [status(url + "/metrics", ctx)[0],
               status(url + "/metrics", ctx, USER, "wrong")[0],
               status(url + "/metrics", ctx, USER, PASSWORD)[0],
               status(url + "/healthz", ctx)[0]]
        t.check(got == [401, 401, 200, 200], "TLS: no or a wrong password is 401, the user's "
                "is 200; /healthz needs none", got)
        code, body = status(f"http://127.0.0.1:{port}/metrics", None)
        t.check("ioca_" not in body, "TLS: plain HTTP gets no metrics", (code, body[:200]))
        rc = proc.wait(30)
        t.check(rc == 0, "TLS: iocad ran 40 paced intervals and exited 0", open(errpath).read())
        r = prom.api("query", query='max_over_time(up{job="iocad"}[1m])', time=time.time())
        ups = [s["value"][1] for s in r["data"]["result"]]
        r2 = prom.api("query", query='count_over_time(ioca_intervals_total{job="iocad"}[1m])',
                      time=time.time())
        n = int(r2["data"]["result"][0]["value"][1]) if r2["data"]["result"] else 0
        t.check(ups == ["1"] and n >= 5, f"TLS: Prometheus scraped iocad over TLS with basic "
                f"auth ({n} scrapes stored)", (r, r2, open(prom.logpath).read()))
    finally:
        if proc and proc.poll() is None:
            proc.kill()
            proc.wait()
        prom.stop()
