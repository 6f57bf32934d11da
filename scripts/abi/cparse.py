# SPDX-License-Identifier: GPL-2.0
"""Reads the C side of the ABI: the uAPI header's defines and enums, and a
kernel file's nla_policy arrays, range structs, genl_ops, multicast groups
and genl_family, each with the line it is on. Only the forms the YNL
generator emits (and kmod/ioca_nl_gen.c uses) are understood; anything else
in a policy entry is reported, not guessed."""

import re


def strip_comments(text):
    """Comments blanked out, newlines kept, so offsets still give lines."""
    def blank(m):
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank, text, flags=re.S)


class CFile:
    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8') as f:
            self.raw = f.read()
        self.text = strip_comments(self.raw)

    def line(self, offset):
        return self.raw.count('\n', 0, offset) + 1


class Header(CFile):
    """#defines and enums. self.values maps every name to its integer value
    (enum members included) for evaluating expressions elsewhere."""

    def __init__(self, path):
        super().__init__(path)
        self.defines = {}   # name -> (text, line)
        self.enums = []     # (tag or '', [(name, value, line)], line)
        self.values = {}
        for m in re.finditer(r'^[ \t]*#define[ \t]+(\w+)[ \t]+(.+?)[ \t]*$', self.text, re.M):
            self.defines[m.group(1)] = (m.group(2), self.line(m.start()))
        for name, (text, _) in self.defines.items():
            v = evaluate(text, self.values)
            if v is not None:
                self.values[name] = v
        for m in re.finditer(r'\benum\s*(\w*)\s*\{(.*?)\}\s*;', self.text, re.S):
            members, val = [], -1
            body_at = m.start(2)
            for em in re.finditer(r'(\w+)\s*(?:=\s*([^,]+?))?\s*(?:,|$)', m.group(2)):
                if em.group(2) is not None:
                    v = evaluate(em.group(2), self.values)
                    val = v if v is not None else val + 1
                else:
                    val += 1
                self.values[em.group(1)] = val
                members.append((em.group(1), val, self.line(body_at + em.start())))
            self.enums.append((m.group(1), members, self.line(m.start())))


def evaluate(expr, values):
    """An integer constant expression over known names, or None."""
    expr = expr.strip()
    if not re.fullmatch(r'[\w\s()+\-*<|]+', expr) or '"' in expr:
        return None

    def name(m):
        tok = m.group(0)
        if re.fullmatch(r'0[xX][0-9a-fA-F]+|\d+', tok):
            return str(int(tok, 0))
        if tok in values:
            return str(values[tok])
        raise KeyError(tok)
    try:
        py = re.sub(r'\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b|\b[A-Za-z_]\w*\b', name, expr)
        return int(eval(py, {'__builtins__': {}}, {}))  # nosec: digits and operators only
    except (KeyError, SyntaxError, ValueError, TypeError):
        return None


def _fields(body, base, cfile):
    """'.key = value,' pairs of a C initializer: {key: (value, line)}."""
    out = {}
    for m in re.finditer(r'\.(\w+)\s*=\s*([^,{}]+?)\s*(?:,|$)', body, re.M):
        out[m.group(1)] = (m.group(2).strip(), cfile.line(base + m.start()))
    return out


def _blocks(body):
    """Top-level { ... } blocks of an array initializer: [(offset, text)]."""
    out, depth, start = [], 0, None
    for i, ch in enumerate(body):
        if ch == '{':
            if depth == 0:
                start = i
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                out.append((start, body[start + 1:i]))
    return out


class Policy:
    def __init__(self, name, bound, line):
        self.name, self.bound, self.line = name, bound, line
        self.entries = {}   # attr C name -> dict(type, min, max, nested, line, text)


class Tables(CFile):
    """Policies, ops, multicast groups and the family of a kernel file."""

    POLICY_RE = re.compile(
        r'(?:static\s+)?const\s+struct\s+nla_policy\s+(\w+)\s*\[\s*(\w+)\s*\+\s*1\s*\]'
        r'\s*=\s*\{(.*?)\n\}\s*;', re.S)

    def __init__(self, path, values):
        super().__init__(path)
        self.values = values
        self.ranges = {}
        for m in re.finditer(r'struct\s+netlink_range_validation(?:_signed)?\s+(\w+)\s*='
                             r'\s*\{(.*?)\}\s*;', self.text, re.S):
            f = _fields(m.group(2), m.start(2), self)
            self.ranges[m.group(1)] = (self._val(f.get('min')), self._val(f.get('max')))
        self.policies = {}
        for m in self.POLICY_RE.finditer(self.text):
            p = Policy(m.group(1), m.group(2), self.line(m.start()))
            self._entries(p, m.group(3), m.start(3))
            self.policies[p.name] = p
        self.ops = self._array('genl_ops')
        self.mcgrps = self._array('genl_multicast_group')
        fam = re.search(r'struct\s+genl_family\s+\w+(?:\s+__ro_after_init)?\s*=\s*\{(.*?)\}\s*;', self.text, re.S)
        self.family = _fields(fam.group(1), fam.start(1), self) if fam else {}
        self.family_line = self.line(fam.start()) if fam else 1

    def _val(self, field):
        return None if field is None else evaluate(field[0], self.values)

    def _entries(self, p, body, base):
        heads = list(re.finditer(r'\[\s*(\w+)\s*\]\s*=', body))
        for i, h in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(body)
            text = ' '.join(body[h.end():end].split()).rstrip(',').strip()
            e = {'line': self.line(base + h.start()), 'text': text,
                 'type': None, 'min': None, 'max': None, 'nested': None}
            self._interpret(e, text)
            p.entries[h.group(1)] = e

    def _interpret(self, e, text):
        m = re.fullmatch(r'\{\s*\.type\s*=\s*(\w+)\s*,?\s*(?:\.len\s*=\s*[^,}]+,?\s*)?\}', text)
        if m:
            e['type'] = m.group(1)
            return
        m = re.fullmatch(r'(NLA_POLICY_\w+)\s*\((.*)\)', text)
        if not m:
            e['type'] = '?'
            return
        kind, args = m.group(1), [a.strip() for a in m.group(2).split(',')]
        if kind == 'NLA_POLICY_NESTED':
            e['type'], e['nested'] = 'NLA_NESTED', args[0]
        elif kind == 'NLA_POLICY_NESTED_ARRAY':
            e['type'], e['nested'] = 'NLA_NESTED_ARRAY', args[0]
        elif kind == 'NLA_POLICY_MAX' and len(args) == 2:
            e['type'], e['max'] = args[0], evaluate(args[1], self.values)
        elif kind == 'NLA_POLICY_MIN' and len(args) == 2:
            e['type'], e['min'] = args[0], evaluate(args[1], self.values)
        elif kind == 'NLA_POLICY_RANGE' and len(args) == 3:
            e['type'] = args[0]
            e['min'], e['max'] = evaluate(args[1], self.values), evaluate(args[2], self.values)
        elif kind == 'NLA_POLICY_FULL_RANGE' and len(args) == 2:
            e['type'] = args[0]
            e['min'], e['max'] = self.ranges.get(args[1].lstrip('&'), (None, None))
        else:
            e['type'] = '?'

    def _array(self, struct):
        """Entries of a 'struct <struct> name[] = { {...}, ... };' array, each
        {key: (value, line)} plus '_line' and, for designated ones, '_index'."""
        m = re.search(r'struct\s+' + struct + r'\s+\w+\s*\[\s*\]\s*=\s*\{(.*?)\n\}\s*;',
                      self.text, re.S)
        if not m:
            return []
        out = []
        for off, body in _blocks(m.group(1)):
            f = _fields(body, m.start(1) + off, self)
            f['_line'] = self.line(m.start(1) + off)
            idx = re.search(r'\[\s*(\w+)\s*\]\s*=\s*$', m.group(1)[:off])
            if idx:
                f['_index'] = idx.group(1)
            out.append(f)
        return out
