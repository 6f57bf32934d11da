# SPDX-License-Identifier: GPL-2.0
"""Metric names in PromQL expressions and Grafana dashboards.

Not a PromQL parser: it drops what cannot hold a metric name (strings,
label matchers, range and subquery brackets, grouping clauses, Grafana
variables, numbers and durations), then keeps the identifiers that are not
function calls or keywords. label_values(METRIC, LABEL) keeps METRIC only.
"""
import re

KEYWORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left",
    "group_right", "offset", "bool", "inf", "nan", "atan2", "start", "end",
}
IDENT = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")


def metric_names(expr):
    # label_values(SELECTOR, LABEL): the selector's matchers may hold commas
    lv = re.fullmatch(r"\s*label_values\(\s*(.*?)\s*(,\s*[A-Za-z_][A-Za-z0-9_]*\s*)?\)\s*",
                      expr)
    if lv:
        return metric_names(lv.group(1)) if lv.group(2) else set()
    s = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`', '""', expr)
    s = re.sub(r"\{[^}]*\}", " ", s)
    s = re.sub(r"\[[^\]]*\]", " ", s)
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", s)
    names = set()
    for m in IDENT.finditer(s):
        before = s[m.start() - 1] if m.start() else " "
        if before in "$." or before.isdigit():
            continue  # a Grafana variable, or part of a number or duration
        if s[m.end():].lstrip().startswith("("):
            continue  # a function call (or an aggregation)
        if m.group(0).lower() in KEYWORDS:
            continue
        names.add(m.group(0))
    return names


def dashboard_queries(dash):
    """Every PromQL expression of a dashboard: panel targets and variables."""
    out = []

    def panels(ps):
        for p in ps:
            for t in p.get("targets", []):
                if t.get("expr"):
                    out.append((p.get("title", "?"), t["expr"]))
            panels(p.get("panels", []))

    panels(dash.get("panels", []))
    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        if isinstance(q, dict):
            q = q.get("query")
        if v.get("type") == "query" and q:
            out.append(("variable " + v["name"], q))
    return out


def exported_names(exposition):
    """The metric families named by # TYPE lines of an exposition text."""
    return {l.split()[2] for l in exposition.splitlines() if l.startswith("# TYPE ")}
