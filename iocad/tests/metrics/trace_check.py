# SPDX-License-Identifier: GPL-2.0
"""Scrapes stored by Prometheus against iocad's CSV trace of the same run.

Every sample of one scrape has the scrape's timestamp, so a scrape is a
consistent snapshot: its ioca_interval_index names the trace row its gauges
must equal, and its counters must equal the sums of the rows up to it.
"""
IPC_TOL = 0.5e-4 + 1e-9  # the trace prints IPC with 4 decimals


class Scrape:
    def __init__(self, ts):
        self.ts = ts
        self.samples = []  # (name, labels, value)

    def get(self, name, **labels):
        hits = [v for n, l, v in self.samples
                if n == name and all(l.get(k) == str(w) for k, w in labels.items())]
        if len(hits) != 1:
            raise KeyError(f"{name}{labels}: {len(hits)} samples")
        return hits[0]

    def all(self, name):
        return [(l, v) for n, l, v in self.samples if n == name]


def by_scrape(result):
    """A query result of range vectors: {timestamp: Scrape}."""
    scrapes = {}
    for series in result:
        labels = dict(series["metric"])
        name = labels.pop("__name__")
        for ts, v in series["values"]:
            scrapes.setdefault(ts, Scrape(ts)).samples.append((name, labels, float(v)))
    return scrapes


def tenants(trace):
    return [c[:-5] for c in trace[0] if c.endswith("_ways") and c != "ddio_ways"]


def sim_tenants(trace):
    return [c[4:-7] for c in trace[0] if c.startswith("sim_") and c.endswith("_pkts_s")]


def near(a, b, tol):
    return abs(a - b) <= tol


def check_scrape(s, trace, sums, changes):
    """The mismatches of one scrape, as strings."""
    bad = []
    idx = int(s.get("ioca_interval_index", socket=0))
    row = trace[idx]

    def want(what, got, exp, tol=0):
        if not near(got, exp, tol):
            bad.append(f"scrape {s.ts} (interval {idx}): {what} = {got}, trace says {exp}")

    want("ioca_intervals_total", s.get("ioca_intervals_total", socket=0), idx + 1)
    want("ioca_platform_time_seconds", s.get("ioca_platform_time_seconds", socket=0),
         float(row["t_s"]), 1e-6)
    want("ioca_ddio_llc_ways", s.get("ioca_ddio_llc_ways", socket=0), int(row["ddio_ways"]))
    want("ioca_ddio_way_mask", s.get("ioca_ddio_way_mask", socket=0), int(row["ddio_mask"], 16))
    ways = {int(l["way"]) for l, v in s.all("ioca_ddio_llc_way") if v == 1}
    want("DDIO ways on the way map", sum(1 << w for w in ways), int(row["ddio_mask"], 16))
    want(f"ioca_fsm_state{{state={row['state']}}}",
         s.get("ioca_fsm_state", socket=0, state=row["state"]), 1)
    want("sum of ioca_fsm_state", sum(v for _, v in s.all("ioca_fsm_state")), 1)
    want("ioca_ddio_hits_total", s.get("ioca_ddio_hits_total", socket=0), sums[idx]["ddio_hits"])
    want("ioca_ddio_misses_total", s.get("ioca_ddio_misses_total", socket=0),
         sums[idx]["ddio_misses"])
    want(f"ioca_fsm_decisions_total{{reason={row['reason']}}}",
         s.get("ioca_fsm_decisions_total", socket=0, reason=row["reason"]),
         sums[idx]["reason:" + row["reason"]])
    want("ioca_fsm_transitions_total (all)",
         sum(v for _, v in s.all("ioca_fsm_transitions_total")), changes[idx])
    for t in tenants(trace):
        if not row[t + "_ways"]:
            continue
        want(f"{t} ways", s.get("ioca_tenant_llc_ways", tenant=t), int(row[t + "_ways"]))
        want(f"{t} mask", s.get("ioca_tenant_way_mask", tenant=t), int(row[t + "_mask"], 16))
        ways = {int(l["way"]) for l, v in s.all("ioca_tenant_llc_way") if l["tenant"] == t}
        want(f"{t} ways on the way map", sum(1 << w for w in ways), int(row[t + "_mask"], 16))
        want(f"{t} ipc", s.get("ioca_tenant_ipc", tenant=t), float(row[t + "_ipc"]), IPC_TOL)
        want(f"{t} refs", s.get("ioca_tenant_llc_references_total", tenant=t),
             sums[idx][t + "_llc_refs"])
        want(f"{t} misses", s.get("ioca_tenant_llc_misses_total", tenant=t),
             sums[idx][t + "_llc_misses"])
    want("sim memory traffic", s.get("ioca_sim_memory_traffic_bytes_per_second", socket=0),
         float(row["sim_mem_bytes_s"]))
    for t in sim_tenants(trace):
        want(f"sim {t} pkts/s", s.get("ioca_sim_tenant_packets_per_second", tenant=t),
             float(row[f"sim_{t}_pkts_s"]))
        want(f"sim {t} drops/s", s.get("ioca_sim_tenant_dropped_packets_per_second", tenant=t),
             float(row[f"sim_{t}_drops_s"]))
        want(f"sim {t} cycles/pkt", s.get("ioca_sim_tenant_cycles_per_packet", tenant=t),
             float(row[f"sim_{t}_cycles_per_pkt"]))
        want(f"sim {t} latency", s.get("ioca_sim_tenant_latency_seconds", tenant=t) * 1e9,
             float(row[f"sim_{t}_lat_ns"]), 1e-6)
        want(f"sim {t} refs/s", s.get("ioca_sim_tenant_references_per_second", tenant=t),
             float(row[f"sim_{t}_refs_s"]))
    return bad


def running_sums(trace):
    """Per row: the counters' sums up to it, and the FSM state changes up to it."""
    sums, changes, acc, n, prev = [], [], {}, 0, "low_keep"
    keys = ["ddio_hits", "ddio_misses"] + [f"{t}_llc_{k}" for t in tenants(trace)
                                           for k in ("refs", "misses")]
    for row in trace:
        for k in keys:
            acc[k] = acc.get(k, 0) + int(row[k] or 0)
        r = "reason:" + row["reason"]
        acc[r] = acc.get(r, 0) + 1
        n += row["state"] != prev
        prev = row["state"]
        sums.append(dict(acc))
        changes.append(n)
    return sums, changes


def run(t, scrapes, trace):
    sums, changes = running_sums(trace)
    seen = [s for s in scrapes.values() if any(n == "ioca_interval_index" for n, _, _ in s.samples)]
    idxs = {int(s.get("ioca_interval_index", socket=0)) for s in seen}
    t.check(len(idxs) >= 10, f"Prometheus stored scrapes of {len(idxs)} different intervals "
            "(at least 10)", sorted(idxs))
    t.check(any(changes[i] for i in idxs) and max(idxs, default=0) >= 100,
            "the scrapes span an FSM transition (the scenario's event at t = 10 s)",
            f"intervals {sorted(idxs)}, changes {changes[-1]}")
    bad = []
    for s in sorted(seen, key=lambda s: s.ts):
        try:
            bad += check_scrape(s, trace, sums, changes)
        except KeyError as e:
            bad.append(f"scrape {s.ts}: missing {e}")
    t.check(not bad, f"all {len(seen)} scrapes agree with the trace: gauges with the row of "
            "ioca_interval_index, counters with the sums up to it", "\n".join(bad))
