#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""abi_check.py: uapi/ioca.yaml, uapi/linux/ioca.h and kmod/ioca_nl_gen.c
must agree on every name and value, as if the header and the tables had
been generated from the spec by the kernel's YNL generator:

  - the spec follows the genetlink schema and the generator's rules
    (spec.py: allowed properties, types, resolvable min/max, references);
  - the header's consts, enums (render-max members included), attribute
    enums, command enum, family and multicast-group defines are exactly the
    spec's, in order, with the same values -- nothing more, nothing less;
  - each op of the tables exists in the spec and back, with the same
    handlers, flags, request policy (name, bound, maxattr, the exact request
    attribute list with types and min/max), and each nested policy reached
    from it matches the spec's nested set; a full set may have attributes
    the request policy leaves out only if their doc says "Reply only";
  - the multicast groups' names, indices and permission flags (admin-perm is
    GENL_MCAST_CAP_NET_ADMIN; GENL_MCAST_CAP_SYS_ADMIN beside it is allowed,
    YNL cannot say it), the family's name and version.

Every disagreement is printed as "FILE:LINE: what"; exit status 1 if any.
Usage: abi_check.py [--yaml F] [--header F] [--tables F] [--compat F]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cparse import Header, Tables  # noqa: E402
from spec import Spec, c_upper  # noqa: E402

NLA = {'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32', 'u64': 'NLA_U64',
       's32': 'NLA_S32', 's64': 'NLA_S64', 'uint': 'NLA_UINT', 'sint': 'NLA_SINT',
       'flag': 'NLA_FLAG', 'string': 'NLA_NUL_STRING', 'binary': 'NLA_BINARY',
       'nest': 'NLA_NESTED'}


class Checker:
    def __init__(self, spec, hdr, tab, compat_defines):
        self.s, self.h, self.t = spec, hdr, tab
        self.compat = compat_defines
        self.problems = []
        self.checked = 0
        self.seen_enums = set()

    def bad(self, path, line, msg):
        self.problems.append(f'{path}:{line}: {msg}')

    def ybad(self, node, msg):
        self.bad(self.s.path, getattr(node, 'line', 0) or 1, msg)

    # --- header ---------------------------------------------------------
    def header(self):
        s, h = self.s, self.h
        pfx = s.prefix()
        self.define_is(pfx + 'FAMILY_NAME', f'"{s.family}"', s.y)
        self.define_is(pfx + 'FAMILY_VERSION', '1', s.y)
        for name, (value, line) in s.consts.items():
            self.define_is(pfx + c_upper(name), str(value), _At(line))
        for d in s.enums.values():
            tag = (s.family + '_' + d['name']).lower().replace('-', '_')
            want = [(n, v, node) for n, v, node in s.enum_entries(d)]
            if d.get('render-max') and want:
                m = c_upper(f"{s.family}-{d['name']}-max")
                want += [('__' + m, want[-1][1] + 1, d), (m, want[-1][1], d)]
            self.enum_is(lambda e, tag=tag: e[0] == tag, f'enum {tag}', want, d)
        for st in s.sets.values():
            if st.get('subset-of'):
                continue
            attrs, maxname = s.attr_enum(st)
            if not attrs:
                continue
            want = attrs + [('__' + maxname, attrs[-1][1] + 1, st), (maxname, attrs[-1][1], st)]
            first = attrs[0][0]
            self.enum_is(lambda e, first=first: any(m[0] == first for m in e[1]),
                         f"attribute enum of set {st['name']}", want, st)
        cmds = s.cmd_enum()
        if cmds:
            m = pfx + 'CMD_MAX'
            want = cmds + [('__' + m, cmds[-1][1] + 1, s.y), (m, cmds[-1][1], s.y)]
            first = cmds[0][0]
            self.enum_is(lambda e: any(m[0] == first for m in e[1]), 'command enum', want, s.y)
        grps = s.y.get('mcast-groups', {}).get('list', [])
        for g in grps:
            self.define_is(pfx + 'MCGRP_' + c_upper(g['name']), f'"{g["name"]}"', g)
        # Whatever the header has beyond the spec.
        for i, (tag, members, line) in enumerate(h.enums):
            if i not in self.seen_enums:
                self.bad(h.path, line, f"enum {tag or '(anonymous)'} starting with "
                         f"{members[0][0] if members else '?'} has no counterpart in {s.path}")
        known = {pfx + 'FAMILY_NAME', pfx + 'FAMILY_VERSION'}
        known |= {pfx + c_upper(n) for n in s.consts}
        known |= {pfx + 'MCGRP_' + c_upper(g['name']) for g in grps}
        for name, (text, line) in h.defines.items():
            if name.startswith(pfx) and name not in known:
                self.bad(h.path, line, f'#define {name} {text} has no counterpart in {s.path}')

    def define_is(self, name, want, node):
        self.checked += 1
        got = self.h.defines.get(name)
        if got is None:
            self.ybad(node, f'{self.h.path} lacks #define {name} {want}')
        elif got[0] != want and self.h.values.get(name) != _int(want):
            self.bad(self.h.path, got[1], f'#define {name} is {got[0]}, {self.s.path} says {want}')

    def enum_is(self, match, what, want, node):
        for i, e in enumerate(self.h.enums):
            if i not in self.seen_enums and match(e):
                self.seen_enums.add(i)
                break
        else:
            self.ybad(node, f'{self.h.path} has no {what} ({want[0][0]} ...)')
            return
        got = e[1]
        for k in range(max(len(want), len(got))):
            self.checked += 1
            if k >= len(got):
                self.ybad(want[k][2], f'{what}: {self.h.path} lacks {want[k][0]} = {want[k][1]}')
            elif k >= len(want):
                self.bad(self.h.path, got[k][2], f'{what}: {got[k][0]} is not in {self.s.path}')
            elif got[k][0] != want[k][0] or got[k][1] != want[k][1]:
                self.bad(self.h.path, got[k][2], f'{what}: {got[k][0]} = {got[k][1]}, but '
                         f'{self.s.path} gives {want[k][0]} = {want[k][1]} at this position')

    # --- kernel tables --------------------------------------------------
    def tables(self):
        s, t = self.s, self.t
        pfx = s.prefix()
        by_cmd = {}
        for op in t.ops:
            cmd = op.get('cmd', ('?', op['_line']))[0]
            by_cmd[cmd] = op
        want_cmds = set()
        for cname, _, op in s.cmd_enum():
            if 'do' not in op and 'dump' not in op:
                continue
            want_cmds.add(cname)
            c = by_cmd.get(cname)
            if c is None:
                self.ybad(op, f"op {op['name']}: {t.path} has no genl_ops entry with .cmd = {cname}")
                continue
            self.op(op, cname, c)
        for cmd, c in by_cmd.items():
            if cmd not in want_cmds:
                self.bad(t.path, c['_line'], f'genl_ops .cmd = {cmd} is no do/dump op of {s.path}')
        self.mcgrps()
        fam = t.family
        for key, want in (('name', pfx + 'FAMILY_NAME'), ('version', pfx + 'FAMILY_VERSION')):
            self.checked += 1
            got = fam.get(key)
            if got is None or got[0] != want:
                self.bad(t.path, got[1] if got else t.family_line,
                         f"genl_family .{key} is {got[0] if got else 'missing'}, want {want}")

    def op(self, op, cname, c):
        s, t = self.s, self.t
        what = f"op {op['name']} ({cname})"
        for mode, key in (('do', 'doit'), ('dump', 'dumpit')):
            self.checked += 1
            if (mode in op) != (key in c):
                self.bad(t.path, c['_line'], f"{what}: .{key} {'missing' if mode in op else 'present'}"
                         f" but {s.path} {'has' if mode in op else 'has no'} '{mode}'")
        want_flags = {'GENL_' + c_upper(f) for f in op.get('flags', [])}
        got_flags = {f.strip() for f in c['flags'][0].split('|')} if 'flags' in c else set()
        self.checked += 1
        if want_flags != got_flags:
            self.bad(t.path, c.get('flags', (0, c['_line']))[1],
                     f"{what}: flags {sorted(got_flags) or 'none'}, {s.path} says {sorted(want_flags) or 'none'}")
        req = ((op.get('do') or {}).get('request') or {}).get('attributes', [])
        aset = op.get('attribute-set')
        self.checked += 1
        if not req:
            if 'policy' in c:
                self.bad(t.path, c['policy'][1], f'{what}: has a policy but {s.path} lists no request attributes')
            return
        pname = f"{s.family}_{op['name']}".replace('-', '_') + '_nl_policy'
        if 'policy' not in c:
            self.ybad(op, f'{what}: requests take {req}, but {t.path} has no .policy for it')
            return
        if c['policy'][0] != pname:
            self.bad(t.path, c['policy'][1], f'{what}: .policy is {c["policy"][0]}, ynl-gen names it {pname}')
        p = t.policies.get(c['policy'][0])
        if p is None:
            self.bad(t.path, c['policy'][1], f"{what}: policy {c['policy'][0]} not found")
            return
        self.policy(p, aset, req, op, exact=True)
        self.checked += 1
        if 'maxattr' not in c or c['maxattr'][0] != p.bound:
            self.bad(t.path, c.get('maxattr', (0, c['_line']))[1],
                     f"{what}: .maxattr is {c.get('maxattr', ('missing',))[0]}, its policy's bound is {p.bound}")

    def policy(self, p, set_name, names, node, exact, seen=None):
        """Policy p against attributes `names` of set_name. exact: every name
        must have an entry; else a missing one must be documented reply-only."""
        s, t = self.s, self.t
        seen = seen or set()
        seen.add(p.name)
        want = {}
        for n in names:
            a = s.full_attr(set_name, n)
            if a is None or a.get('type') == 'pad':
                continue
            cn = self.attr_cname(set_name, n)
            want[cn] = (n, a)
        for cn, e in p.entries.items():
            self.checked += 1
            if cn not in want:
                self.bad(t.path, e['line'], f'{p.name}: [{cn}] is not a request attribute of '
                         f"set {set_name} in {s.path}")
                continue
            self.entry(p, cn, e, want[cn][1], set_name, seen)
        for cn, (n, a) in want.items():
            if cn in p.entries:
                continue
            self.checked += 1
            if exact or 'reply only' not in ' '.join(a.get('doc', '').split()).lower():
                self.bad(t.path, p.line, f"{p.name}: no entry for [{cn}], which {s.path}:{a.line} "
                         f"puts in the request (set {set_name}); the spec nests more than the kernel accepts")
        if p.entries:
            top = max(p.entries, key=lambda cn: self.h.values.get(cn, -1))
            self.checked += 1
            if p.bound != top:
                self.bad(t.path, p.line, f'{p.name}: bound [{p.bound} + 1], but its highest entry is {top}')

    def entry(self, p, cn, e, a, set_name, seen):
        s, t = self.s, self.t
        want_type = NLA.get(a.get('type'), '?')
        ok_types = {want_type} | ({'NLA_STRING'} if want_type == 'NLA_NUL_STRING' else set())
        if e['type'] not in ok_types:
            self.bad(t.path, e['line'], f"{p.name}: [{cn}] is {e['text']}, {s.path}:{a.line} "
                     f"says type {a.get('type')} ({want_type})")
            return
        lo, hi = s.limits(a)
        if (lo, hi) != (e['min'], e['max']):
            self.bad(t.path, e['line'], f'{p.name}: [{cn}] enforces min {e["min"]} max {e["max"]}, '
                     f'{s.path}:{a.line} says min {lo} max {hi}')
        if a.get('type') == 'nest':
            nested = a.get('nested-attributes')
            np_ = t.policies.get(e['nested'])
            if np_ is None:
                self.bad(t.path, e['line'], f"{p.name}: [{cn}] nests {e['nested']}, not a policy here")
            elif np_.name not in seen:
                ns = s.sets[nested]
                names = [x['name'] for x in ns.get('attributes', [])]
                self.policy(np_, nested, names, a, exact=bool(ns.get('subset-of')), seen=seen)

    def attr_cname(self, set_name, name):
        st = self.s.sets[set_name]
        base = self.s.sets[st['subset-of']] if st.get('subset-of') else st
        pfx = base.get('name-prefix', f"{self.s.family}-a-{base['name']}-")
        return c_upper(pfx + name)

    def mcgrps(self):
        s, t = self.s, self.t
        grps = s.y.get('mcast-groups', {}).get('list', [])
        pfx = s.prefix()
        for g in grps:
            self.checked += 1
            want_name = pfx + 'MCGRP_' + c_upper(g['name'])
            c = next((x for x in t.mcgrps if x.get('name', ('',))[0] == want_name), None)
            if c is None:
                self.ybad(g, f"mcast group {g['name']}: {t.path} has none with .name = {want_name}")
                continue
            idx = pfx + 'NLGRP_' + c_upper(g['name'])
            if c.get('_index') != idx:
                self.bad(t.path, c['_line'], f"mcast group {g['name']}: index [{c.get('_index')}], want [{idx}]")
            want = {'GENL_MCAST_CAP_NET_ADMIN'} if 'admin-perm' in g.get('flags', []) else set()
            got = set()
            if 'flags' in c:
                text = self.compat.get(c['flags'][0], c['flags'][0])
                got = {f.strip() for f in text.strip('() ').split('|')}
            # admin-perm is CAP_NET_ADMIN; YNL has no word for the stricter
            # CAP_SYS_ADMIN, so asking it as well is not a disagreement.
            if not want <= got or got - want - {'GENL_MCAST_CAP_SYS_ADMIN'} or \
                    (got and not want):
                self.bad(t.path, c.get('flags', (0, c['_line']))[1],
                         f"mcast group {g['name']}: flags {sorted(got) or 'none'}, "
                         f"{s.path}:{g.line} says {g.get('flags', [])} ({sorted(want) or 'none'})")
        if len(t.mcgrps) != len(grps):
            self.bad(t.path, t.mcgrps[0]['_line'] if t.mcgrps else 1,
                     f'{len(t.mcgrps)} multicast group(s), {s.path} has {len(grps)}')


class _At:
    def __init__(self, line):
        self.line = line


def _int(text):
    try:
        return int(text, 0)
    except ValueError:
        return None


def compat_defines(path):
    """Macro -> first definition in a compat header (the ifdef's branch)."""
    out = {}
    if path and os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for m in re.finditer(r'^\s*#define\s+(\w+)\s+([\w\s|()]+?)\s*$', f.read(), re.M):
                out.setdefault(m.group(1), m.group(2))
    return out


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--yaml', default=os.path.join(root, 'uapi/ioca.yaml'))
    ap.add_argument('--header', default=os.path.join(root, 'uapi/linux/ioca.h'))
    ap.add_argument('--tables', default=os.path.join(root, 'kmod/ioca_nl_gen.c'))
    ap.add_argument('--compat', default=os.path.join(root, 'kmod/compat.h'))
    args = ap.parse_args()
    rel = {k: os.path.relpath(v) for k, v in vars(args).items()}

    spec = Spec(rel['yaml'])
    hdr = Header(rel['header'])
    tab = Tables(rel['tables'], hdr.values)
    chk = Checker(spec, hdr, tab, compat_defines(rel['compat']))
    for line, msg in spec.errors:
        chk.bad(spec.path, line, msg)
    chk.header()
    chk.tables()
    for p in chk.problems:
        print(p)
    if chk.problems:
        print(f'abi: {len(chk.problems)} disagreement(s) between {rel["yaml"]}, '
              f'{rel["header"]} and {rel["tables"]}')
        return 1
    print(f'abi: {rel["yaml"]}, {rel["header"]} and {rel["tables"]} agree '
          f'({chk.checked} names and values checked)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
