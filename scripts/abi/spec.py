# SPDX-License-Identifier: GPL-2.0
"""Loads a YNL (genetlink protocol) spec with line numbers, checks it against
the rules of the kernel's YNL schema and generator, and derives the C names
and values the generator would give its uAPI header and kernel policies.

The rules come from Documentation/netlink/genetlink.yaml and ynl-gen-c.py
upstream (6.1 has neither); they are restated here, not copied."""

import re

import yaml

# What the genetlink schema allows (its additionalProperties: False lists).
TOP_KEYS = {'name', 'doc', 'protocol', 'uapi-header', 'definitions',
            'attribute-sets', 'operations', 'mcast-groups'}
DEF_KEYS = {'name', 'header', 'type', 'doc', 'value', 'value-start',
            'entries', 'render-max'}
ENTRY_KEYS = {'name', 'value', 'doc'}
SET_KEYS = {'name', 'name-prefix', 'enum-name', 'doc', 'subset-of',
            'attributes'}
ATTR_KEYS = {'name', 'type', 'doc', 'value', 'type-value', 'byte-order',
             'multi-attr', 'nested-attributes', 'enum', 'enum-as-flags',
             'checks', 'sub-type', 'display-hint'}
ATTR_TYPES = {'unused', 'pad', 'flag', 'binary', 'uint', 'sint', 'u8', 'u16',
              'u32', 'u64', 's32', 's64', 'string', 'nest', 'array-nest',
              'nest-type-value'}
CHECK_KEYS = {'flags-mask', 'min', 'max', 'min-len', 'max-len', 'exact-len'}
OPS_KEYS = {'enum-model', 'name-prefix', 'enum-name', 'async-prefix',
            'async-enum', 'list'}
OP_KEYS = {'name', 'doc', 'value', 'attribute-set', 'flags', 'dont-validate',
           'config-cond', 'do', 'dump', 'notify', 'event', 'mcgrp'}
SUBOP_KEYS = {'request', 'reply', 'pre', 'post'}
FLAGS = {'admin-perm'}
MCGRP_KEYS = {'name', 'flags'}
TYPE_LIMIT = re.compile(r'^[su](8|16|32|64)-(min|max)$')


class LDict(dict):
    """A mapping that remembers the line it started on."""
    line = 0


class _Loader(yaml.SafeLoader):
    pass


def _map(loader, node):
    d = LDict(loader.construct_mapping(node, deep=True))
    d.line = node.start_mark.line + 1
    return d


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)


def c_upper(name):
    return name.upper().replace('-', '_')


def type_limit(name):
    """u32-max, s8-min, ... as numbers."""
    width = int(name[1:-4])
    if name[0] == 'u':
        return 0 if name.endswith('-min') else (1 << width) - 1
    return -(1 << (width - 1)) if name.endswith('-min') else (1 << (width - 1)) - 1


class Spec:
    """The spec plus what the generator derives from it. Rule breaks are
    collected in self.errors as (line, message)."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8') as f:
            self.y = yaml.load(f, Loader=_Loader)  # nosec: SafeLoader subclass
        self.errors = []
        self.family = self.y.get('name', '')
        self.consts = {}   # name -> (value, line)
        self.enums = {}    # name -> LDict
        self.sets = {}     # name -> LDict
        self.ops = []      # LDicts, in order
        self._check()

    def err(self, node, msg):
        self.errors.append((getattr(node, 'line', 0) or 1, msg))

    def keys(self, node, allowed, what):
        if not isinstance(node, dict):
            self.err(node, f'{what}: not a mapping')
            return False
        for k in node:
            if k not in allowed:
                self.err(node, f"{what}: '{k}' is not a property the genetlink schema allows")
        return True

    def prefix(self):
        return c_upper(self.family) + '_'

    # --- the rules ------------------------------------------------------
    def _check(self):
        y = self.y
        self.keys(y, TOP_KEYS, 'top level')
        for k in ('name', 'doc', 'attribute-sets', 'operations'):
            if k not in y:
                self.err(y, f"top level: '{k}' is required")
        if y.get('protocol', 'genetlink') != 'genetlink':
            self.err(y, "protocol: only 'genetlink' is checked here")
        for d in y.get('definitions', []):
            self._check_def(d)
        for s in y.get('attribute-sets', []):
            if self.keys(s, SET_KEYS, f"attribute-set {s.get('name')}"):
                self.sets[s['name']] = s
        for s in self.sets.values():
            self._check_set(s)
        ops = y.get('operations', {})
        self.keys(ops, OPS_KEYS, 'operations')
        grps = {g.get('name') for g in y.get('mcast-groups', {}).get('list', [])}
        for g in y.get('mcast-groups', {}).get('list', []):
            self.keys(g, MCGRP_KEYS, f"mcast group {g.get('name')}")
            self._check_flags(g, f"mcast group {g.get('name')}")
        for op in ops.get('list', []):
            self._check_op(op, grps)

    def _check_def(self, d):
        what = f"definition {d.get('name')}"
        if not self.keys(d, DEF_KEYS, what):
            return
        if d.get('type') == 'const':
            if not isinstance(d.get('value'), int):
                self.err(d, f'{what}: a const needs an integer value')
            self.consts[d['name']] = (d.get('value'), d.line)
        elif d.get('type') in ('enum', 'flags'):
            for e in d.get('entries', []):
                if isinstance(e, dict):
                    self.keys(e, ENTRY_KEYS, f'{what} entry')
            self.enums[d['name']] = d
        else:
            self.err(d, f"{what}: type must be const, enum or flags")

    def _check_set(self, s):
        what = f"attribute-set {s['name']}"
        parent = s.get('subset-of')
        if parent is not None and parent not in self.sets:
            self.err(s, f"{what}: subset-of '{parent}' names no attribute set")
            return
        for a in s.get('attributes', []):
            self._check_attr(s, a, parent)

    def _check_attr(self, s, a, parent):
        what = f"attribute {s['name']}.{a.get('name')}"
        if not self.keys(a, ATTR_KEYS, what):
            return
        if parent is not None:
            real = self.attr(parent, a['name'])
            if real is None:
                self.err(a, f"{what}: not an attribute of '{parent}'")
            elif 'checks' in a and a['checks'] != real.get('checks'):
                self.err(a, f'{what}: a subset cannot override checks (ynl-gen refuses)')
            return
        if a.get('type') not in ATTR_TYPES:
            self.err(a, f"{what}: type '{a.get('type')}' is not a genetlink attribute type")
        if 'nested-attributes' in a and a['nested-attributes'] not in self.sets:
            self.err(a, f"{what}: nested-attributes '{a['nested-attributes']}' names no attribute set")
        if 'enum' in a and a['enum'] not in self.enums:
            self.err(a, f"{what}: enum '{a['enum']}' names no enum definition")
        checks = a.get('checks', {})
        if checks and self.keys(checks, CHECK_KEYS, f'{what} checks'):
            for k in ('min', 'max'):
                if k in checks:
                    self._check_limit(a, what, k, checks[k])

    def _check_limit(self, a, what, k, v):
        """min/max: a literal, a const of this family, or u32-max and kin."""
        if isinstance(v, int) or (isinstance(v, str) and TYPE_LIMIT.match(v)):
            return
        if isinstance(v, str) and v in self.consts:
            return
        self.err(a, f"{what}: checks {k}: '{v}' is neither a number, a const of this "
                    "family nor a type limit like u32-max (ynl-gen cannot resolve it)")

    def _check_flags(self, node, what):
        for f in node.get('flags', []):
            if f not in FLAGS:
                self.err(node, f"{what}: flag '{f}' is not one of {sorted(FLAGS)}")

    def _check_op(self, op, grps):
        what = f"operation {op.get('name')}"
        if not self.keys(op, OP_KEYS, what):
            return
        self.ops.append(op)
        if 'doc' not in op:
            self.err(op, f"{what}: 'doc' is required")
        self._check_flags(op, what)
        aset = op.get('attribute-set')
        if aset is not None and aset not in self.sets:
            self.err(op, f"{what}: attribute-set '{aset}' names no attribute set")
            return
        for mode in ('do', 'dump'):
            sub = op.get(mode)
            if sub is None:
                continue
            self.keys(sub, SUBOP_KEYS, f'{what} {mode}')
            for part in ('request', 'reply'):
                for name in (sub.get(part) or {}).get('attributes', []):
                    if self.attr(aset, name) is None:
                        self.err(sub, f"{what} {mode} {part}: '{name}' is not in set '{aset}'")
        if 'event' in op:
            for name in op['event'].get('attributes', []):
                if self.attr(aset, name) is None:
                    self.err(op, f"{what} event: '{name}' is not in set '{aset}'")
        if 'mcgrp' in op and op['mcgrp'] not in grps:
            self.err(op, f"{what}: mcgrp '{op['mcgrp']}' names no multicast group")

    # --- what the generator derives ------------------------------------
    def attr(self, set_name, name):
        for a in self.sets.get(set_name, {}).get('attributes', []):
            if a.get('name') == name:
                return a
        return None

    def full_attr(self, set_name, name):
        """An attribute with its real definition (subsets lend the parent's)."""
        s = self.sets[set_name]
        if s.get('subset-of'):
            return self.attr(s['subset-of'], name)
        return self.attr(set_name, name)

    def attr_enum(self, s):
        """[(C name, value, node)] of a full attribute set's uAPI enum."""
        pfx = s.get('name-prefix', f"{self.family}-a-{s['name']}-")
        out, val = [], 1
        for a in s.get('attributes', []):
            val = a.get('value', val)
            out.append((c_upper(pfx + a['name']), val, a))
            val += 1
        return out, c_upper(pfx + 'max')

    def enum_entries(self, d):
        """[(C name, value, node)] of an enum definition."""
        pfx = f"{self.family}-{d['name']}-"
        out, val = [], d.get('value-start', 0)
        for e in d.get('entries', []):
            name = e['name'] if isinstance(e, dict) else e
            if isinstance(e, dict) and 'value' in e:
                val = e['value']
            out.append((c_upper(pfx + name), val, e if isinstance(e, dict) else d))
            val += 1
        return out

    def cmd_enum(self):
        out, val = [], 1
        for op in self.ops:
            val = op.get('value', val)
            out.append((c_upper(f"{self.family}-cmd-{op['name']}"), val, op))
            val += 1
        return out

    def limits(self, a):
        """(min, max) a scalar attribute's kernel policy enforces, as numbers,
        including the range an enum implies (ynl-gen's _init_checks)."""
        checks = a.get('checks', {}) or {}
        lo, hi = checks.get('min'), checks.get('max')
        if 'enum' in a and a['enum'] in self.enums:
            vals = [v for _, v, _ in self.enum_entries(self.enums[a['enum']])]
            if vals and lo is None and min(vals) != 0:
                lo = min(vals)
            if vals and hi is None:
                hi = max(vals)
        return self._num(lo), self._num(hi)

    def _num(self, v):
        if v is None or isinstance(v, int):
            return v
        if v in self.consts:
            return self.consts[v][0]
        if TYPE_LIMIT.match(v):
            return type_limit(v)
        return None
