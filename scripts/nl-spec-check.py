#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the three descriptions of the "mrc" generic netlink API agree.

  the C header   include/uapi/linux/mrc_netlink.h (enums, defines, and the
                 type comments of attributes, commands and events)
  the spec       include/uapi/linux/mrc_netlink.yaml (the kernel's netlink
                 spec conventions, genetlink-legacy)
  the kernel     its nla_policy tables, genl_ops arrays, multicast groups and
                 genl_family, in any .c or .h file under kernel/

They must agree on every attribute set and attribute (C name, value, type,
byte order, enum, nested set, checks), every command and event (value,
do/dump, request and reply attributes, permission flags, policy), every
enum and flags definition, every constant, the multicast groups and the
family name and version. A policy bound is compared with the spec's checks
as the kernel's YNL code generator reads them: an enum attribute without
an explicit max is bounded by its enum's last value.

Prints one line per disagreement, "file[:line]: thing: what differs", and
exits 1; exits 0 when everything agrees.
"""

import argparse
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
INT_TYPES = {'u8', 'u16', 'u32', 'u64', 's8', 's16', 's32', 's64', 'uint', 'sint'}
NLA_TYPES = {f'NLA_{t.upper()}': {'type': t} for t in INT_TYPES} | {
    'NLA_BE16': {'type': 'u16', 'byte-order': 'big-endian'},
    'NLA_BE32': {'type': 'u32', 'byte-order': 'big-endian'},
    'NLA_MSECS': {'type': 'u64'},
    'NLA_FLAG': {'type': 'flag'},
    'NLA_NUL_STRING': {'type': 'string'},
    'NLA_STRING': {'type': 'string', 'unterminated-ok': True},
    'NLA_BINARY': {'type': 'binary'},
    'NLA_UNSPEC': {'type': 'binary'},
    'NLA_NESTED': {'type': 'nest'},
    'NLA_NESTED_ARRAY': {'type': 'indexed-array'},
}
SIZEOF = {'struct in6_addr': 16, 'struct in_addr': 4, 'u8': 1, 'u16': 2,
          'u32': 4, 'u64': 8, '__be16': 2, '__be32': 4}
OP_FLAGS = {'GENL_ADMIN_PERM': 'admin-perm', 'GENL_UNS_ADMIN_PERM': 'uns-admin-perm'}
DONT_VALIDATE = {'GENL_DONT_VALIDATE_STRICT': 'strict', 'GENL_DONT_VALIDATE_DUMP': 'dump',
                 'GENL_DONT_VALIDATE_DUMP_STRICT': 'dump-strict'}


class Report:
    """Collects the disagreements, one line each."""

    def __init__(self):
        self.lines = []

    def __call__(self, where, what):
        """Record that @what is wrong at @where (a path, or path:line)."""
        self.lines.append(f'{where}: {what}')


def show(path, line=None):
    """@path relative to the tree when inside it, with :@line if given."""
    path = pathlib.Path(path).resolve()
    name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
    return f'{name}:{line}' if line else name


def c_upper(name):
    """The C spelling of a spec name: ev-profile -> EV_PROFILE."""
    return name.upper().replace('-', '_')


def c_lower(name):
    """The C spelling of a spec type name: mrc-plane-attr -> mrc_plane_attr."""
    return name.lower().replace('-', '_')


def split_top(text, sep=','):
    """Split @text at @sep outside parentheses, brackets and braces."""
    parts, depth, cur = [], 0, []
    for ch in text:
        depth += (ch in '([{') - (ch in ')]}')
        if ch == sep and depth == 0:
            parts.append(''.join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append(''.join(cur))
    return [p.strip() for p in parts if p.strip()]


def braced(text, start):
    """The text inside the brace at @start and its matching close."""
    depth = 0
    for i in range(start, len(text)):
        depth += (text[i] == '{') - (text[i] == '}')
        if depth == 0:
            return text[start + 1:i]
    raise ValueError('unbalanced braces')


def fields(init):
    """The .field = value pairs of a designated initializer { ... }."""
    init = init.strip()
    if not (init.startswith('{') and init.endswith('}')):
        return None
    out = {}
    for item in split_top(init[1:-1]):
        m = re.fullmatch(r'\.(\w+)\s*=\s*(.*)', item, re.S)
        if m:
            out[m[1]] = m[2].strip()
    return out


def c_eval(expr, syms, seen=()):
    """Value of a C constant expression (int or string literal) over @syms."""
    expr = expr.strip()
    if re.fullmatch(r'"[^"]*"', expr):
        return expr[1:-1]
    if expr in syms and isinstance(syms[expr], str) and expr not in seen:
        return c_eval(syms[expr], syms, seen + (expr,))
    expr = re.sub(r'sizeof\s*\(\s*([^()]*?)\s*\)', lambda m: str(SIZEOF[m[1]]), expr)
    expr = re.sub(r'\bBIT(_ULL)?\(', '(1 << ', expr)
    expr = re.sub(r'\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b', r'\1', expr)

    def ident(m):
        name = m[0]
        if name not in syms or name in seen:
            raise KeyError(name)
        val = syms[name]
        return f'({val if isinstance(val, int) else c_eval(val, syms, seen + (name,))})'
    expr = re.sub(r'\b[A-Za-z_]\w*', ident, expr)
    if not re.fullmatch(r'[0-9a-fA-FxX\s()+\-*/%<>|&~^]*', expr):
        raise ValueError(expr)
    return eval(expr.replace('/', '//'), {'__builtins__': {}})  # pylint: disable=eval-used


def tidy(comment):
    """A C comment's text on one line, without the leading stars."""
    return re.sub(r'\s*\n\s*\*?\s*', ' ', comment or '').strip()


# ---- the header

def parse_header(path):
    """Enums {tag: [(name, value, comment, line)]} and defines {name: text}."""
    text = path.read_text()
    defines = {m[1]: m[2] for m in re.finditer(
        r'^#define\s+(\w+)[ \t]+(.*?)\s*(?:/\*.*)?$', text, re.M)}
    enums, syms = {}, dict(defines)
    for em in re.finditer(r'^enum\s+(\w+)\s*\{(.*?)^\};', text, re.M | re.S):
        entries, value = [], -1
        for m in re.finditer(r'^\s*([A-Za-z_]\w*)\s*(?:=\s*([^,/\n]+?))?\s*,?[ \t]*'
                             r'(?:/\*(.*?)\*/)?[ \t]*$', em[2], re.M | re.S):
            value = c_eval(m[2], syms) if m[2] else value + 1
            syms[m[1]] = value
            line = text.count('\n', 0, em.start(2) + m.start(1)) + 1
            entries.append((m[1], value, tidy(m[3]), line))
        enums[em[1]] = entries
    return enums, defines, syms


def members(entries, skip_unspec):
    """Enum entries without the __*_MAX end (and the *_UNSPEC start)."""
    out = [e for e in entries if not e[0].startswith('__')]
    if skip_unspec and out and out[0][0].endswith('_UNSPEC'):
        out = out[1:]
    return out


def header_attr_type(comment):
    """What an attribute's comment says: type, [len], big-endian, enum."""
    m = re.match(r'(u8|u16|u32|u64|s8|s16|s32|s64|string|binary|flag|nest)\b'
                 r'(?:\[(\d+)\])?([^:]*)(?::\s*enum\s+(\w+)(\s+bits)?)?', comment)
    if not m:
        return None
    return {'type': m[1], 'len': int(m[2]) if m[2] else None,
            'big-endian': 'network order' in m[3], 'enum': m[4], 'bits': bool(m[5])}


def header_words(text, top):
    """Top-level attribute names (PLANE, EV_PROFILE, ...) named in @text."""
    text = re.sub(r'\{[^}]*\}|\([^)]*\)', ' ', text)
    words = set(re.findall(r'\b[A-Z][A-Z0-9_]*\b', text))
    return {'EVENT_REASON' if w == 'REASON' else w for w in words} & top


def header_op(comment, top):
    """{do|dump: (request, reply)} from a command's comment; None: unsaid."""
    out = {}
    for part in comment.split(';'):
        m = re.match(r'\s*(do|dump):(.*)', part, re.S)
        if m:
            req, arrow, rep = m[2].partition('->')
            req = header_words(req.split(':')[0], top)
            out[m[1]] = (req, header_words(rep, top)) if arrow or req else (None, None)
    return out


# ---- the spec

def spec_entries(d, family):
    """C enum tag and [(C name, value, name)] of an enum or flags definition."""
    prefix = c_upper(d.get('name-prefix', f'{family}-{d["name"]}-'))
    value, out = d.get('value-start', 0), []
    for e in d.get('entries', []):
        e = e if isinstance(e, dict) else {'name': e}
        value = e.get('value', value)
        out.append((prefix + c_upper(e['name']), 1 << value if d['type'] == 'flags' else value,
                    e['name']))
        value += 1
    return c_lower(d.get('enum-name', f'{family}-{d["name"]}')), out


def spec_attrs(aset, family):
    """C prefix, C enum tag and {C name: (value, attr)} of an attribute set."""
    prefix = c_upper(aset.get('name-prefix', f'{family}-a-{aset["name"]}-'))
    tag = c_lower(aset.get('enum-name', f'{family}-{aset["name"]}-attrs'))
    value, out = 1, {}
    for a in aset['attributes']:
        value = a.get('value', value)
        out[prefix + c_upper(a['name'])] = (value, a)
        value += 1
    return prefix, tag, out


def spec_ops(spec):
    """[(C name, value, op, is_event)] of the spec's operations."""
    ops, family = spec['operations'], spec['name']
    value, out = 1, []
    for op in ops['list']:
        value = op.get('value', value)
        event = 'event' in op or 'notify' in op
        prefix = ops.get('async-prefix' if event and 'async-prefix' in ops else 'name-prefix',
                         f'{family}-cmd-')
        out.append((c_upper(prefix + op['name']), value, op, event))
        value += 1
    return out


def spec_limit(value, consts):
    """A checks limit: a number, a const's name or u32-max and the like."""
    if isinstance(value, int):
        return value
    if value in consts:
        return consts[value]
    m = re.fullmatch(r'([su])(8|16|32|64)-(min|max)', str(value))
    if not m:
        raise ValueError(f'unknown limit {value}')
    bits = int(m[2]) - (m[1] == 's')
    return {'min': -(1 << bits) if m[1] == 's' else 0, 'max': (1 << bits) - 1}[m[3]]


def norm_mask(out):
    """A mask 2^n - 1 accepts what max 2^n - 1 does: write it as that max."""
    mask = out.get('mask')
    if mask is not None and mask & (mask + 1) == 0 and 'max' not in out:
        out['max'] = out.pop('mask')
    return out


def spec_policy(attr, spec, defs, consts):
    """The policy the spec asks for an attribute, in the form of Kernel.policy()."""
    t = attr['type']
    out = {'type': t}
    if attr.get('byte-order') == 'big-endian':
        out['byte-order'] = 'big-endian'
    if 'nested-attributes' in attr and t in ('nest', 'indexed-array'):
        out['nested'] = attr['nested-attributes']
    checks = attr.get('checks', {})
    for key in ('min', 'max', 'min-len', 'max-len', 'exact-len'):
        if key in checks:
            out[key] = spec_limit(checks[key], consts)
    if checks.get('unterminated-ok'):
        out['unterminated-ok'] = True
    if 'flags-mask' in checks:
        out['mask'] = (1 << len(defs[checks['flags-mask']]['entries'])) - 1
    if t in INT_TYPES and attr.get('enum') in defs:
        d = defs[attr['enum']]
        values = [e[1] for e in spec_entries(d, spec['name'])[1]]
        if attr.get('enum-as-flags') or d['type'] == 'flags':
            bits = [v if d['type'] == 'flags' else 1 << v for v in values]
            out = {k: v for k, v in out.items() if k not in ('min', 'max')}
            out['mask'] = sum(bits)
        else:
            if 'min' not in out and min(values) != 0:
                out['min'] = min(values)
            out.setdefault('max', max(values))
    return norm_mask(out)


CHECKS = {'min', 'max', 'min-len', 'max-len', 'exact-len', 'flags-mask', 'unterminated-ok'}


def spec_problems(spec):
    """What keeps the spec from being read: missing keys, dangling names."""
    if not isinstance(spec, dict) or not {'name', 'attribute-sets', 'operations'} <= set(spec):
        return ['needs name, attribute-sets and operations']
    out = []
    defs = {d.get('name'): d for d in spec.get('definitions', [])}
    consts = {k: d.get('value') for k, d in defs.items() if d.get('type') == 'const'}
    sets = {a.get('name'): {b.get('name') for b in a.get('attributes') or []}
            for a in spec['attribute-sets']}
    for aset in spec['attribute-sets']:
        for attr in aset.get('attributes') or []:
            label = f'attribute {aset.get("name")}.{attr.get("name")}'
            checks = attr.get('checks', {})
            if 'name' not in attr or 'type' not in attr:
                out.append(f'{label}: needs a name and a type')
            for key, known in (('nested-attributes', sets), ('enum', defs)):
                if key in attr and attr[key] not in known:
                    out.append(f'{label}: no {key} {attr[key]}')
            for key, value in checks.items():
                try:
                    if key not in CHECKS or (key == 'flags-mask' and value not in defs):
                        raise ValueError(f'unknown check {key}: {value}')
                    if key in CHECKS - {'flags-mask', 'unterminated-ok'}:
                        spec_limit(value, consts)
                except ValueError as err:
                    out.append(f'{label}: {err}')
    for op in spec['operations'].get('list', []):
        label = f'operation {op.get("name")}'
        names = sets.get(op.get('attribute-set'))
        if names is None:
            out.append(f'{label}: no attribute-set {op.get("attribute-set")}')
            names = set()
        msgs = [(k, p, (op.get(k) or {}).get(p))
                for k in ('do', 'dump') for p in ('request', 'reply')]
        for kind, part, msg in msgs + [('event', '', op.get('event'))]:
            if msg is None:
                continue
            if not isinstance(msg, dict) or not isinstance(msg.get('attributes', []), list):
                out.append(f'{label}: {kind} {part} must be {{attributes: [...]}}')
            elif set(msg.get('attributes', [])) - names:
                out.append(f'{label}: {kind} {part} names unknown attributes '
                           f'{sorted(set(msg["attributes"]) - names)}')
    return out


# ---- the kernel

class Kernel:
    """The kernel's tables: policies, ranges, operations, groups, family."""

    def __init__(self, kdir, syms):
        self.syms = dict(syms)
        self.policies = {}   # name -> (where, size, [(key, expr, where)])
        self.ranges = {}     # name -> {min, max}
        self.ops = []        # (where, {field: expr})
        self.mcgrps = {}     # name -> [expr]
        self.families = []   # (where, {field: expr})
        files = sorted(p for p in kdir.rglob('*') if p.suffix in ('.c', '.h') and p.is_file())
        for path in files:
            text = path.read_text(errors='replace')
            if re.search(r'nla_policy|genl_\w*ops|genl_family|netlink_range_validation', text):
                self.parse(path, text)

    def parse(self, path, text):
        """Read the tables of one file."""
        # Comments become blanks, keeping offsets and so line numbers.
        text = re.sub(r'/\*.*?\*/|//[^\n]*', lambda m: re.sub(r'[^\n]', ' ', m[0]), text,
                      flags=re.S)
        joined = text.replace('\\\n', '  ')
        macros = {}
        for m in re.finditer(r'^#define\s+(\w+)(\(([^)]*)\))?[ \t]+(.*)$', joined, re.M):
            if m[2]:
                macros[m[1]] = ([p.strip() for p in m[3].split(',')], m[4])
            else:
                self.syms.setdefault(m[1], m[4].strip())

        def where(pos):
            return show(path, text.count('\n', 0, pos) + 1)

        def tables(kind):
            pattern = r'struct\s+' + kind + r'\s*=\s*\{'
            for m in re.finditer(pattern, text):
                yield m, braced(text, m.end() - 1)

        for m, body in tables(r'netlink_range_validation(?:_signed)?\s+(\w+)'):
            self.ranges[m[1]] = {k: self.value(v) for k, v in fields('{' + body + '}').items()}
        for m, body in tables(r'nla_policy\s+(\w+)\s*\[([^\]]*)\]'):
            entries, pos = [], m.end()
            for item in split_top(body):
                e = re.fullmatch(r'\[\s*(\w+)\s*\]\s*=\s*(.*)', item, re.S)
                pos = text.index(item, pos)
                entries.append((e[1] if e else None, e[2] if e else item, where(pos)))
            self.policies[m[1]] = (where(m.start()), m[2], entries)
        for m, body in tables(r'(?:genl_ops|genl_small_ops)\s+(\w+)\s*\[\s*\]'):
            pos = m.end()
            for item in split_top(body):
                pos = text.index(item, pos)
                call = re.fullmatch(r'(\w+)\s*\((.*)\)', item, re.S)
                if call and call[1] in macros:
                    params, mbody = macros[call[1]]
                    args = dict(zip(params, split_top(call[2])))
                    item = re.sub(r'\b\w+\b', lambda w: args.get(w[0], w[0]), mbody)
                self.ops.append((where(pos), fields(item) or {}))
        for m, body in tables(r'genl_multicast_group\s+(\w+)\s*\[\s*\]'):
            self.mcgrps[m[1]] = [(fields(g) or {}).get('name') for g in split_top(body)]
        for m, body in tables(r'genl_family\s+(\w+)[^=;{(]*'):
            self.families.append((where(m.start()), fields('{' + body + '}')))

    def value(self, expr):
        """A C expression's value, or None when it cannot be computed."""
        try:
            return c_eval(expr, self.syms)
        except (KeyError, ValueError, SyntaxError, TypeError):
            return None

    def policy(self, expr):
        """What a policy entry accepts, as {type, checks..., nested}."""
        m = re.fullmatch(r'NLA_POLICY_(\w+)\s*\((.*)\)', expr.strip(), re.S)
        if m:
            kind, args = m[1], split_top(m[2])
            if kind in ('NESTED', 'NESTED_ARRAY'):
                return {'type': 'nest' if kind == 'NESTED' else 'indexed-array',
                        'nested': args[0]}
            if kind in ('EXACT_LEN', 'EXACT_LEN_WARN', 'MIN_LEN', 'MAX_LEN'):
                key = {'MIN_LEN': 'min-len', 'MAX_LEN': 'max-len'}.get(kind, 'exact-len')
                return {'type': 'binary', key: self.value(args[0])}
            out = dict(NLA_TYPES[args[0]])
            if kind in ('MIN', 'RANGE'):
                out['min'] = self.value(args[1])
            if kind in ('MAX', 'RANGE'):
                out['max'] = self.value(args[-1])
            if kind in ('FULL_RANGE', 'FULL_RANGE_SIGNED'):
                rng = self.ranges[args[1].lstrip('&')]
                out['max'] = rng.get('max', 0)
                if rng.get('min'):
                    out['min'] = rng['min']
            if kind == 'MASK':
                out['mask'] = self.value(args[1])
            if not {'MIN', 'MAX', 'RANGE', 'FULL_RANGE', 'FULL_RANGE_SIGNED', 'MASK'} & {kind}:
                raise KeyError(kind)
            return norm_mask(out)
        f = fields(expr)
        if f is None:
            raise KeyError('not NLA_POLICY_*() nor { .type = ... }')
        out = dict(NLA_TYPES[f.get('type', 'NLA_UNSPEC')])
        if 'len' in f:
            key = 'min-len' if f.get('type', 'NLA_UNSPEC') == 'NLA_UNSPEC' else 'max-len'
            out[key] = self.value(f['len'])
        if 'nested_policy' in f:
            out['nested'] = f['nested_policy']
        return out


# ---- the checks

class Checker:
    """Compares header, spec and kernel; disagreements go to self.report."""

    def __init__(self, header, spec_path, kdir):
        self.report = Report()
        self.hpath, self.spath = header, spec_path
        self.spec = yaml.safe_load(spec_path.read_text())
        self.enums, self.defines, syms = parse_header(header)
        self.kernel = Kernel(kdir, syms)
        self.kdir = kdir
        family = self.spec['name']
        self.defs = {d['name']: d for d in self.spec.get('definitions', [])}
        self.consts = {d['name']: d['value'] for d in self.defs.values() if d['type'] == 'const'}
        self.sets = {s['name']: spec_attrs(s, family) for s in self.spec['attribute-sets']}
        self.set_of_prefix = {v[0]: k for k, v in self.sets.items()}
        self.used_enums = set()

    def hline(self, name):
        """show() of the header line that defines enumerator @name."""
        for entries in self.enums.values():
            for e in entries:
                if e[0] == name:
                    return show(self.hpath, e[3])
        return show(self.hpath)

    def header_enum(self, tag, what):
        """The header's enum @tag, reporting its absence."""
        self.used_enums.add(tag)
        if tag not in self.enums:
            self.report(show(self.hpath), f'no enum {tag} ({what} in the spec)')
        return self.enums.get(tag, [])

    def compare_values(self, hentries, sentries, what):
        """Header enumerators against the spec's [(C name, value, label)]."""
        hvals = {e[0]: e[1] for e in hentries}
        svals = {e[0]: (e[1], e[2]) for e in sentries}
        for name, value in hvals.items():
            if name not in svals:
                self.report(self.hline(name), f'{name} = {value} is not in the spec ({what})')
            elif svals[name][0] != value:
                self.report(self.hline(name), f'{name} = {value}, but the spec has '
                            f'{svals[name][1]} = {svals[name][0]}')
        for name, (value, label) in svals.items():
            if name not in hvals:
                self.report(show(self.spath), f'{label} ({name} = {value}) is not in the header')

    def check_family(self):
        """Family name and version, consts, multicast groups."""
        spec, family = self.spec, self.spec['name']
        name_def = c_upper(spec.get('c-family-name', f'{family}-family-name'))
        version_def = c_upper(spec.get('c-version-name', f'{family}-family-version'))
        want = {name_def: family, version_def: spec.get('version', 1)}
        groups = [(g['name'], c_upper(g.get('c-define-name', f'{family}-mcgrp-{g["name"]}')))
                  for g in spec.get('mcast-groups', {}).get('list', [])]
        want |= {define: name for name, define in groups}
        want |= {c_upper(f'{family}-{k}'): v for k, v in self.consts.items()}
        for define, value in want.items():
            got = self.kernel.value(define) if define in self.defines else None
            if got != value:
                self.report(show(self.hpath),
                            f'#define {define} is {got!r}, the spec says {value!r}')
        for define, text in self.defines.items():
            if define not in want and '__' not in text and self.kernel.value(define) is not None:
                self.report(show(self.hpath), f'#define {define} is not a const of the spec')
        if len(self.kernel.families) != 1:
            self.report(show(self.kdir),
                        f'{len(self.kernel.families)} genl_family definitions, expected 1')
            return
        where, fam = self.kernel.families[0]
        for key, value in (('name', family), ('version', spec.get('version', 1))):
            if self.kernel.value(fam.get(key, '0')) != value:
                self.report(where, f'family .{key} = {fam.get(key)}, the spec says {value!r}')
        kgroups = [self.kernel.value(g or '0')
                   for g in self.kernel.mcgrps.get(fam.get('mcgrps'), [])]
        if kgroups != [g[0] for g in groups]:
            self.report(where, f'multicast groups {kgroups}, the spec has {[g[0] for g in groups]}')

    def check_definitions(self):
        """Enum and flags definitions against the header's enums."""
        for d in self.defs.values():
            if d['type'] in ('enum', 'flags'):
                tag, entries = spec_entries(d, self.spec['name'])
                hentries = self.header_enum(tag, f'definition {d["name"]}')
                if hentries:
                    self.compare_values(members(hentries, False),
                                        [(c, v, f'{d["name"]} entry {n}') for c, v, n in entries],
                                        tag)

    def check_attr_type(self, where, label, attr, comment):
        """An attribute against the type its header comment states."""
        said = header_attr_type(comment)
        if said is None:
            if comment or attr['type'] not in ('pad', 'unused'):
                self.report(where, f'{label}: the comment states no type, '
                            f'the spec says {attr["type"]}')
            return
        stype = 'nest' if attr['type'] == 'indexed-array' else attr['type']
        if said['type'] != stype:
            self.report(where, f'{label}: type {said["type"]} in the header, '
                        f'{attr["type"]} in the spec')
        if said['big-endian'] != (attr.get('byte-order') == 'big-endian'):
            self.report(where, f'{label}: byte order differs (header network order: '
                        f'{said["big-endian"]}, spec byte-order: {attr.get("byte-order")})')
        exact = attr.get('checks', {}).get('exact-len')
        if said['len'] and exact is not None and spec_limit(exact, self.consts) != said['len']:
            self.report(where, f'{label}: length {said["len"]} in the header, '
                        f'exact-len {exact} in the spec')
        if said['type'] == 'nest':
            nested = attr.get('nested-attributes')
            if said['enum'] and (nested not in self.sets or self.sets[nested][1] != said['enum']):
                self.report(where, f'{label}: nests enum {said["enum"]} in the header, '
                            f'set {nested} in the spec')
            return
        d = self.defs.get(attr.get('enum'))
        stag = spec_entries(d, self.spec['name'])[0] if d else None
        if said['enum'] != stag:
            self.report(where, f'{label}: enum {said["enum"]} in the header, '
                        f'{attr.get("enum")} in the spec')
        elif d and said['bits'] != bool(attr.get('enum-as-flags') or d['type'] == 'flags'):
            self.report(where, f'{label}: the header says bits {said["bits"]}, the spec '
                        f'enum-as-flags {attr.get("enum-as-flags", False)}')

    def check_attr_sets(self):
        """Attribute sets against the header's attribute enums."""
        for name, (prefix, tag, attrs) in self.sets.items():
            hentries = self.header_enum(tag, f'attribute set {name}')
            if not hentries:
                continue
            self.compare_values(members(hentries, True),
                                [(c, v, f'attribute {name}.{a["name"]}')
                                 for c, (v, a) in attrs.items()], tag)
            for cname, _, comment, line in members(hentries, True):
                if cname in attrs:
                    attr = attrs[cname][1]
                    self.check_attr_type(show(self.hpath, line), f'{cname} ({name}.{attr["name"]})',
                                         attr, comment)
            top = max((v for v, _ in attrs.values()), default=0)
            got = self.kernel.value(prefix + 'MAX')
            if got != top:
                self.report(show(self.hpath), f'{prefix}MAX is {got}, '
                            f'the last attribute of set {name} is {top}')

    def policy_set(self, name):
        """The attribute set a kernel policy table is for, from its size."""
        size = self.kernel.policies[name][1]
        m = re.fullmatch(r'(?:__)?(\w+?)MAX(?:\s*\+\s*1)?', size.strip())
        return self.set_of_prefix.get(m[1]) if m else None

    def check_policies(self):
        """Every kernel policy entry against the spec's attribute."""
        validated = set()
        if not self.kernel.policies:
            self.report(show(self.kdir), 'no nla_policy table found')
        for pname, (where, size, entries) in self.kernel.policies.items():
            sname = self.policy_set(pname)
            if sname is None:
                self.report(where, f'{pname}[{size}]: no attribute set of the spec has this size')
                continue
            attrs = self.sets[sname][2]
            for key, expr, ewhere in entries:
                label = f'{pname}[{key}]'
                if key not in attrs:
                    self.report(ewhere, f'{label}: not an attribute of set {sname} in the spec'
                                if key else f'{pname}: cannot read the entry {expr!r}')
                    continue
                attr = attrs[key][1]
                validated.add((sname, attr['name']))
                try:
                    got = self.kernel.policy(expr)
                except KeyError as err:
                    self.report(ewhere, f'{label}: cannot read the policy {expr!r} ({err})')
                    continue
                if 'nested' in got:
                    nested = got['nested']
                    got['nested'] = (self.policy_set(nested) if nested in self.kernel.policies
                                     else f'unknown policy {nested}')
                want = spec_policy(attr, self.spec, self.defs, self.consts)
                for k in sorted(set(got) | set(want)):
                    if got.get(k) != want.get(k):
                        g, w = ('none' if v is None else hex(v) if k == 'mask' else v
                                for v in (got.get(k), want.get(k)))
                        self.report(ewhere, f'{label}: {k} {g} in the policy, {w} in the spec '
                                    f'({sname}.{attr["name"]})')
        for sname, (_, _, attrs) in self.sets.items():
            for _, attr in attrs.values():
                if 'checks' in attr and (sname, attr['name']) not in validated:
                    self.report(show(self.spath), f'attribute {sname}.{attr["name"]} has checks, '
                                'but no kernel policy accepts it')

    def check_ops(self):
        """Commands and events against the header enums and the genl_ops."""
        ops, family = self.spec['operations'], self.spec['name']
        sops = spec_ops(self.spec)
        top = {c_upper(a['name']) for _, a in self.sets[family][2].values()}
        cmd_tag = c_lower(ops.get('enum-name', f'{family}-cmd'))
        event_tag = c_lower(ops.get('async-enum', cmd_tag))
        by_tag = {}
        for o in sops:
            by_tag.setdefault(event_tag if o[3] else cmd_tag, []).append(o)
        for tag, mine in by_tag.items():
            hentries = members(self.header_enum(tag, 'operations'), True)
            self.compare_values(hentries, [(c, v, f'operation {op["name"]}')
                                           for c, v, op, _ in mine], tag)
            said = {e[0]: (e[2], e[3]) for e in hentries}
            for cname, _, op, event in mine:
                if cname not in said:
                    continue
                where = show(self.hpath, said[cname][1])
                if event:
                    attrs = header_words(said[cname][0].split(':')[0], top)
                    want = {c_upper(a) for a in op['event'].get('attributes', [])}
                    if attrs != want:
                        self.report(where, f'{cname}: carries {sorted(attrs)} in the header, '
                                    f'{sorted(want)} in the spec')
                    continue
                self.check_op_comment(where, cname, op, header_op(said[cname][0], top))
        self.check_kernel_ops(sops)

    def check_op_comment(self, where, cname, op, said):
        """A command's do/dump, request and reply against its header comment."""
        kinds = {k for k in ('do', 'dump') if k in op}
        if set(said) != kinds:
            self.report(where, f'{cname}: {"/".join(sorted(said)) or "nothing"} in the header, '
                        f'{"/".join(sorted(kinds))} in the spec')
        for kind in kinds & set(said):
            for i, part in enumerate(('request', 'reply')):
                if said[kind][i] is None:
                    continue
                want = {c_upper(a) for a in (op[kind].get(part) or {}).get('attributes', [])}
                if said[kind][i] != want:
                    self.report(where, f'{cname}: {kind} {part} {sorted(said[kind][i])} '
                                f'in the header, {sorted(want)} in the spec')

    def check_kernel_ops(self, sops):
        """The genl_ops entries against the spec's commands."""
        k = self.kernel
        fam = k.families[0][1] if len(k.families) == 1 else {}
        by_value = {v: (c, op) for c, v, op, event in sops if not event}
        seen = set()
        if not k.ops:
            self.report(show(self.kdir), 'no genl_ops or genl_small_ops table found')
        for where, f in k.ops:
            value = k.value(f.get('cmd', '?'))
            if value not in by_value:
                self.report(where, f'op {f.get("cmd")}: no such command in the spec')
                continue
            if value in seen:
                self.report(where, f'op {f.get("cmd")}: a second entry for this command')
            seen.add(value)
            cname, op = by_value[value]
            for kind, fn in (('do', 'doit'), ('dump', 'dumpit')):
                if (f.get(fn, 'NULL') != 'NULL') != (kind in op):
                    self.report(where, f'{cname}: {fn} is {f.get(fn, "NULL")}, the spec '
                                f'{"has" if kind in op else "has no"} {kind}')
            for table, attr in ((OP_FLAGS, 'flags'), (DONT_VALIDATE, 'dont-validate')):
                field = 'flags' if attr == 'flags' else 'validate'
                got = sorted(table[t] for t in re.findall(r'\w+', f.get(field, '')) if t in table)
                if got != sorted(op.get(attr, [])):
                    self.report(where, f'{cname}: {attr} {got} in the kernel '
                                f'({f.get(field, "0")}), {sorted(op.get(attr, []))} in the spec')
            self.check_op_policy(where, cname, op, f.get('policy', fam.get('policy')))
        for cname, value, op, event in sops:
            if not event and value not in seen:
                self.report(show(self.kdir),
                            f'{cname} (operation {op["name"]}) has no genl_ops entry')

    def check_op_policy(self, where, cname, op, pname):
        """The attributes an op's policy accepts against its spec requests."""
        want = set()
        for kind in ('do', 'dump'):
            want |= set(((op.get(kind) or {}).get('request') or {}).get('attributes', []))
        got, sname = set(), op.get('attribute-set')
        if pname and pname in self.kernel.policies:
            psname = self.policy_set(pname)
            if psname != sname:
                self.report(where, f'{cname}: policy {pname} is for set {psname}, '
                            f'the spec says attribute-set {sname}')
                return
            attrs = self.sets[sname][2]
            got = {attrs[key][1]['name']
                   for key, _, _ in self.kernel.policies[pname][2] if key in attrs}
        elif pname and pname != 'NULL':
            self.report(where, f'{cname}: policy {pname} not found')
            return
        if got != want:
            self.report(where, f'{cname}: policy {pname} accepts {sorted(got)}, the spec requests '
                        f'{sorted(want)}')

    def check_unknown_enums(self):
        """Every header enum must be something of the spec."""
        for tag, entries in self.enums.items():
            if tag not in self.used_enums:
                self.report(show(self.hpath, entries[0][3] if entries else None),
                            f'enum {tag} is not in the spec')

    def run(self):
        """All checks; the report's lines."""
        self.check_family()
        self.check_definitions()
        self.check_attr_sets()
        self.check_policies()
        self.check_ops()
        self.check_unknown_enums()
        return self.report.lines


def main():
    """Parse the options, run the checks, print and exit."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n', maxsplit=1)[0])
    uapi = ROOT / 'include/uapi/linux'
    ap.add_argument('--header', type=pathlib.Path, default=uapi / 'mrc_netlink.h',
                    help='the C uapi header (default: %(default)s)')
    ap.add_argument('--spec', type=pathlib.Path, default=uapi / 'mrc_netlink.yaml',
                    help='the YAML spec (default: %(default)s)')
    ap.add_argument('--kernel-dir', type=pathlib.Path, default=ROOT / 'kernel',
                    help='searched recursively for the policy and operation tables')
    args = ap.parse_args()
    problems = spec_problems(yaml.safe_load(args.spec.read_text()))
    lines = [f'{show(args.spec)}: {p}' for p in problems]
    if not lines:
        lines = Checker(args.header, args.spec, args.kernel_dir).run()
    for line in lines:
        print(line, file=sys.stderr)
    if lines:
        print(f'nl-spec-check: {len(lines)} disagreement(s)', file=sys.stderr)
        return 1
    print(f'nl-spec-check: {show(args.header)}, {show(args.spec)} and the tables under '
          f'{show(args.kernel_dir)} agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
