#!/usr/bin/python3
"""disguise.py - makes a disguised copy of a Dominator contestant's C file.

Usage: disguise.py --level N --seed S [--name NEWNAME] [--host HOST.c] IN.c OUT.c

Plays the plagiarist for the plagiarism detector's benchmark.  Levels 1-6
are cumulative; level N applies the transformations of levels 1..N:
  1  comments and layout      4  dead code and unused variables
  2  renaming                 5  loop and conditional forms
  3  reordering               6  split and merge functions
Levels 7 and 8 stand apart:
  7  levels 1-3, then equivalent forms nearly everywhere (x++ / x += 1 /
     x = x + 1, a < b / b > a, for / while, if chains reordered)
  8  a partial copy: one function of IN.c (with what it needs), renamed and
     laid out anew, appended to HOST.c, about a quarter of the result
README.md beside this script describes each level.  Every copy compiles and,
as far as the transformations go, behaves as the original.

Needs Python 3 with pycparser (Debian's python3-pycparser) and gcc for its
preprocessor.  Exit status: 0 done, 1 bad usage, 2 input it cannot handle.
"""

import argparse
import copy
import math
import os
import random
import re
import subprocess
import sys
import tempfile

try:
    from pycparser import c_ast, c_generator, c_parser
    from pycparser.plyparser import ParseError
except ImportError:
    sys.stderr.write('disguise.py: needs pycparser (apt-get install python3-pycparser)\n')
    sys.exit(2)

SRC = '@src@'          # the contestant's file, as named in line markers
PRE = '@disguise@'     # lines this script adds for the parser only
HERE = os.path.dirname(os.path.abspath(__file__))
KIT = os.path.normpath(os.path.join(HERE, '..', '..', 'games', 'dominator', 'kit'))
# the course games' shared header (course.h), which the game's header includes
COURSE_KIT = os.path.normpath(os.path.join(HERE, '..', '..', 'games', 'kit'))


class Fail(Exception):
    """An input this script cannot handle: reported as one line, no traceback."""


# ---------------------------------------------------------------------------
# Source text: comments, directives, tokens
# ---------------------------------------------------------------------------

TOKEN_RE = re.compile(r'''
    (?P<str>L?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>L?'(?:[^'\\\n]|\\.)*')
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
  | (?P<id>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|
              [][(){}.,;:?~!<>=+\-*/%&|^\#])
  | (?P<space>\s+)
  | (?P<other>.)
''', re.X | re.S)

C_KEYWORDS = set('''auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while _Bool
_Complex _Imaginary _Alignas _Alignof _Atomic _Generic _Noreturn _Static_assert
_Thread_local asm typeof bool true false main'''.split())

BUILTIN_TYPE_WORDS = {'void', 'char', 'short', 'int', 'long', 'float', 'double',
                      'signed', 'unsigned', '_Bool', '_Complex', '__int128'}


def c_tokens(text):
    """(kind, text) for every token of text, spaces left out."""
    out = []
    for m in TOKEN_RE.finditer(text):
        kind = m.lastgroup
        if kind != 'space':
            out.append((kind, m.group()))
    return out


def scan_comments(text):
    """Returns (stripped, comments).  stripped is text with every comment
    turned into spaces (newlines kept, so line numbers hold); comments is a
    list of dicts: line, end (1-based), text, block, trailing."""
    out = []
    comments = []
    i, n, line = 0, len(text), 1
    line_has_code = False
    while i < n:
        c = text[i]
        if c == '\n':
            out.append(c)
            line += 1
            line_has_code = False
            i += 1
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(text[i:j])
            line_has_code = True
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            comments.append({'line': line, 'end': line, 'text': text[i + 2:j].strip(),
                             'block': False, 'trailing': line_has_code})
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            if j < 0:
                raise Fail('unterminated comment at line %d' % line)
            body = text[i + 2:j]
            nl = body.count('\n')
            comments.append({'line': line, 'end': line + nl, 'text': body,
                             'block': True, 'trailing': line_has_code})
            out.append(re.sub(r'[^\n]', ' ', text[i:j + 2]))
            line += nl
            i = j + 2
        else:
            if not c.isspace():
                line_has_code = True
            out.append(c)
            i += 1
    # a run of // lines is one comment
    merged = []
    for c in comments:
        p = merged[-1] if merged else None
        if (p is not None and not c['block'] and not p['block'] and not c['trailing']
                and not p['trailing'] and c['line'] == p['end'] + 1):
            p['end'] = c['line']
            p['lines'].append(c['text'])
            continue
        if not c['block']:
            c['lines'] = [c['text']]
        merged.append(c)
    return ''.join(out), merged


def logical_lines(stripped):
    """[(first, last, text)] with backslash-newlines joined; 1-based lines."""
    phys = stripped.split('\n')
    res = []
    i = 0
    while i < len(phys):
        start = i
        buf = phys[i]
        while buf.rstrip().endswith('\\') and i + 1 < len(phys):
            buf = buf.rstrip()[:-1] + ' ' + phys[i + 1]
            i += 1
        res.append((start + 1, i + 1, buf))
        i += 1
    return res


DIRECTIVE_RE = re.compile(r'^\s*#\s*([A-Za-z_]*)\s*(.*)$', re.S)
DEFINE_RE = re.compile(r'^([A-Za-z_]\w*)(\(([^)]*)\))?\s*(.*)$', re.S)


class Macro:
    def __init__(self, name, params, body, first, last, depth):
        self.name = name
        self.params = params          # None for an object-like macro
        self.body = body.strip()
        self.first = first
        self.last = last
        self.depth = depth            # conditional nesting where defined
        self.count = 1
        self.undef = False
        self.tokens = c_tokens(self.body)
        self.newname = name
        self.param_new = list(params) if params else params


class Source:
    """What the script needs from the contestant's text besides the AST."""

    def __init__(self, text):
        self.text = text
        self.stripped, self.comments = scan_comments(text)
        self.lines = logical_lines(self.stripped)
        self.includes = []      # (first line, text, conditional)
        self.feature_defines = []   # (first line, text): _GNU_SOURCE and the like
        self.macros = {}        # file macros by name
        self.cond_names = set()     # identifiers in #if conditions
        self.directive_lines = set()
        self.code_ids = {}      # identifier -> first line it appears on in code
        depth = 0
        for first, last, t in self.lines:
            m = DIRECTIVE_RE.match(t)
            if not m:
                for kind, tok in c_tokens(t):
                    if kind == 'id' and tok not in self.code_ids:
                        self.code_ids[tok] = first
                continue
            for ln in range(first, last + 1):
                self.directive_lines.add(ln)
            d, rest = m.group(1), m.group(2)
            if d == 'include':
                self.includes.append((first, '#include ' + rest.strip(), depth > 0))
            elif d == 'define':
                dm = DEFINE_RE.match(rest.strip())
                if not dm:
                    continue
                name = dm.group(1)
                if name.startswith('_') or name == 'NDEBUG':
                    self.feature_defines.append((first, '#define ' + rest.strip()))
                params = None
                if dm.group(2):
                    params = [p.strip() for p in dm.group(3).split(',') if p.strip()]
                if name in self.macros:
                    self.macros[name].count += 1
                else:
                    self.macros[name] = Macro(name, params, dm.group(4), first, last, depth)
            elif d == 'undef':
                name = rest.strip().split()[0] if rest.strip() else ''
                if name in self.macros:
                    self.macros[name].undef = True
            elif d in ('if', 'ifdef', 'ifndef', 'elif'):
                if d != 'elif':
                    depth += 1
                for kind, tok in c_tokens(rest):
                    if kind == 'id':
                        self.cond_names.add(tok)
            elif d == 'endif':
                depth = max(0, depth - 1)

    def line_ids(self, line):
        """Identifiers on physical line `line` of the code."""
        phys = self.stripped.split('\n')
        if 1 <= line <= len(phys):
            return {t for k, t in c_tokens(phys[line - 1]) if k == 'id'}
        return set()


# ---------------------------------------------------------------------------
# Preprocessing and parsing
# ---------------------------------------------------------------------------

GCC_FLAGS = ['-std=gnu17', '-U__GNUC__', '-D__extension__=', '-D__attribute__(x)=',
             '-D__restrict=', '-D__restrict__=', '-D__inline=inline', '-D__inline__=inline',
             '-D__asm__(x)=', '-D__asm(x)=', '-D__builtin_va_list=int', '-D__volatile__=volatile',
             '-D__const=const', '-D__signed__=signed', '-D_Noreturn=', '-D__typeof__=typeof']


def run_gcc(args, text, incdirs):
    with tempfile.NamedTemporaryFile('w', suffix='.c', delete=False, encoding='utf-8',
                                     errors='surrogateescape') as f:
        f.write(text)
        tmp = f.name
    try:
        cmd = ['gcc'] + GCC_FLAGS + args
        for d in incdirs:
            cmd += ['-iquote', d, '-I', d]
        cmd.append(tmp)
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True, encoding='utf-8',
                               errors='surrogateescape')
        except OSError as e:
            raise Fail('cannot run gcc: %s' % e)
        if p.returncode != 0:
            err = p.stderr.replace(tmp, 'input').strip().split('\n')
            raise Fail('the preprocessor refuses the file: %s' % ' / '.join(err[:3]))
        return p.stdout
    finally:
        os.unlink(tmp)


def macro_names_defined(dm_output):
    names = {}
    for line in dm_output.split('\n'):
        m = re.match(r'#define ([A-Za-z_]\w*)(\()?', line)
        if m:
            names[m.group(1)] = bool(m.group(2))
    return names


class Parsed:
    """The parsed translation unit, split into header and contestant parts."""

    def __init__(self, src, ast, kept_file, kept_hdr, hdr_macros):
        self.src = src
        self.hdr_ext = [e for e in ast.ext if not is_src(e)]
        self.ext = [e for e in ast.ext if is_src(e)]
        self.kept = kept_file           # name -> Macro, kept unexpanded
        self.kept_hdr = kept_hdr        # header macro names kept unexpanded
        self.hdr_macros = hdr_macros    # every macro name the headers define


def is_src(node):
    return node.coord is None or node.coord.file == SRC


def parse_source(src, incdirs):
    """Preprocesses and parses; returns a Parsed.  Macros the file defines
    are kept as identifiers where they parse as such (so they come back as
    #define lines), and so are the headers' macros the code uses."""
    all_macros = macro_names_defined(run_gcc(['-dM', '-E'], src.text, incdirs))
    hdr_macros = {k: v for k, v in all_macros.items() if k not in src.macros}
    last_include = max([ln for ln, _, _ in src.includes] or [0])
    code_ids = src.code_ids
    cands = {}
    for name, m in src.macros.items():
        if (m.count == 1 and not m.undef and m.depth == 0 and name not in src.cond_names
                and m.body and not name.startswith('_') and name != 'NDEBUG'
                and (m.params is None or '...' not in m.params)
                and not any(t in ('#', '##', ';', '{', '}') for _, t in m.tokens)
                and not any(k == 'other' for k, _ in m.tokens)):
            cands[name] = m
    kept = {n: m for n, m in cands.items() if n in code_ids and code_ids[n] > m.last}
    grew = True
    while grew:     # macros that only kept macros use
        grew = False
        for m in list(kept.values()):
            for k, t in m.tokens:
                if k == 'id' and t in cands and t not in kept:
                    kept[t] = cands[t]
                    grew = True
    kept = {n: src.macros[n] for n in src.macros if n in kept}
    kept_hdr = {n for n in code_ids if n in hdr_macros and n != 'PLAYER_NAME'
                and not n.startswith('__') and code_ids[n] > last_include}
    for attempt in range(60):
        # a kept macro whose body needs a dropped one must go too
        changed = True
        while changed:
            changed = False
            for name in list(kept):
                for k, t in kept[name].tokens:
                    if k == 'id' and t in src.macros and t not in kept and t != name:
                        del kept[name]
                        changed = True
                        break
        text = build_cpp_input(src, kept, kept_hdr, last_include)
        out = run_gcc(['-E'], text, incdirs)
        try:
            ast = c_parser.CParser().parse(out, 'input')
        except ParseError as e:
            msg = str(e)
            m = re.match(r'(.*?):(\d+):(\d+): (.*)', msg)
            if not m:
                raise Fail('cannot parse: %s' % msg)
            fname, line = m.group(1), int(m.group(2))
            if fname != SRC:
                raise Fail('cannot parse (in %s line %d: %s); the file uses a construct '
                           'this script does not know' % (fname, line, m.group(4)))
            ids = src.line_ids(line)
            culprits = [n for n in ids if n in kept] + [n for n in ids if n in kept_hdr]
            if not culprits:
                raise Fail('cannot parse line %d: %s' % (line, m.group(4)))
            for n in culprits:
                kept.pop(n, None)
                kept_hdr.discard(n)
            continue
        except Exception as e:  # pycparser raises a few other kinds
            raise Fail('cannot parse: %s' % e)
        P = Parsed(src, ast, kept, kept_hdr, hdr_macros)
        P.pp_files = set(re.findall(r'^# \d+ "([^"]*)"', out, re.M))
        return P
    raise Fail('cannot parse: too many macros in the way')


def build_cpp_input(src, kept, kept_hdr, last_include):
    phys = src.text.split('\n')
    for m in kept.values():
        for ln in range(m.first, m.last + 1):
            phys[ln - 1] = ''
    out = ['#line 1 "%s"' % SRC]
    if last_include == 0:
        out += add_block(kept_hdr, 1)
    for i, line in enumerate(phys, 1):
        out.append(line)
        if i == last_include:
            # the include may continue onto later lines only in theory
            out += add_block(kept_hdr, i + 1)
    return '\n'.join(out) + '\n'


def add_block(kept_hdr, resume):
    lines = ['#line 1 "%s"' % PRE]
    for n in sorted(kept_hdr):
        lines.append('#undef %s' % n)
    if 'bool' in kept_hdr:
        lines.append('typedef _Bool bool;')
    lines.append('#line %d "%s"' % (resume, SRC))
    return lines


# ---------------------------------------------------------------------------
# AST helpers
# ---------------------------------------------------------------------------

def slots(n):
    return [s for s in n.__slots__ if s not in ('coord', '__weakref__')]


def kids(n):
    for s in slots(n):
        v = getattr(n, s)
        if isinstance(v, c_ast.Node):
            yield v
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, c_ast.Node):
                    yield x


def walk(n):
    """Every node under n, n first, in source order."""
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(list(kids(x))))


def replace_nodes(n, fn):
    """Rebuilds n bottom-up: fn(node) returns a replacement or None."""
    for s in slots(n):
        v = getattr(n, s)
        if isinstance(v, c_ast.Node):
            setattr(n, s, replace_nodes(v, fn))
        elif isinstance(v, list):
            setattr(n, s, [replace_nodes(x, fn) if isinstance(x, c_ast.Node) else x for x in v])
    r = fn(n)
    return n if r is None else r


def innermost_typedecl(t):
    while t is not None and not isinstance(t, c_ast.TypeDecl):
        t = getattr(t, 'type', None)
    return t


def set_decl_name(d, name):
    d.name = name
    td = innermost_typedecl(d.type)
    if td is not None:
        td.declname = name


def base_type(t):
    """The Struct/Union/Enum/IdentifierType at the bottom of a type."""
    td = innermost_typedecl(t)
    return td.type if td is not None else None


def defining_base(d):
    """The struct, union or enum that declaration d defines (with a body)."""
    if not isinstance(d, (c_ast.Decl, c_ast.Typedef)):
        return None
    b = base_type(d.type)
    if isinstance(b, (c_ast.Struct, c_ast.Union)) and b.decls is not None:
        return b
    if isinstance(b, c_ast.Enum) and b.values is not None:
        return b
    return None


def group_items(items):
    """Consecutive declarations sharing one struct/enum definition travel
    together: [[node, ...], ...]."""
    groups = []
    for it in items:
        b = defining_base(it)
        if groups and b is not None and defining_base(groups[-1][-1]) is b:
            groups[-1].append(it)
        else:
            groups.append([it])
    return groups


def is_funcdecl(d):
    return isinstance(d, c_ast.Decl) and isinstance(d.type, c_ast.FuncDecl)


def mk_id(name):
    return c_ast.ID(name)


def mk_int(v):
    return c_ast.Constant('int', str(v))


def mk_decl(name, typ, init=None, storage=None, quals=None):
    """A declaration; typ is a pycparser type whose TypeDecl gets the name."""
    d = c_ast.Decl(name, quals or [], [], storage or [], [], typ, init, None)
    set_decl_name(d, name)
    return d


def simple_type(names, quals=None):
    return c_ast.TypeDecl(None, quals or [], None, c_ast.IdentifierType(list(names)))


def mk_compound(items):
    return c_ast.Compound(list(items))


def stmt_list(s):
    """The statements of a body, as a list (a compound's items or [s])."""
    if isinstance(s, c_ast.Compound):
        return list(s.block_items or [])
    return [s]


# ---------------------------------------------------------------------------
# Symbols: who declares each name, who refers to it
# ---------------------------------------------------------------------------

class Sym:
    def __init__(self, name, ns, kind, node, origin, func):
        self.name = name
        self.ns = ns            # 'ord', 'tag', 'label'
        self.kind = kind        # func var param typedef enumconst tag label
        self.node = node        # first declaring node
        self.origin = origin    # 'src' or 'hdr'
        self.func = func        # enclosing FuncDef, None at file scope
        self.type = None        # declared type (vars, params, funcs, typedefs)
        self.storage = []
        self.occ = []           # (how, node[, index]) where the name is written
        self.items = []         # declaring nodes


class Scope:
    def __init__(self, parent, kind):
        self.parent = parent
        self.kind = kind
        self.ord = {}
        self.tag = {}

    def lookup(self, ns, name):
        s = self
        while s is not None:
            d = s.ord if ns == 'ord' else s.tag
            if name in d:
                return d[name]
            s = s.parent
        return None


class FieldInfo:
    def __init__(self):
        self.hdr = False
        self.src = False
        self.occ = []
        self.types = []


class Resolver:
    """Binds every name in the contestant's nodes to its declaration.

    Fields are bound by name only: a field name the headers also use is
    never renamed, so struct member accesses need no type inference."""

    def __init__(self, hdr_ext, ext, kept, cache=None):
        self.kept = kept
        self.syms = []
        self.ref = {}           # id(ID or IdentifierType node) -> Sym
        self.keep_alive = []
        self.macro_uses = []    # ID nodes naming a kept macro
        self.macro_refs = {}    # id(ID node of a macro use) -> [Sym] of its body
        self.funcs = {}         # id(FuncDef) -> list of its local syms
        self.labels = {}
        if cache is None:
            self.file = Scope(None, 'file')
            self.fields = {}
            for e in hdr_ext:
                self.ext_node(e, self.file, 'hdr')
        else:
            self.ref = dict(cache.ref)
            self.file = Scope(None, 'file')
            self.file.ord = dict(cache.file.ord)
            self.file.tag = dict(cache.file.tag)
            self.fields = {}
            for k, v in cache.fields.items():
                f = FieldInfo()
                f.hdr = v.hdr
                f.types = list(v.types)
                self.fields[k] = f
        self.hdr_syms_ord = set(self.file.ord)
        # functions are known file-wide: the output declares them before use
        for e in ext:
            d = e.decl if isinstance(e, c_ast.FuncDef) else e
            if is_funcdecl(d) and d.name and d.name not in self.file.ord:
                s = Sym(d.name, 'ord', 'func', d, 'src', None)
                s.type = d.type
                s.storage = d.storage
                self.file.ord[d.name] = s
                self.syms.append(s)
        for e in ext:
            self.ext_node(e, self.file, 'src')

    # -- declarations ---------------------------------------------------
    def define(self, scope, ns, name, kind, node, origin, func):
        table = scope.ord if ns == 'ord' else scope.tag
        s = table.get(name)
        if s is None or (scope.kind != 'file' and s.func is not func):
            s = Sym(name, ns, kind, node, origin, func)
            table[name] = s
            self.syms.append(s)
            if func is not None and origin == 'src':
                self.funcs.setdefault(id(func), []).append(s)
        elif s.kind == 'func' and kind == 'func' and origin == 'src' and s.origin == 'src':
            pass
        s.items.append(node)
        return s

    def occur(self, s, how, node, index=None):
        if s.origin == 'src':
            s.occ.append((how, node, index))

    def ext_node(self, e, scope, origin):
        if isinstance(e, c_ast.FuncDef):
            self.funcdef(e, scope, origin)
        elif isinstance(e, c_ast.Decl):
            self.declare(e, scope, origin, None)
        elif isinstance(e, c_ast.Typedef):
            self.typedef(e, scope, origin, None)
        elif isinstance(e, c_ast.StaticAssert):
            self.expr(e.cond, scope, origin, None)

    def funcdef(self, f, scope, origin):
        d = f.decl
        fs = Scope(scope, 'func')
        self.cur_labels = {}
        for n in walk(f.body):
            if isinstance(n, c_ast.Label):
                s = Sym(n.name, 'label', 'label', n, origin, f)
                self.syms.append(s)
                self.cur_labels[n.name] = s
                if origin == 'src':
                    self.funcs.setdefault(id(f), []).append(s)
        self.labels[id(f)] = self.cur_labels
        self.decl_type(d.type, scope, origin, None, param_scope=fs, fdef=f)
        s = self.define(scope, 'ord', d.name, 'func', d, origin, None)
        if s.type is None or isinstance(s.node, c_ast.Decl):
            s.type = d.type
        s.storage = s.storage or d.storage
        s.funcdef = f
        self.occur(s, 'decl', d)
        for pd in f.param_decls or []:
            self.declare(pd, fs, origin, f, kind='param')
        for it in f.body.block_items or []:
            self.stmt(it, fs, origin, f)

    def declare(self, d, scope, origin, func, kind=None):
        self.decl_type(d.type, scope, origin, func)
        if d.name:
            if kind is None:
                kind = 'func' if isinstance(d.type, c_ast.FuncDecl) else 'var'
            s = self.define(scope, 'ord', d.name, kind, d, origin, func)
            if s.type is None:
                s.type = d.type
                s.storage = d.storage
            self.occur(s, 'decl', d)
        if d.init is not None:
            self.expr(d.init, scope, origin, func)
        if d.bitsize is not None:
            self.expr(d.bitsize, scope, origin, func)

    def typedef(self, t, scope, origin, func):
        self.decl_type(t.type, scope, origin, func)
        s = self.define(scope, 'ord', t.name, 'typedef', t, origin, func)
        s.type = t.type
        self.occur(s, 'decl', t)

    def decl_type(self, t, scope, origin, func, param_scope=None, **kw):
        if t is None:
            return
        if isinstance(t, (c_ast.TypeDecl, c_ast.PtrDecl)):
            self.decl_type(t.type, scope, origin, func, param_scope, **kw)
        elif isinstance(t, c_ast.ArrayDecl):
            self.decl_type(t.type, scope, origin, func, param_scope, **kw)
            if t.dim is not None:
                self.expr(t.dim, scope, origin, func)
        elif isinstance(t, c_ast.FuncDecl):
            ps = param_scope if param_scope is not None else Scope(scope, 'proto')
            pf = kw.get('fdef', func)
            if t.args is not None:
                for p in t.args.params:
                    if isinstance(p, c_ast.Decl):
                        self.declare(p, ps, origin, pf if param_scope is not None else func,
                                     kind='param')
                    elif isinstance(p, c_ast.Typename):
                        self.decl_type(p.type, ps, origin, func)
            self.decl_type(t.type, scope, origin, func)
        elif isinstance(t, c_ast.IdentifierType):
            for i, nm in enumerate(t.names):
                if nm in BUILTIN_TYPE_WORDS:
                    continue
                s = scope.lookup('ord', nm)
                if s is not None:
                    self.ref[id(t)] = s
                    self.keep_alive.append(t)
                    self.occur(s, 'idtype', t, i)
        elif isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
            body = t.values if isinstance(t, c_ast.Enum) else t.decls
            if t.name:
                s = scope.lookup('tag', t.name)
                if s is None or (body is not None and t.name not in scope.tag):
                    s = self.define(scope, 'tag', t.name, 'tag', t, origin, func)
                if body is not None:
                    s.body = t
                self.occur(s, 'tag', t)
                self.ref[id(t)] = s
                self.keep_alive.append(t)
            if isinstance(t, c_ast.Enum):
                if t.values is not None:
                    for en in t.values.enumerators:
                        if en.value is not None:
                            self.expr(en.value, scope, origin, func)
                        s = self.define(scope, 'ord', en.name, 'enumconst', en, origin, func)
                        s.enum = t
                        self.occur(s, 'enumr', en)
            elif t.decls is not None:
                for fd in t.decls:
                    self.decl_type(fd.type, scope, origin, func)
                    if fd.bitsize is not None:
                        self.expr(fd.bitsize, scope, origin, func)
                    if fd.name:
                        fi = self.fields.setdefault(fd.name, FieldInfo())
                        if origin == 'src':
                            fi.src = True
                            fi.occ.append(('decl', fd, None))
                        else:
                            fi.hdr = True
                        fi.types.append(fd.type)
        elif isinstance(t, c_ast.Typename):
            self.decl_type(t.type, scope, origin, func)

    # -- statements -----------------------------------------------------
    def stmt(self, n, scope, origin, func):
        if n is None:
            return
        if isinstance(n, c_ast.Compound):
            sc = Scope(scope, 'block')
            for it in n.block_items or []:
                self.stmt(it, sc, origin, func)
        elif isinstance(n, c_ast.Decl):
            self.declare(n, scope, origin, func)
        elif isinstance(n, c_ast.Typedef):
            self.typedef(n, scope, origin, func)
        elif isinstance(n, c_ast.For):
            sc = Scope(scope, 'block')
            if isinstance(n.init, c_ast.DeclList):
                for d in n.init.decls:
                    self.declare(d, sc, origin, func)
            else:
                self.expr(n.init, sc, origin, func)
            self.expr(n.cond, sc, origin, func)
            self.expr(n.next, sc, origin, func)
            self.stmt(n.stmt, Scope(sc, 'block'), origin, func)
        elif isinstance(n, c_ast.If):
            self.expr(n.cond, scope, origin, func)
            self.stmt(n.iftrue, Scope(scope, 'block'), origin, func)
            self.stmt(n.iffalse, Scope(scope, 'block'), origin, func)
        elif isinstance(n, (c_ast.While, c_ast.DoWhile)):
            self.expr(n.cond, scope, origin, func)
            self.stmt(n.stmt, Scope(scope, 'block'), origin, func)
        elif isinstance(n, c_ast.Switch):
            self.expr(n.cond, scope, origin, func)
            self.stmt(n.stmt, Scope(scope, 'block'), origin, func)
        elif isinstance(n, c_ast.Case):
            self.expr(n.expr, scope, origin, func)
            for s in n.stmts or []:
                self.stmt(s, scope, origin, func)
        elif isinstance(n, c_ast.Default):
            for s in n.stmts or []:
                self.stmt(s, scope, origin, func)
        elif isinstance(n, c_ast.Label):
            s = self.labels.get(id(func), {}).get(n.name)
            if s is not None:
                self.occur(s, 'label', n)
            self.stmt(n.stmt, scope, origin, func)
        elif isinstance(n, c_ast.Goto):
            s = self.labels.get(id(func), {}).get(n.name)
            if s is not None:
                self.occur(s, 'label', n)
        elif isinstance(n, c_ast.Return):
            self.expr(n.expr, scope, origin, func)
        elif isinstance(n, (c_ast.Break, c_ast.Continue, c_ast.EmptyStatement, c_ast.Pragma)):
            pass
        elif isinstance(n, c_ast.StaticAssert):
            self.expr(n.cond, scope, origin, func)
        else:
            self.expr(n, scope, origin, func)

    # -- expressions ----------------------------------------------------
    def expr(self, n, scope, origin, func):
        if n is None:
            return
        if isinstance(n, c_ast.ID):
            s = scope.lookup('ord', n.name)
            if s is not None:
                self.ref[id(n)] = s
                self.keep_alive.append(n)
                self.occur(s, 'id', n)
            elif n.name in self.kept:
                self.macro_uses.append(n)
                refs = []
                for nm in macro_body_ids(self.kept, n.name):
                    s2 = scope.lookup('ord', nm)
                    if s2 is not None:
                        refs.append(s2)
                self.macro_refs[id(n)] = refs
                self.keep_alive.append(n)
        elif isinstance(n, c_ast.StructRef):
            self.expr(n.name, scope, origin, func)
            self.field(n.field)
        elif isinstance(n, c_ast.FuncCall):
            if isinstance(n.name, c_ast.ID) and n.name.name == 'offsetof' and n.args:
                a = n.args.exprs
                self.decl_type(a[0].type if isinstance(a[0], c_ast.Typename) else None,
                               scope, origin, func)
                if len(a) > 1:
                    if isinstance(a[1], c_ast.ID):
                        self.field(a[1])
                    else:
                        self.expr(a[1], scope, origin, func)
                return
            self.expr(n.name, scope, origin, func)
            self.expr(n.args, scope, origin, func)
        elif isinstance(n, c_ast.NamedInitializer):
            for x in n.name:
                if isinstance(x, c_ast.ID):
                    self.field(x)
                else:
                    self.expr(x, scope, origin, func)
            self.expr(n.expr, scope, origin, func)
        elif isinstance(n, c_ast.Typename):
            self.decl_type(n.type, scope, origin, func)
        elif isinstance(n, c_ast.Cast):
            self.decl_type(n.to_type.type, scope, origin, func)
            self.expr(n.expr, scope, origin, func)
        elif isinstance(n, c_ast.CompoundLiteral):
            self.decl_type(n.type.type, scope, origin, func)
            self.expr(n.init, scope, origin, func)
        else:
            for k in kids(n):
                self.expr(k, scope, origin, func)

    def field(self, idnode):
        fi = self.fields.setdefault(idnode.name, FieldInfo())
        fi.occ.append(('id', idnode, None))

    # -- queries --------------------------------------------------------
    def sym_of(self, node):
        return self.ref.get(id(node))


def macro_body_ids(kept, name, seen=None):
    """Identifiers a kept macro's expansion may contain (not its parameters,
    not field names after . or ->), through the kept macros it uses."""
    seen = seen if seen is not None else set()
    if name in seen or name not in kept:
        return []
    seen.add(name)
    m = kept[name]
    out = []
    prev = None
    for k, t in m.tokens:
        if k == 'id' and t not in (m.params or []) and prev not in ('.', '->'):
            if t in kept:
                out += macro_body_ids(kept, t, seen)
            else:
                out.append(t)
        prev = t
    return out


# ---------------------------------------------------------------------------
# Types, as far as the transformations need them
# ---------------------------------------------------------------------------

def conv_type(t, res, depth=0):
    """A comparable description of type node t: ('b', class, key) for
    arithmetic types (class i32, i64 or f64), ('p', T) pointers and arrays,
    ('s', key) structs and unions, ('f', T) functions, ('v',) void, or None
    when unknown."""
    if t is None or depth > 20:
        return None
    if isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
        return conv_type(t.type, res, depth + 1)
    if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        return ('p', conv_type(t.type, res, depth + 1))
    if isinstance(t, c_ast.FuncDecl):
        return ('f', conv_type(t.type, res, depth + 1))
    if isinstance(t, c_ast.IdentifierType):
        names = t.names
        if not all(n in BUILTIN_TYPE_WORDS for n in names):
            s = res.ref.get(id(t))
            if s is not None and s.kind == 'typedef':
                return conv_type(s.type, res, depth + 1)
            return None
        if 'void' in names:
            return ('v',)
        if 'double' in names or 'float' in names:
            return ('b', 'f64', 'double')
        uns = 'unsigned' in names
        if names.count('long') >= 1:
            return ('b', 'i64', 'unsigned long' if uns else 'long')
        if '_Bool' in names:
            return ('b', 'i32', '_Bool')
        return ('b', 'i32', 'unsigned int' if uns else 'int')
    if isinstance(t, (c_ast.Struct, c_ast.Union)):
        s = res.ref.get(id(t))
        return ('s', id(s) if s is not None else id(t))
    if isinstance(t, c_ast.Enum):
        return ('b', 'i32', 'int')
    return None


INT_T = ('b', 'i32', 'int')


def expr_type(e, res, depth=0):
    if e is None or depth > 30:
        return None
    d = depth + 1
    if isinstance(e, c_ast.Constant):
        if e.type == 'string':
            return ('p', ('b', 'i32', 'int'))
        if e.type in ('double', 'float', 'long double'):
            return ('b', 'f64', 'double')
        if e.type == 'char':
            return INT_T
        v = e.value.lower()
        if 'l' in v:
            return ('b', 'i64', 'unsigned long' if 'u' in v else 'long')
        if 'u' in v:
            return ('b', 'i32', 'unsigned int')
        n = const_int(e)
        if n is None or n > 0x7fffffff:
            return None
        return INT_T
    if isinstance(e, c_ast.ID):
        s = res.sym_of(e)
        if s is None:
            return None
        if s.kind == 'enumconst':
            return INT_T
        if s.kind in ('var', 'param', 'func'):
            t = conv_type(s.type, res)
            if s.kind == 'param' and t is not None and t[0] == 'p':
                return t
            return t
        return None
    if isinstance(e, c_ast.BinaryOp):
        if e.op in ('==', '!=', '<', '>', '<=', '>=', '&&', '||'):
            return INT_T
        l = expr_type(e.left, res, d)
        r = expr_type(e.right, res, d)
        if l is None or r is None:
            return None
        if e.op in ('<<', '>>'):
            return l if l[0] == 'b' and l[1] != 'f64' else None
        if l[0] == 'b' and r[0] == 'b':
            order = {'i32': 0, 'i64': 1, 'f64': 2}
            if order[l[1]] != order[r[1]]:
                return l if order[l[1]] > order[r[1]] else r
            if l[1] == 'f64':
                return l
            if 'unsigned' in l[2] or 'unsigned' in r[2]:
                return ('b', l[1], 'unsigned ' + ('long' if l[1] == 'i64' else 'int'))
            return ('b', l[1], 'long' if l[1] == 'i64' else 'int')
        if l[0] == 'p' and r[0] == 'b' and e.op in ('+', '-'):
            return l
        if r[0] == 'p' and l[0] == 'b' and e.op == '+':
            return r
        if l[0] == 'p' and r[0] == 'p' and e.op == '-':
            return ('b', 'i64', 'long')
        return None
    if isinstance(e, c_ast.UnaryOp):
        if e.op == '!':
            return INT_T
        if e.op == 'sizeof':
            return ('b', 'i64', 'unsigned long')
        t = expr_type(e.expr, res, d)
        if t is None:
            return None
        if e.op == '*':
            return t[1] if t[0] == 'p' else None
        if e.op == '&':
            return ('p', t)
        if e.op in ('-', '+', '~'):
            if t[0] == 'b' and t[2] == '_Bool':
                return INT_T
            return t if t[0] == 'b' else None
        return t
    if isinstance(e, c_ast.Cast):
        return conv_type(e.to_type, res)
    if isinstance(e, c_ast.FuncCall):
        t = expr_type(e.name, res, d)
        if t is not None and t[0] == 'f':
            return t[1]
        return None
    if isinstance(e, c_ast.StructRef):
        fi = res.fields.get(e.field.name)
        if fi is None or not fi.types:
            return None
        ts = [conv_type(t, res) for t in fi.types]
        return ts[0] if all(t == ts[0] for t in ts) else None
    if isinstance(e, c_ast.ArrayRef):
        t = expr_type(e.name, res, d)
        return t[1] if t is not None and t[0] == 'p' else None
    if isinstance(e, c_ast.TernaryOp):
        l = expr_type(e.iftrue, res, d)
        r = expr_type(e.iffalse, res, d)
        return l if l == r else None
    if isinstance(e, c_ast.Assignment):
        return expr_type(e.lvalue, res, d)
    return None


def tclass(t):
    if t is None:
        return None
    if t[0] == 'b':
        return t[1]
    return {'p': 'ptr', 's': 'struct', 'v': 'void', 'f': 'func'}.get(t[0])


def ternary_safe(ta, tb, target):
    """Whether `x = c ? a : b` and `if (c) x = a; else x = b;` give x the same
    value, for the types of a, b and x."""
    if ta is None or tb is None or target is None:
        return False
    if ta == tb and (ta[0] != 'p' or target == ta):
        return ta[0] != 'b' or target[0] == 'b'
    if ta[0] == 'b' and tb[0] == 'b' and target[0] == 'b':
        if ta[1] == 'f64' and tb[1] == 'f64':
            return True
        if ta[1] == 'i32' and tb[1] == 'i32' and target[1] == 'i32':
            return True
    return False


def const_int(e):
    """The value of an integer or character constant node, else None."""
    if not isinstance(e, c_ast.Constant):
        return None
    v = e.value
    if e.type == 'char':
        body = v[1:-1]
        simple = {'\\n': 10, '\\t': 9, '\\0': 0, "\\'": 39, '\\\\': 92, '\\r': 13, '\\"': 34}
        if len(body) == 1:
            return ord(body)
        return simple.get(body)
    if e.type not in ('int', 'unsigned int', 'long int', 'unsigned long int', 'long long int',
                      'unsigned long long int'):
        return None
    s = v.lower().rstrip('ul')
    try:
        if s.startswith('0x'):
            return int(s, 16)
        if s.startswith('0b'):
            return int(s, 2)
        if len(s) > 1 and s.startswith('0'):
            return int(s, 8)
        return int(s)
    except ValueError:
        return None


class ConstEval:
    """Integer constant expressions over literals and enumeration constants."""

    def __init__(self, res):
        self.res = res
        self.enum_vals = {}

    def enum_value(self, s, depth):
        if id(s) in self.enum_vals:
            return self.enum_vals[id(s)]
        en = getattr(s, 'enum', None)
        if en is None or en.values is None:
            return None
        v = -1
        for e in en.values.enumerators:
            if e.value is not None:
                v = self.value(e.value, depth + 1)
                if v is None:
                    return None
            else:
                v += 1
            if e is s.node:
                self.enum_vals[id(s)] = v
                return v
        return None

    def value(self, e, depth=0):
        if depth > 30 or e is None:
            return None
        if isinstance(e, c_ast.Constant):
            return const_int(e)
        if isinstance(e, c_ast.ID):
            s = self.res.sym_of(e)
            if s is not None and s.kind == 'enumconst':
                return self.enum_value(s, depth)
            return None
        if isinstance(e, c_ast.UnaryOp) and e.op in ('-', '+', '~', '!'):
            v = self.value(e.expr, depth + 1)
            if v is None:
                return None
            return {'-': -v, '+': v, '~': ~v, '!': int(not v)}[e.op]
        if isinstance(e, c_ast.Cast):
            return self.value(e.expr, depth + 1)
        if isinstance(e, c_ast.BinaryOp):
            l = self.value(e.left, depth + 1)
            r = self.value(e.right, depth + 1)
            if l is None or r is None:
                return None
            try:
                return {'+': lambda: l + r, '-': lambda: l - r, '*': lambda: l * r,
                        '<<': lambda: l << r, '>>': lambda: l >> r, '|': lambda: l | r,
                        '&': lambda: l & r, '^': lambda: l ^ r,
                        '/': lambda: int(l / r), '%': lambda: l - int(l / r) * r}[e.op]()
            except (KeyError, ZeroDivisionError, ValueError):
                return None
        return None


# ---------------------------------------------------------------------------
# New names
# ---------------------------------------------------------------------------

THESAURUS = {
    'cell': ['square', 'tile', 'spot', 'slot', 'box'],
    'cells': ['squares', 'tiles', 'spots', 'boxes'],
    'pos': ['loc', 'place', 'coord', 'point', 'where'],
    'position': ['location', 'place', 'coord'],
    'unit': ['piece', 'agent', 'member', 'token'],
    'units': ['pieces', 'agents', 'members', 'tokens'],
    'farmer': ['peasant', 'worker', 'grower', 'settler'],
    'farmers': ['peasants', 'workers', 'growers', 'settlers'],
    'knight': ['soldier', 'fighter', 'warrior', 'guard'],
    'knights': ['soldiers', 'fighters', 'warriors', 'guards'],
    'witch': ['mage', 'sorcerer', 'wizard', 'caster'],
    'witches': ['mages', 'sorcerers', 'wizards', 'casters'],
    'move': ['step', 'walk', 'go', 'shift', 'advance'],
    'best': ['top', 'optimal', 'chosen', 'max', 'winner'],
    'dist': ['distance', 'range', 'len', 'depth', 'hops'],
    'distance': ['dist', 'range', 'length', 'hops'],
    'distances': ['dists', 'ranges', 'lengths'],
    'queue': ['fifo', 'frontier', 'pending', 'todo', 'work'],
    'flag': ['mark', 'bits', 'state', 'attr'],
    'flags': ['marks', 'bits', 'states', 'attrs'],
    'owner': ['holder', 'color', 'colour', 'master'],
    'enemy': ['foe', 'rival', 'opponent', 'hostile', 'other'],
    'enemies': ['foes', 'rivals', 'opponents', 'hostiles'],
    'find': ['search', 'locate', 'seek', 'look', 'get'],
    'get': ['fetch', 'read', 'obtain', 'query'],
    'plan': ['decide', 'schedule', 'handle', 'process', 'order'],
    'mark': ['tag', 'flag', 'label', 'note'],
    'target': ['goal', 'objective', 'aim', 'dest'],
    'targets': ['goals', 'objectives', 'aims', 'dests'],
    'count': ['num', 'total', 'amount', 'cnt', 'tally'],
    'free': ['empty', 'open', 'clear', 'vacant', 'available'],
    'safe': ['secure', 'harmless', 'calm'],
    'field': ['map', 'grid', 'layer', 'table'],
    'value': ['worth', 'score', 'val', 'gain', 'merit'],
    'score': ['rating', 'points', 'value', 'eval', 'cost'],
    'side': ['size', 'width', 'dim', 'span'],
    'step': ['delta', 'offset', 'stride', 'move'],
    'dir': ['direction', 'heading', 'way', 'course'],
    'first': ['initial', 'start', 'origin', 'leading'],
    'near': ['close', 'nearby', 'adjacent', 'around'],
    'around': ['about', 'near', 'round'],
    'build': ['make', 'create', 'compute', 'prepare', 'fill'],
    'take': ['grab', 'capture', 'record', 'store'],
    'snapshot': ['state', 'picture', 'view', 'scan'],
    'collect': ['gather', 'scan', 'list', 'harvest'],
    'spot': ['place', 'site', 'point'],
    'spots': ['places', 'sites', 'points'],
    'prey': ['victim', 'quarry', 'mark'],
    'crowd': ['group', 'cluster', 'mass', 'pack'],
    'sum': ['total', 'acc', 'accum', 'prefix'],
    'sums': ['totals', 'accums', 'prefixes'],
    'hunt': ['chase', 'pursue', 'track', 'stalk'],
    'block': ['blocked', 'barrier', 'stop', 'ban'],
    'blocked': ['stopped', 'closed', 'banned'],
    'weakest': ['frailest', 'lowest', 'softest'],
    'neighbour': ['adj', 'next', 'near', 'nbr'],
    'neighbor': ['adj', 'next', 'near', 'nbr'],
    'rank': ['order', 'prio', 'priority', 'level'],
    'random': ['rand', 'rnd', 'chance'],
    'here': ['cur', 'current', 'now', 'self'],
    'search': ['scan', 'explore', 'probe', 'bfs'],
    'seen': ['visited', 'done', 'known', 'reached'],
    'head': ['front', 'rd', 'read'],
    'tail': ['back', 'wr', 'end'],
    'src': ['sources', 'origins', 'roots'],
    'attack': ['strike', 'hit', 'assault', 'fight'],
    'health': ['hp', 'life', 'vitality', 'strength'],
    'danger': ['risk', 'threat', 'peril'],
    'deadly': ['lethal', 'fatal', 'cursed'],
    'wall': ['rock', 'obstacle', 'solid'],
    'taken': ['used', 'busy', 'reserved', 'booked'],
    'claimed': ['reserved', 'chosen', 'owned', 'booked'],
    'max': ['top', 'limit', 'cap', 'most'],
    'min': ['least', 'low', 'floor'],
    'reach': ['radius', 'range', 'span'],
    'sight': ['vision', 'view', 'horizon'],
    'share': ['ratio', 'fraction', 'part'],
    'cheap': ['fast', 'light', 'lazy', 'quick'],
    'mode': ['state', 'flag', 'setting'],
    'slack': ['margin', 'extra', 'leeway'],
    'far': ['distant', 'remote', 'huge', 'inf'],
    'spacing': ['gap', 'separation', 'distance'],
    'occupant': ['resident', 'holder', 'who', 'tenant'],
    'myself': ['self', 'me', 'own', 'my'],
    'own': ['mine', 'our', 'friendly'],
    'fighter': ['warrior', 'combatant', 'attacker'],
    'is': ['check', 'test', 'has'],
    'on': ['at', 'in'],
    'border': ['edge', 'rim', 'boundary', 'frame'],
    'of': ['for', 'to'],
    'option': ['choice', 'candidate', 'alt'],
    'serial': ['stamp', 'epoch', 'generation', 'version'],
    'spread': ['flood', 'propagate', 'expand', 'diffuse'],
    'order': ['perm', 'sequence', 'sorted', 'ranking'],
    'round': ['turn', 'tick', 'cycle'],
    'friends': ['allies', 'mates', 'ours'],
    'self': ['me', 'origin', 'start'],
    'limit': ['bound', 'cap', 'maximum'],
    'start': ['begin', 'origin', 'from'],
    'threatened': ['danger', 'risky', 'exposed'],
    'manhattan': ['taxicab', 'l1', 'grid_dist'],
    'wander': ['roam', 'stroll', 'drift'],
    'random_dir': ['any_dir', 'some_dir'],
    'check': ['test', 'verify', 'validate'],
    'update': ['refresh', 'advance', 'apply'],
    'list': ['array', 'set', 'items'],
    'index': ['idx', 'slot', 'pos'],
    'idx': ['index', 'at', 'slot'],
    'total': ['sum', 'overall', 'all'],
    'tmp': ['temp', 'aux', 'scratch'],
    'temp': ['tmp', 'aux', 'scratch'],
    'result': ['res', 'ret', 'answer', 'outcome'],
    'res': ['result', 'ret', 'out'],
    'ret': ['result', 'res', 'out'],
    'num': ['count', 'cnt', 'total', 'n'],
    'cnt': ['count', 'num', 'total'],
    'len': ['length', 'size', 'count'],
    'size': ['len', 'length', 'extent'],
    'next': ['following', 'succ', 'after'],
    'prev': ['previous', 'before', 'last'],
    'last': ['final', 'prev', 'end'],
    'cur': ['current', 'now', 'here'],
    'current': ['cur', 'present', 'active'],
    'new': ['fresh', 'next', 'updated'],
    'old': ['prev', 'former', 'stale'],
    'player': ['team', 'side', 'owner', 'who'],
    'players': ['teams', 'sides', 'owners'],
    'grid': ['board', 'map', 'field'],
    'board': ['grid', 'map', 'field'],
    'map': ['grid', 'board', 'table'],
    'path': ['route', 'trail', 'way'],
    'goal': ['target', 'aim', 'dest'],
    'visited': ['seen', 'done', 'marked'],
    'candidate': ['option', 'choice', 'pick'],
    'choose': ['pick', 'select', 'decide'],
    'pick': ['choose', 'select', 'take'],
    'random_int': ['rnd', 'roll'],
    'compute': ['calc', 'evaluate', 'work_out', 'derive'],
    'calc': ['compute', 'eval', 'figure'],
    'eval': ['score', 'rate', 'assess'],
    'evaluate': ['score', 'rate', 'assess'],
    'init': ['setup', 'prepare', 'reset', 'start'],
    'reset': ['clear', 'init', 'wipe'],
    'clear': ['reset', 'wipe', 'zero'],
    'data': ['info', 'state', 'rec'],
    'info': ['data', 'details', 'rec'],
    'state': ['status', 'info', 'data'],
    'bonus': ['reward', 'extra', 'plus'],
    'penalty': ['cost', 'malus', 'minus'],
    'weight': ['factor', 'coef', 'w'],
    'strength': ['power', 'force'],
    'attackers': ['strikers', 'hitters'],
    'defend': ['guard', 'protect', 'cover'],
    'escape': ['flee', 'run', 'evade', 'retreat'],
    'flee': ['escape', 'run', 'retreat'],
    'land': ['territory', 'area', 'ground'],
    'area': ['zone', 'region', 'land'],
    'zone': ['area', 'region', 'sector'],
    'closest': ['nearest', 'best', 'min'],
    'nearest': ['closest', 'best', 'min'],
    'dx': ['di', 'dr', 'delta_r'],
    'dy': ['dj', 'dc', 'delta_c'],
    'row': ['r', 'line', 'y'],
    'col': ['c', 'column', 'x'],
    'rows': ['height', 'nrows', 'lines'],
    'cols': ['width', 'ncols', 'columns'],
    'danger_map': ['threat_map', 'risk_grid'],
    'bfs': ['flood', 'search', 'explore'],
    'frontier': ['queue', 'wave', 'edge'],
    'best_dir': ['chosen_dir', 'top_dir'],
}

GENERIC_NOUNS = ['value', 'entry', 'item', 'thing', 'node', 'slot', 'aux', 'mark', 'token',
                 'record', 'marker', 'cursor', 'probe', 'sample', 'bucket', 'holder', 'level',
                 'weight', 'factor', 'metric', 'stat', 'hint', 'guess', 'stamp']
GENERIC_VERBS = ['handle', 'process', 'do', 'run', 'apply', 'compute', 'prepare', 'refresh',
                 'scan', 'solve', 'update', 'manage', 'perform', 'evaluate', 'resolve']
PREFIXES = ['my', 'the', 'cur', 'tmp', 'new', 'g', 'a', 'local', 'main', 'aux']
SUFFIXES = ['val', 'cnt', 'list', 'buf', 'tab', 'info', 'data', 'v', 'x', 'now', 'id', 'arr']
SHORT_NAMES = ['i', 'j', 'k', 't', 'u', 'v', 'a', 'b', 'r', 's', 'm', 'h', 'g', 'z', 'y', 'x',
               'w', 'q', 'o', 'l', 'ii', 'jj', 'kk', 'it', 'ix', 'iy', 'n1', 'n2', 'tt', 'uu',
               'vv', 'aa', 'bb', 'cc', 'dd', 'ee', 'pp', 'qq', 'rr', 'ss', 'zz', 'c1', 'c2',
               'p1', 'p2', 'k1', 'k2', 'e1', 'e2', 'xi', 'yi', 'cx', 'cy', 'nx', 'ny']


def split_words(name):
    name = re.sub(r'_?zq\d+$', '', name)
    return [w.lower() for w in re.findall(r'[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+', name)]


# libc and gcc builtin names a new name must not take even when no header
# declares them
LIBC_NAMES = set('''abs labs llabs div ldiv exp exp2 log log2 log10 pow round lround floor ceil
trunc fabs fmod sqrt cbrt sin cos tan asin acos atan atan2 sinh cosh tanh hypot fmin fmax
erf erfc gamma lgamma tgamma j0 j1 jn y0 y1 yn index rindex time clock rand random srand
srandom exit abort free malloc calloc realloc printf fprintf sprintf snprintf puts putchar
getchar scanf strlen strcpy strncpy strcat strcmp strncmp strchr strrchr strstr memset
memcpy memmove memcmp memchr bcmp bcopy bzero ffs isdigit isalpha isspace toupper tolower
select signal kill read write open close remove rename link unlink sleep alarm pause fork
wait system getenv atoi atol strtol qsort bsearch main stdin stdout stderr errno assert
min max bool true false NULL EOF'''.split())


class NameGen:
    def __init__(self, rng, reserved):
        self.rng = rng
        self.used = set(reserved) | C_KEYWORDS | LIBC_NAMES
        self.camel = rng.random() < 0.45     # camelCase functions and variables
        self.gprefix = rng.choice(['', '', '', 'g_', 's_'])
        self.counter = 0

    def _join(self, words, kind):
        words = [w for w in words if w]
        if not words:
            words = [self.rng.choice(GENERIC_NOUNS)]
        if kind in ('typedef', 'tag'):
            return ''.join(w[:1].upper() + w[1:] for w in words)
        if kind in ('enumconst', 'macro'):
            return '_'.join(w.upper() for w in words)
        if self.camel and kind not in ('label',):
            return words[0] + ''.join(w[:1].upper() + w[1:] for w in words[1:])
        return '_'.join(words)

    def _words(self, old, kind):
        words = split_words(old)
        out = []
        changed = False
        for w in words:
            alts = THESAURUS.get(w)
            if alts and self.rng.random() < 0.85:
                out.extend(self.rng.choice(alts).split('_'))
                changed = True
            elif len(words) > 1 and self.rng.random() < 0.15:
                changed = True
            else:
                out.append(w)
        if kind not in ('var', 'param', 'label') and len(''.join(out)) < 3:
            out.append(self.rng.choice(GENERIC_NOUNS))
        if not changed or self.rng.random() < 0.2 or not out:
            r = self.rng.random()
            if kind == 'func' and r < 0.4:
                out.insert(0, self.rng.choice(GENERIC_VERBS))
            elif r < 0.55:
                out.insert(0, self.rng.choice(PREFIXES))
            else:
                out.append(self.rng.choice(SUFFIXES))
        return out

    def fresh(self, old, kind, local_used=None):
        """A plausible new name for `old` (a `kind` of identifier), unused."""
        taken = self.used if local_used is None else (self.used | local_used)
        short = len(old) <= 2 and kind in ('var', 'param') and local_used is not None
        for attempt in range(200):
            if short and attempt < 40:
                cand = self.rng.choice(SHORT_NAMES)
            else:
                words = self._words(old, kind)
                cand = self._join(words, kind)
                if kind == 'var' and local_used is None and self.gprefix and attempt < 100:
                    cand = self.gprefix + cand
                if attempt > 20:
                    cand = self._join(words + [self.rng.choice(GENERIC_NOUNS)], kind)
                if attempt > 60:
                    self.counter += 1
                    cand = '%s%d' % (cand, self.counter)
            if cand and cand != old and cand not in taken and not cand.startswith('_') \
                    and re.match(r'^[A-Za-z_]\w*$', cand):
                if local_used is None:
                    self.used.add(cand)
                else:
                    local_used.add(cand)
                return cand
        raise Fail('ran out of new names')

    def temp(self, hint):
        """A placeholder name for code the transformations add; the
        renaming gives it its final look."""
        self.counter += 1
        while True:
            cand = '%s_zq%d' % (hint, self.counter)
            if cand not in self.used:
                self.used.add(cand)
                return cand
            self.counter += 1


# ---------------------------------------------------------------------------
# Level 2: renaming
# ---------------------------------------------------------------------------

NEVER_RENAME = {'play', 'player_name', 'main'}


def apply_name(occ, new):
    for how, node, idx in occ:
        if how == 'decl':
            set_decl_name(node, new)
        elif how == 'idtype':
            node.names[idx] = new
        else:
            node.name = new


def rename_all(P, res, ng, rng):
    """Gives every identifier the file defines a new name; returns the map of
    old to new names at file scope (for rewriting comments)."""
    kept = P.kept
    pinned = set()
    pinned_fields = set()
    for m in kept.values():
        prev = None
        for k, t in m.tokens:
            if k == 'id' and t not in (m.params or []) and t not in kept:
                (pinned_fields if prev in ('.', '->') else pinned).add(t)
            prev = t
    src_syms = [s for s in res.syms if s.origin == 'src']
    hdr_names = set(res.hdr_syms_ord) | set(P.hdr_macros)
    for s in res.syms:
        if s.origin == 'hdr':
            hdr_names.add(s.name)
    fixed = set(NEVER_RENAME)
    for name in pinned:
        if name in hdr_names or (name in res.fields and res.fields[name].hdr):
            fixed.add(name)

    pinned_new = {}
    file_map = {}
    kinds_order = {'func': 0, 'typedef': 1, 'tag': 2, 'enumconst': 3, 'var': 4, 'param': 5}
    file_syms = [s for s in src_syms if s.func is None and s.ns != 'label']
    file_syms.sort(key=lambda s: kinds_order.get(s.kind, 9))
    for s in file_syms:
        if s.name in fixed:
            continue
        if s.name in pinned:
            new = pinned_new.get(s.name) or ng.fresh(s.name, s.kind)
            pinned_new[s.name] = new
        else:
            new = ng.fresh(s.name, s.kind)
        apply_name(s.occ, new)
        file_map.setdefault(s.name, new)
    # fields, by name
    field_map = {}
    for name, fi in res.fields.items():
        if fi.src and not fi.hdr and name not in fixed:
            new = ng.fresh(name, 'field')
            field_map[name] = new
            apply_name(fi.occ, new)
            file_map.setdefault(name, new)
    # macros and their parameters
    macro_map = {}
    for name, m in kept.items():
        m.newname = ng.fresh(name, 'macro')
        macro_map[name] = m.newname
        file_map.setdefault(name, m.newname)
    for n in res.macro_uses:
        if n.name in macro_map:
            n.name = macro_map[n.name]
    for m in kept.values():
        if m.params:
            body_ids = {t for k, t in m.tokens if k == 'id'}
            local = set(body_ids)
            m.param_new = [ng.fresh(p, 'param', local) if len(p) > 2 or rng.random() < 0.7
                           else p for p in m.params]
        m.ren = {}
        for name in pinned:
            if name in pinned_new:
                m.ren[name] = pinned_new[name]
        m.ren_fields = field_map
        m.ren_macros = macro_map
    # locals, function by function
    for fid, syms in res.funcs.items():
        local = set()
        for s in syms:
            if s.name in fixed:
                continue
            if s.name in pinned and s.ns == 'ord':
                new = pinned_new.get(s.name) or ng.fresh(s.name, s.kind)
                pinned_new[s.name] = new
            else:
                new = ng.fresh(s.name, s.kind if s.kind in ('var', 'param', 'label') else s.kind,
                               local)
            apply_name(s.occ, new)
    for m in kept.values():
        for name in pinned:
            if name in pinned_new:
                m.ren[name] = pinned_new[name]
    return file_map


def macro_define_line(m):
    """#define line for a kept macro, with its names as renamed."""
    pmap = dict(zip(m.params or [], m.param_new or []))
    ren = getattr(m, 'ren', {})
    ren_f = getattr(m, 'ren_fields', {})
    ren_m = getattr(m, 'ren_macros', {})
    out = []
    prev = None
    for k, t in m.tokens:
        if k == 'id':
            if t in pmap:
                t = pmap[t]
            elif prev in ('.', '->'):
                t = ren_f.get(t, t)
            elif t in ren_m:
                t = ren_m[t]
            else:
                t = ren.get(t, t)
        out.append((k, t))
        prev = t
    body = ''
    toks = iter(out)
    for mt in TOKEN_RE.finditer(m.body):
        if mt.lastgroup == 'space':
            body += ' '
            continue
        body += next(toks)[1]
    head = m.newname
    if m.params is not None:
        head += '(' + ', '.join(m.param_new) + ')'
    return '#define %s %s' % (head, body)


# ---------------------------------------------------------------------------
# Level 1: the emitter (layout, comments)
# ---------------------------------------------------------------------------

class Style:
    def __init__(self, rng, level):
        self.ind = rng.choice(['\t', '    ', '  ', '   ', '\t', '    ', '        '])
        self.fn_brace_nl = rng.random() < 0.5
        self.blk_brace_nl = rng.random() < 0.3
        self.cuddle_else = not self.blk_brace_nl and rng.random() < 0.75
        self.braces = rng.choice(['always', 'keep', 'minimal'])
        self.kw_space = rng.random() < 0.8
        self.fn_gap = rng.choice([1, 1, 2])
        self.blank_p = rng.choice([0.0, 0.04, 0.1])
        self.blank_after_decls = rng.random() < 0.5
        self.reduce_parens = rng.random() < 0.6
        self.case_indent = rng.random() < 0.6
        self.width = rng.choice([72, 80, 90, 100, 120])
        self.wrap_params = rng.random() < 0.15
        self.return_parens = rng.random() < 0.12
        self.merge_decls = rng.random() < 0.4
        self.line_comments = rng.random() < 0.5
        self.keep_comment = rng.choice([0.0, 0.3, 0.6])
        self.new_fn_comment = rng.choice([0.2, 0.5, 0.8])
        self.new_stmt_comment = rng.choice([0.02, 0.05, 0.1])
        self.comment_case = rng.choice(['keep', 'lower', 'upper'])
        self.heavy_parens = level >= 2 and rng.random() < 0.2
        self.sizeof_parens = rng.random() < 0.8
        self.cast_space = rng.choice(['', '', ' '])


STMT_PHRASES = {
    'For': ['loop over all of them', 'go through the list', 'scan every candidate',
            'main loop', 'walk the entries', 'visit each one', 'iterate'],
    'While': ['keep going until done', 'process the queue', 'repeat while needed', 'loop'],
    'DoWhile': ['at least once', 'repeat'],
    'If': ['check this case', 'special case', 'edge case', 'only when needed', 'guard',
           'handle this situation', 'sanity check', 'early exit if possible'],
    'Return': ['done', 'result', 'give back the answer', 'finished'],
    'Decl': ['local state', 'working variables', 'setup', 'temporaries', 'init'],
    'Assignment': ['update state', 'store the result', 'remember this', 'bookkeeping',
                   'keep track'],
    'FuncCall': ['do the work', 'delegate', 'call the helper', 'issue the order'],
    'Switch': ['dispatch on the value', 'pick the branch'],
}
FN_PHRASES = ['Helper: %s.', '%s.', 'Computes %s.', 'Handles %s for this round.',
              '%s (see above).', 'Utility for %s.', 'Does %s.', '%s logic.', 'TODO: %s, tune this?',
              '%s', 'This function handles %s.']


BIN_PREC = {'*': 13, '/': 13, '%': 13, '+': 12, '-': 12, '<<': 11, '>>': 11,
            '<': 10, '<=': 10, '>': 10, '>=': 10, '==': 9, '!=': 9, '&': 8, '^': 7, '|': 6,
            '&&': 5, '||': 4}


class Emitter(c_generator.CGenerator):
    def __init__(self, style, rng, comments, comment_fn, player, kept_lines, prologue):
        super().__init__(reduce_parentheses=style.reduce_parens)
        self.st = style
        self.rng = rng
        self.comments = comments        # id(node) -> (node, [comment])
        self.comment_fn = comment_fn    # comment -> [text lines] or None
        self.player = player
        self.kept_lines = kept_lines
        self.prologue = prologue
        self.done_comments = set()

    # -- indentation inside declarations (struct and enum bodies) -------
    def _make_indent(self):
        return self.st.ind * self.indent_level

    def _generate_struct_union_enum(self, n, name):
        if name in ('struct', 'union'):
            members = n.decls
        else:
            members = None if n.values is None else n.values.enumerators
        s = name + (' ' + n.name if n.name else '')
        if members is None:
            return s
        if self.st.blk_brace_nl:
            s += '\n' + self._make_indent() + '{\n'
        else:
            s += ' {\n'
        self.indent_level += 1
        if name == 'enum':
            vals = []
            for e in members:
                v = e.name if e.value is None else e.name + ' = ' + self.visit(e.value)
                vals.append(self._make_indent() + v)
            s += ',\n'.join(vals) + ('' if self.rng.random() < 0.5 else ',') + '\n'
        else:
            for g in group_items(members):
                s += self._make_indent() + self.decl_group_str(g) + ';\n'
        self.indent_level -= 1
        s += self._make_indent() + '}'
        return s

    # -- expressions with the parentheses a person would write ----------
    def prec(self, n):
        if isinstance(n, c_ast.BinaryOp):
            return BIN_PREC.get(n.op, 4)
        if isinstance(n, c_ast.UnaryOp):
            return 16 if n.op in ('p++', 'p--') else 15
        if isinstance(n, c_ast.Cast):
            return 15
        if isinstance(n, c_ast.TernaryOp):
            return 3
        if isinstance(n, c_ast.Assignment):
            return 2
        if isinstance(n, c_ast.ExprList):
            return 1
        return 17

    def sub(self, n, need, extra=False):
        s = self._visit_expr(n)
        if self.prec(n) < need or extra:
            return '(' + s + ')'
        return s

    def visit_BinaryOp(self, n):
        p = BIN_PREC.get(n.op, 4)
        heavy = self.st.heavy_parens
        def customary(c):
            if not isinstance(c, c_ast.BinaryOp) or c.op == n.op and n.op in ('&&', '||', '+', '*'):
                return False
            if heavy and self.prec(c) != p:
                return True
            cp = BIN_PREC.get(c.op, 4)
            if n.op == '||' and c.op == '&&':
                return True
            if c.op in ('&', '|', '^') and n.op not in ('=',):
                return True
            if n.op in ('&', '|', '^', '<<', '>>') and cp > p:
                return True
            return False
        l = self.sub(n.left, p, customary(n.left))
        r = self.sub(n.right, p + 1, customary(n.right))
        return '%s %s %s' % (l, n.op, r)

    def visit_UnaryOp(self, n):
        if n.op == 'sizeof':
            if isinstance(n.expr, c_ast.Typename):
                return 'sizeof(%s)' % self.visit(n.expr)
            return 'sizeof(%s)' % self.visit(n.expr) if self.prec(n.expr) < 17 or \
                self.st.sizeof_parens else 'sizeof ' + self.visit(n.expr)
        if n.op in ('p++', 'p--'):
            return self.sub(n.expr, 16) + n.op[1:]
        e = self.sub(n.expr, 15)
        if e[:1] in ('-', '+', '&') and e[:1] == n.op[-1:] or e[:1] in ('-', '+') and n.op in ('-', '+', '--', '++'):
            e = '(' + e + ')'
        return n.op + e

    def visit_Cast(self, n):
        return '(' + self._generate_type(n.to_type, emit_declname=False) + ')' + \
            self.st.cast_space + self.sub(n.expr, 15)

    def visit_TernaryOp(self, n):
        return '%s ? %s : %s' % (self.sub(n.cond, 4), self.sub(n.iftrue, 2), self.sub(n.iffalse, 3))

    def visit_Assignment(self, n):
        return '%s %s %s' % (self.sub(n.lvalue, 15), n.op, self.sub(n.rvalue, 2))

    def visit_ArrayRef(self, n):
        return self.sub(n.name, 16) + '[' + self.visit(n.subscript) + ']'

    def visit_StructRef(self, n):
        return self.sub(n.name, 16) + n.type + self.visit(n.field)

    def visit_FuncCall(self, n):
        return self.sub(n.name, 16) + '(' + self.visit(n.args) + ')'

    def visit_ExprList(self, n):
        return ', '.join(self.sub(e, 2) for e in n.exprs)

    def visit_Return(self, n):
        if n.expr is None:
            return 'return;'
        e = self.visit(n.expr)
        if self.st.return_parens and not e.startswith('('):
            return 'return (%s);' % e
        return 'return ' + e + ';'

    # -- declarations ----------------------------------------------------
    def _generate_decl(self, n):
        s = ''
        if n.storage:
            s += ' '.join(n.storage) + ' '
        if n.funcspec:
            s += ' '.join(n.funcspec) + ' '
        if n.align:
            s += self.visit(n.align[0]) + ' '
        return s + self._generate_type(n.type)

    def declarator_str(self, d):
        """d without its base type: '*p = 0', 'a[3]'."""
        chain = []
        t = d.type
        while not isinstance(t, c_ast.TypeDecl):
            chain.append(t)
            t = t.type
        inner = c_ast.TypeDecl(t.declname, [], None, c_ast.IdentifierType([]))
        for c in reversed(chain):
            c2 = copy.copy(c)
            c2.type = inner
            inner = c2
        s = self._generate_type(inner).strip()
        if d.bitsize is not None:
            s += ' : ' + self.visit(d.bitsize)
        if d.init is not None:
            s += ' = ' + self._visit_expr(d.init)
        return s

    def decl_group_str(self, g):
        s = self.visit(g[0])
        for d in g[1:]:
            s += ', ' + self.declarator_str(d)
        return s

    def mergeable(self, a, b):
        if not (isinstance(a, c_ast.Decl) and isinstance(b, c_ast.Decl)):
            return False
        if a.storage != b.storage or a.funcspec != b.funcspec or a.align or b.align:
            return False
        ta, tb = innermost_typedecl(a.type), innermost_typedecl(b.type)
        if ta is None or tb is None or isinstance(a.type, c_ast.FuncDecl) \
                or isinstance(b.type, c_ast.FuncDecl):
            return False
        return (isinstance(ta.type, c_ast.IdentifierType) and isinstance(tb.type, c_ast.IdentifierType)
                and ta.type.names == tb.type.names and ta.quals == tb.quals)

    # -- comments --------------------------------------------------------
    def comment_lines(self, node, d):
        out = []
        ent = self.comments.get(id(node))
        if ent is not None and ent[0] is node:
            for c in ent[1]:
                if id(c) in self.done_comments:
                    continue
                self.done_comments.add(id(c))
                text = self.comment_fn(c)
                if text:
                    out += self.format_comment(text, d)
        return out

    def format_comment(self, lines, d):
        I = self.st.ind * d
        if self.st.line_comments or len(lines) == 1 and self.rng.random() < 0.5:
            return [I + '// ' + l if l else I + '//' for l in lines]
        if len(lines) == 1:
            return [I + '/* ' + lines[0] + ' */']
        return [I + '/*'] + [I + ' * ' + l if l else I + ' *' for l in lines] + [I + ' */']

    def new_comment(self, node, d, p):
        if self.rng.random() >= p:
            return []
        key = type(node).__name__
        if isinstance(node, c_ast.FuncCall):
            key = 'FuncCall'
        phrases = STMT_PHRASES.get(key)
        if not phrases:
            return []
        text = self.rng.choice(phrases)
        return self.format_comment([casefix(text, self.st.comment_case)], d)

    # -- statements ------------------------------------------------------
    def expr(self, n):
        self.indent_level = 0
        return self.visit(n) if n is not None else ''

    def kw(self, word):
        return word + (' ' if self.st.kw_space else '')

    def body(self, stmt, d, head):
        """Lines for `head` controlling stmt at depth d."""
        I = self.st.ind * d
        if not isinstance(stmt, c_ast.Compound):
            if self.st.braces == 'always' and not isinstance(stmt, c_ast.EmptyStatement):
                stmt = c_ast.Compound([stmt])
            else:
                return [I + head] + self.stmt_lines(stmt, d + 1)
        items = stmt.block_items or []
        if (self.st.braces == 'minimal' and len(items) == 1
                and isinstance(items[0], (c_ast.Assignment, c_ast.FuncCall, c_ast.UnaryOp,
                                          c_ast.Return, c_ast.Break, c_ast.Continue))
                and id(items[0]) not in self.comments):
            return [I + head] + self.stmt_lines(items[0], d + 1)
        if self.st.blk_brace_nl:
            return [I + head, I + '{'] + self.items_lines(items, d + 1) + [I + '}']
        return [I + head + ' {'] + self.items_lines(items, d + 1) + [I + '}']

    def if_lines(self, n, d, prefix=''):
        head = prefix + self.kw('if') + '(' + self.expr(n.cond) + ')'
        t = n.iftrue
        if n.iffalse is not None and not isinstance(t, c_ast.Compound) and \
                isinstance(t, (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch,
                               c_ast.Label)):
            t = c_ast.Compound([t])
        lines = self.body(t, d, head)
        if n.iffalse is not None:
            f = n.iffalse
            if isinstance(f, c_ast.If) and id(f) not in self.comments:
                sub = self.if_lines(f, d, prefix='else ')
            else:
                sub = self.body(f, d, 'else')
            I = self.st.ind * d
            if self.st.cuddle_else and lines[-1] == I + '}':
                lines[-1] = lines[-1] + ' ' + sub[0].lstrip()
                lines += sub[1:]
            else:
                lines += sub
        return lines

    def stmt_lines(self, n, d):
        I = self.st.ind * d
        self.indent_level = d
        if isinstance(n, c_ast.Compound):
            return [I + '{'] + self.items_lines(n.block_items or [], d + 1) + [I + '}']
        if isinstance(n, c_ast.If):
            return self.if_lines(n, d)
        if isinstance(n, c_ast.For):
            init = ''
            if isinstance(n.init, c_ast.DeclList):
                init = self.decl_group_str(n.init.decls)
            elif n.init is not None:
                init = self.expr(n.init)
            cond = self.expr(n.cond)
            nxt = self.expr(n.next)
            if not init and not cond and not nxt:
                head = self.kw('for') + '(;;)'
            else:
                head = self.kw('for') + '(%s;%s;%s)' % (init, ' ' + cond if cond else '',
                                                        ' ' + nxt if nxt else '')
            return self.body(n.stmt, d, head)
        if isinstance(n, c_ast.While):
            return self.body(n.stmt, d, self.kw('while') + '(' + self.expr(n.cond) + ')')
        if isinstance(n, c_ast.DoWhile):
            lines = self.body(n.stmt, d, 'do')
            tail = self.kw('while') + '(' + self.expr(n.cond) + ');'
            if lines[-1] == I + '}' and not self.st.blk_brace_nl:
                lines[-1] += ' ' + tail
            else:
                lines.append(I + tail)
            return lines
        if isinstance(n, c_ast.Switch):
            head = self.kw('switch') + '(' + self.expr(n.cond) + ')'
            body = n.stmt
            if not isinstance(body, c_ast.Compound):
                return [I + head] + self.stmt_lines(body, d + 1)
            cd = d + 1 if self.st.case_indent else d
            inner = []
            for it in body.block_items or []:
                inner += self.stmt_lines(it, cd)
            if self.st.blk_brace_nl:
                return [I + head, I + '{'] + inner + [I + '}']
            return [I + head + ' {'] + inner + [I + '}']
        if isinstance(n, (c_ast.Case, c_ast.Default)):
            head = 'default:' if isinstance(n, c_ast.Default) else 'case ' + self.expr(n.expr) + ':'
            return [I + head] + self.items_lines(n.stmts or [], d + 1)
        if isinstance(n, c_ast.Label):
            J = self.st.ind * max(d - 1, 0)
            return [J + n.name + ':'] + self.stmt_lines(n.stmt, d)
        if isinstance(n, c_ast.EmptyStatement):
            return [I + ';']
        if isinstance(n, c_ast.Pragma):
            return ['#pragma ' + (n.string or '')]
        if isinstance(n, c_ast.Return):
            return self.wrap(I + self.visit_Return(n), d)
        if isinstance(n, (c_ast.Break, c_ast.Continue)):
            return [I + ('break;' if isinstance(n, c_ast.Break) else 'continue;')]
        if isinstance(n, c_ast.Goto):
            return [I + 'goto ' + n.name + ';']
        if isinstance(n, (c_ast.Decl, c_ast.Typedef)):
            return self.wrap(I + self.visit(n) + ';', d)
        if isinstance(n, c_ast.StaticAssert):
            return [I + self.visit(n) + ';']
        return self.wrap(I + self.expr(n) + ';', d)

    def items_lines(self, items, d):
        out = []
        groups = group_items(items)
        # optionally merge runs of simple declarations of one type
        if self.st.merge_decls:
            merged = []
            for g in groups:
                if (merged and len(g) == 1 and len(merged[-1]) < 3
                        and self.mergeable(merged[-1][-1], g[0])
                        and defining_base(merged[-1][0]) is None
                        and id(g[0]) not in self.comments):
                    merged[-1].append(g[0])
                else:
                    merged.append(list(g))
            groups = merged
        prev_decl = None
        for g in groups:
            first = g[0]
            is_decl = isinstance(first, (c_ast.Decl, c_ast.Typedef))
            if out and prev_decl and not is_decl and self.st.blank_after_decls:
                out.append('')
            elif out and self.rng.random() < self.st.blank_p and out[-1] != '':
                out.append('')
            cl = self.comment_lines(first, d)
            if not cl and not isinstance(first, (c_ast.Case, c_ast.Default, c_ast.Label)):
                cl = self.new_comment(first, d, self.st.new_stmt_comment)
            out += cl
            if len(g) > 1:
                self.indent_level = d
                out += self.wrap(self.st.ind * d + self.decl_group_str(g) + ';', d)
            else:
                out += self.stmt_lines(first, d)
            prev_decl = is_decl
        return out

    # -- wrapping --------------------------------------------------------
    def wrap(self, line, d):
        if '\n' in line or len(line) <= self.st.width or line.lstrip().startswith(('#', '//', '/*')):
            return line.split('\n')
        cont = self.st.ind * (d + 2) if self.st.ind != '\t' else '\t' * (d + 1) + '    '
        out = []
        rest = line
        limit = self.st.width
        for _ in range(20):
            if len(rest) <= limit:
                break
            cut = break_point(rest, limit)
            if cut is None:
                break
            out.append(rest[:cut].rstrip())
            rest = cont + rest[cut:].lstrip()
        out.append(rest)
        return out

    # -- the file --------------------------------------------------------
    def funcdef_lines(self, f):
        self.indent_level = 0
        head = self._generate_decl(f.decl)
        heads = [head]
        if self.st.wrap_params or len(head) > self.st.width:
            heads = self.wrap(head, 0)
        lines = list(heads)
        for pd in f.param_decls or []:
            lines.append(self.visit(pd) + ';')
        items = f.body.block_items or []
        if self.st.fn_brace_nl:
            lines += ['{'] + self.items_lines(items, 1) + ['}']
        else:
            lines[-1] += ' {'
            lines += self.items_lines(items, 1) + ['}']
        return lines

    def file_text(self, items, head_comments):
        out = []
        for c in head_comments:
            text = self.comment_fn(c)
            if text:
                out += self.format_comment(text, 0)
        out += self.prologue
        if self.kept_lines:
            out.append('')
            out += self.kept_lines
        prev = None
        for g in group_items(items):
            first = g[0]
            is_fn = isinstance(first, c_ast.FuncDef)
            gap = self.st.fn_gap if (is_fn or isinstance(prev, c_ast.FuncDef)) else \
                (1 if prev is None or type(prev) != type(first) or self.rng.random() < 0.3 else 0)
            out += [''] * gap
            cl = self.comment_lines(first, 0)
            if not cl and is_fn and self.rng.random() < self.st.new_fn_comment:
                words = ' '.join(split_words(first.decl.name)) or 'the details'
                cl = self.format_comment([casefix(self.rng.choice(FN_PHRASES) % words,
                                                  self.st.comment_case)], 0)
            out += cl
            if is_fn:
                out += self.funcdef_lines(first)
            elif (isinstance(first, c_ast.Decl) and first.name == 'player_name'
                  and isinstance(first.init, c_ast.Constant)):
                out.append('PLAYER_NAME(%s);' % self.player)
            elif isinstance(first, c_ast.Pragma):
                out.append('#pragma ' + (first.string or ''))
            else:
                self.indent_level = 0
                out += self.wrap(self.decl_group_str(g) + ';', 0)
            prev = first
        text = '\n'.join(out).strip('\n') + '\n'
        return re.sub(r'\n{3,}', '\n\n\n', text)


def casefix(text, how):
    if how == 'lower' and text[:1].isupper() and not text[1:2].isupper():
        return text[0].lower() + text[1:]
    if how == 'upper':
        return text[:1].upper() + text[1:]
    return text


def break_point(s, limit):
    """Where to break s (at most `limit` chars on the first line): after a
    comma or before && || ?, outside literals and never at depth 0 before the
    first bracket."""
    best = None
    depth = 0
    i = 0
    n = len(s)
    lead = len(s) - len(s.lstrip())
    while i < n and i <= limit:
        c = s[i]
        if c in '"\'':
            j = i + 1
            while j < n and s[j] != c:
                j += 2 if s[j] == '\\' else 1
            i = j + 1
            continue
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif c == ',' and i + 1 < n and s[i + 1] == ' ' and i + 1 > lead + 10:
            best = i + 1
        elif s.startswith(' && ', i) or s.startswith(' || ', i) or s.startswith(' ? ', i):
            if i > lead + 10:
                best = i
        i += 1
    return best


# ---------------------------------------------------------------------------
# Purity: what may be evaluated in another order
# ---------------------------------------------------------------------------

PURE_FUNCS = {'me', 'nb_players', 'nb_rounds', 'rows', 'cols', 'nb_farmers', 'nb_knights',
              'nb_witches', 'farmers_health', 'knights_health', 'farmers_regen',
              'knights_regen', 'damage_min', 'damage_max', 'current_round', 'cell', 'unit',
              'farmers', 'knights', 'witches', 'land', 'score', 'pos', 'pos_ok', 'pos_move',
              'pos_eq', 'abs', 'labs', 'llabs', 'fabs', 'sqrt', 'floor', 'ceil', 'pow',
              'fmin', 'fmax', 'exp', 'log', 'sin', 'cos', 'atan2', 'hypot', 'round'}
CONST_HDR = {'NULL', 'true', 'false', 'EOF'}


def is_pure(e, res, kept):
    """No side effects and no calls but to the known pure functions."""
    if e is None:
        return True
    for n in walk(e):
        if isinstance(n, c_ast.Assignment):
            return False
        if isinstance(n, c_ast.UnaryOp) and n.op in ('++', '--', 'p++', 'p--'):
            return False
        if isinstance(n, c_ast.FuncCall):
            if not isinstance(n.name, c_ast.ID):
                return False
            s = res.sym_of(n.name)
            if not (s is not None and s.origin == 'hdr' and n.name.name in PURE_FUNCS):
                if n.name.name not in kept or not macro_pure(kept, n.name.name):
                    return False
        if isinstance(n, c_ast.ID) and res.sym_of(n) is None:
            if n.name in kept:
                if not macro_pure(kept, n.name):
                    return False
            elif not (n.name in CONST_HDR or re.match(r'^[A-Z][A-Z0-9_]*$', n.name)):
                if not (isinstance(n, c_ast.ID) and n.name in PURE_FUNCS):
                    return False
    return True


def macro_pure(kept, name, seen=None):
    seen = seen or set()
    if name in seen:
        return True
    seen.add(name)
    m = kept[name]
    toks = m.tokens
    for i, (k, t) in enumerate(toks):
        if t in ('=', '++', '--', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>='):
            return False
        if k == 'id' and i + 1 < len(toks) and toks[i + 1][1] == '(':
            if t in kept:
                if not macro_pure(kept, t, seen):
                    return False
            elif t not in PURE_FUNCS and t not in (m.params or []):
                return False
    return True


def mentions(node, names):
    for n in walk(node):
        if isinstance(n, c_ast.ID) and n.name in names:
            return True
        if isinstance(n, c_ast.IdentifierType) and any(x in names for x in n.names):
            return True
    return False


# ---------------------------------------------------------------------------
# Level 3: reordering
# ---------------------------------------------------------------------------

def file_syms_in(nodes, res, kept):
    """Syms at file scope of the contestant's file that nodes refer to."""
    out = []
    for top in nodes:
        for n in walk(top):
            s = None
            if isinstance(n, (c_ast.ID, c_ast.IdentifierType)):
                s = res.ref.get(id(n))
                if isinstance(n, c_ast.ID) and id(n) in res.macro_refs:
                    out += [x for x in res.macro_refs[id(n)]
                            if x.func is None and x.origin == 'src']
            elif isinstance(n, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
                s = res.ref.get(id(n))
            if s is not None and s.func is None and s.origin == 'src':
                out.append(s)
    return out


def item_defs(g, res):
    """Syms the group declares at file scope."""
    out = []
    for it in g:
        if isinstance(it, c_ast.FuncDef):
            s = res.file.ord.get(it.decl.name)
            if s is not None:
                out.append(s)
            continue
        if isinstance(it, (c_ast.Decl, c_ast.Typedef)):
            if it.name:
                s = res.file.ord.get(it.name)
                if s is not None:
                    out.append(s)
            for n in walk(it.type):
                if isinstance(n, (c_ast.Struct, c_ast.Union, c_ast.Enum)):
                    s = res.ref.get(id(n))
                    body = n.values if isinstance(n, c_ast.Enum) else n.decls
                    if s is not None and body is not None:
                        out.append(s)
                    if isinstance(n, c_ast.Enum) and n.values is not None:
                        for en in n.values.enumerators:
                            s = res.file.ord.get(en.name)
                            if s is not None:
                                out.append(s)
    return out


def sig_deps(fsym, res, kept):
    """Non-function syms a function's declaration needs before it."""
    t = fsym.type
    if t is None:
        return []
    return [s for s in file_syms_in([t], res, kept) if s.kind != 'func']


def order_items(groups, res, kept, rng, shuffle):
    """A random order of the groups that keeps every declaration before its
    users (functions excepted: prototypes are added for them later)."""
    n = len(groups)
    defs = [item_defs(g, res) for g in groups]
    first_def = {}
    for i, ds in enumerate(defs):
        for s in ds:
            first_def.setdefault(id(s), i)
    # a tag is defined where its body is
    for i, g in enumerate(groups):
        for it in g:
            if isinstance(it, (c_ast.Decl, c_ast.Typedef)):
                for x in walk(it.type):
                    if isinstance(x, (c_ast.Struct, c_ast.Union)) and x.decls is not None:
                        s = res.ref.get(id(x))
                        if s is not None and first_def.get(id(s), i) < i:
                            first_def[id(s)] = i
    preds = [set() for _ in range(n)]
    for i, g in enumerate(groups):
        own = {id(s) for s in defs[i]}
        for s in file_syms_in(g, res, kept):
            if id(s) in own and s.kind != 'func':
                continue
            if s.kind == 'func':
                for t in sig_deps(s, res, kept):
                    j = first_def.get(id(t))
                    if j is not None and j != i:
                        preds[i].add(j)
            else:
                j = first_def.get(id(s))
                if j is not None and j != i:
                    preds[i].add(j)
    # several declarations of one thing keep their order
    seen = {}
    for i, ds in enumerate(defs):
        for s in ds:
            if id(s) in seen and seen[id(s)] != i:
                preds[i].add(seen[id(s)])
            seen[id(s)] = i
    if not shuffle:
        return list(range(n))
    hoist = rng.random() < 0.5

    def prio(i):
        if not hoist:
            return 0
        it = groups[i][0]
        if isinstance(it, c_ast.FuncDef):
            return 4
        if isinstance(it, c_ast.Typedef) or (isinstance(it, c_ast.Decl) and
                                             defining_base(it) is not None):
            return 0
        if is_funcdecl(it):
            return 3
        return 1 if isinstance(it, c_ast.Decl) and it.name == 'player_name' else 2

    done = []
    placed = set()
    remaining = set(range(n))
    while remaining:
        avail = [i for i in remaining if preds[i] <= placed]
        if not avail:   # a cycle should not happen; keep the original order
            avail = [min(remaining)]
        best = min(prio(i) for i in avail)
        avail = [i for i in avail if prio(i) == best]
        i = rng.choice(avail)
        done.append(i)
        placed.add(i)
        remaining.discard(i)
    return done


def ensure_prototypes(items, res, kept):
    """Adds a prototype before the first use of every function of the file
    that is used before it is declared."""
    groups = group_items(items)
    decl_at = {}
    for i, g in enumerate(groups):
        for s in item_defs(g, res):
            if s.kind == 'func':
                decl_at.setdefault(id(s), i)
    need = {}
    for i, g in enumerate(groups):
        for s in file_syms_in(g, res, kept):
            if s.kind == 'func' and s.origin == 'src' and decl_at.get(id(s), -1) > i:
                need.setdefault(i, [])
                if s not in need[i]:
                    need[i].append(s)
                decl_at[id(s)] = i
    if not need:
        return items
    out = []
    for i, g in enumerate(groups):
        for s in need.get(i, []):
            fd = getattr(s, 'funcdef', None)
            if fd is None:
                continue
            p = copy.deepcopy(fd.decl)
            p.coord = None
            if p.type.args is not None and any(isinstance(x, c_ast.ID) for x in p.type.args.params):
                p.type.args = None
            out.append(p)
        out += g
    return out


def shuffle_locals(func, res, kept, rng):
    """Reorders runs of independent local declarations."""
    for n in walk(func.body):
        lists = []
        if isinstance(n, c_ast.Compound) and n.block_items:
            lists.append((n, 'block_items'))
        elif isinstance(n, (c_ast.Case, c_ast.Default)) and n.stmts:
            lists.append((n, 'stmts'))
        for owner, attr in lists:
            items = getattr(owner, attr)
            out = []
            i = 0
            while i < len(items):
                j = i
                while (j < len(items) and isinstance(items[j], c_ast.Decl)
                       and defining_base(items[j]) is None and items[j].name
                       and not is_funcdecl(items[j])):
                    j += 1
                if j - i >= 2 and not (attr == 'stmts' and i == 0):
                    out += shuffle_run(items[i:j], res, kept, rng)
                    i = j
                else:
                    out.append(items[i])
                    i += 1
            setattr(owner, attr, out)


def shuffle_run(run, res, kept, rng):
    pure = [is_pure(d.init, res, kept) and is_pure(d.type, res, kept) for d in run]
    n = len(run)
    preds = [set() for _ in range(n)]
    for b in range(n):
        for a in range(b):
            if (not (pure[a] and pure[b]) or mentions(run[b], {run[a].name})
                    or mentions(run[a], {run[b].name})):
                preds[b].add(a)
    order = []
    placed = set()
    while len(order) < n:
        avail = [i for i in range(n) if i not in placed and preds[i] <= placed]
        i = rng.choice(avail)
        order.append(i)
        placed.add(i)
    return [run[i] for i in order]


def struct_of(t, res, depth=0):
    """The struct (with its body) that type t is, else None."""
    if t is None or depth > 20:
        return None
    if isinstance(t, (c_ast.TypeDecl, c_ast.Typename)):
        return struct_of(t.type, res, depth + 1)
    if isinstance(t, (c_ast.Struct, c_ast.Union)):
        if t.decls is not None:
            return t
        s = res.ref.get(id(t))
        return getattr(s, 'body', None) if s is not None else None
    if isinstance(t, c_ast.IdentifierType):
        s = res.ref.get(id(t))
        if s is not None and s.kind == 'typedef':
            return struct_of(s.type, res, depth + 1)
    return None


def check_init(t, init, res, bad, depth=0):
    """Marks in bad the structs that a positional initializer fills."""
    if depth > 20 or not isinstance(init, c_ast.InitList):
        return True
    if isinstance(t, c_ast.ArrayDecl):
        for e in init.exprs:
            e2 = e.expr if isinstance(e, c_ast.NamedInitializer) else e
            if not check_init(t.type, e2, res, bad, depth + 1):
                return False
        return True
    st = struct_of(t, res)
    if st is None:
        td = t
        while isinstance(td, c_ast.TypeDecl):
            td = td.type
        if isinstance(td, c_ast.IdentifierType) and all(x in BUILTIN_TYPE_WORDS for x in td.names):
            return True
        return False
    fields = [d for d in st.decls if d.name]
    exprs = init.exprs
    zero = len(exprs) == 1 and isinstance(exprs[0], c_ast.Constant) and exprs[0].value == '0'
    if any(not isinstance(e, c_ast.NamedInitializer) for e in exprs) and not zero:
        bad.add(id(st))
    pos = 0
    for e in exprs:
        if isinstance(e, c_ast.NamedInitializer):
            nm = e.name[0].name if isinstance(e.name[0], c_ast.ID) else None
            f = [d for d in fields if d.name == nm]
            if not f:
                return False
            pos = fields.index(f[0])
            if not check_init(f[0].type, e.expr, res, bad, depth + 1):
                return False
        else:
            if pos >= len(fields):
                return False
            if not check_init(fields[pos].type, e, res, bad, depth + 1):
                return False
        pos += 1
    return True


def shuffle_fields(items, res, rng):
    structs = []
    bad = set()
    ok = True
    for top in items:
        for n in walk(top):
            if isinstance(n, (c_ast.Struct, c_ast.Union)) and n.decls:
                structs.append(n)
            if isinstance(n, c_ast.Decl) and isinstance(n.init, c_ast.InitList):
                ok = ok and check_init(n.type, n.init, res, bad)
            if isinstance(n, c_ast.CompoundLiteral):
                ok = ok and check_init(n.type.type, n.init, res, bad)
    if not ok:
        return
    for st in structs:
        if id(st) in bad or isinstance(st, c_ast.Union) or len(st.decls) < 2:
            continue
        last = st.decls[-1]
        if isinstance(last.type, c_ast.ArrayDecl) and last.type.dim is None:
            continue
        groups = group_items(st.decls)
        rng.shuffle(groups)
        st.decls = [d for g in groups for d in g]


def reorder(P, items, resolve, rng):
    res = resolve(items)
    for it in items:
        if isinstance(it, c_ast.FuncDef):
            shuffle_locals(it, res, P.kept, rng)
    shuffle_fields(items, res, rng)
    res = resolve(items)
    groups = group_items(items)
    order = order_items(groups, res, P.kept, rng, True)
    return [x for i in order for x in groups[i]]


# ---------------------------------------------------------------------------
# Comments
# ---------------------------------------------------------------------------

def attach_comments(comments, items):
    """Maps each comment to the statement or declaration it precedes (or
    trails).  Returns (head comments, {id(node): (node, [comment])})."""
    nodes = []
    for it in items:
        if it.coord is not None:
            nodes.append((it.coord.line, 0, it))
        if isinstance(it, c_ast.FuncDef):
            for n in walk(it.body):
                if n.coord is None or n.coord.file != SRC:
                    continue
                if isinstance(n, c_ast.Compound):
                    for s in n.block_items or []:
                        if s.coord is not None:
                            nodes.append((s.coord.line, 1, s))
                elif isinstance(n, (c_ast.Case, c_ast.Default)):
                    for s in n.stmts or []:
                        if s.coord is not None:
                            nodes.append((s.coord.line, 1, s))
    nodes.sort(key=lambda x: (x[0], x[1]))
    lines = [x[0] for x in nodes]
    head = []
    table = {}
    import bisect
    first_line = lines[0] if lines else 1 << 30
    for c in comments:
        if c['end'] < first_line and not c['trailing']:
            head.append(c)
            continue
        key = c['line'] if c['trailing'] else c['end']
        k = bisect.bisect_left(lines, key)
        if k >= len(nodes):
            continue
        node = nodes[k][2]
        table.setdefault(id(node), (node, []))[1].append(c)
    return head, table


def looks_like_code(word):
    return '_' in word.strip('_') or re.search(r'[a-z][A-Z]|[0-9]', word) is not None or \
        (word.isupper() and len(word) > 1)


def make_comment_fn(rng, style, level, name_map, old_player, new_player):
    def fn(c):
        if rng.random() >= style.keep_comment:
            return None
        text = c['text']
        if c['block']:
            lines = [re.sub(r'^\s*\*+ ?', '', l).strip() for l in text.split('\n')]
            while lines and not lines[0].strip():
                lines.pop(0)
            while lines and not lines[-1].strip():
                lines.pop()
        else:
            lines = [l.strip() for l in c['lines']]
        out = []
        for l in lines:
            if level >= 2:
                l = re.sub(r'\b[A-Za-z_]\w*\b', lambda m: name_map.get(m.group(), m.group())
                           if looks_like_code(m.group()) else m.group(), l)
                l = re.sub(r'\b([A-Za-z_]\w*)(\(\))', lambda m: name_map.get(m.group(1), m.group(1))
                           + m.group(2), l)
            if old_player and new_player and old_player != new_player:
                l = re.sub(r'\b%s\b' % re.escape(old_player), new_player, l)
            if level >= 2:
                l = re.sub(r'\b[a-z]+\b', lambda m: rng.choice(THESAURUS[m.group()]).replace('_', ' ')
                           if m.group() in THESAURUS and rng.random() < 0.25 else m.group(), l)
            if '*/' in l:
                l = l.replace('*/', '* /')
            l = l.rstrip('\\ ')
            out.append(l)
        if not any(x.strip() for x in out):
            return None
        out[0] = casefix(out[0], style.comment_case)
        if rng.random() < 0.3:
            out[-1] = out[-1].rstrip('.')
        return out
    return fn


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def all_names(src, P, hdr_res):
    names = set(src.code_ids)
    for k, t in c_tokens(src.stripped):
        if k == 'id':
            names.add(t)
    names |= set(P.hdr_macros)
    names |= set(hdr_res.file.ord) | set(hdr_res.file.tag) | set(hdr_res.fields)
    for e in P.hdr_ext:
        for n in walk(e):
            for attr in ('name', 'declname'):
                v = getattr(n, attr, None)
                if isinstance(v, str):
                    names.add(v)
    return names


def prologue_lines(src, P):
    lines = []
    for first, text, cond in src.includes:
        if cond:
            m = re.match(r'#include\s*[<"]([^>"]+)[>"]', text)
            if not m or not any(f.endswith(m.group(1)) for f in P.pp_files):
                continue
        lines.append((first, text))
    lines += src.feature_defines
    lines.sort()
    out = []
    for _, t in lines:
        if t not in out:
            out.append(t)
    return out


def disguise(text, level, seed, name, incdirs, host=None):
    if '\0' in text:
        raise Fail('the input is not C text (NUL bytes)')
    src = Source(text)
    P = parse_source(src, incdirs)
    rng = random.Random('%s/%d' % (seed, level))
    hdr_res = Resolver(P.hdr_ext, [], P.kept)

    def resolve(items):
        return Resolver(None, items, P.kept, cache=hdr_res)

    items = list(P.ext)
    check_supported(items)
    old_player = None
    for it in items:
        if isinstance(it, c_ast.Decl) and it.name == 'player_name' and \
                isinstance(it.init, c_ast.Constant) and it.init.type == 'string':
            old_player = it.init.value[1:-1]
    if old_player is None:
        raise Fail('no PLAYER_NAME in the file')
    new_player = name or old_player
    head, comment_table = attach_comments(src.comments, items)
    reserved = all_names(src, P, hdr_res) | (host_names(host) if host is not None else set())
    ng = NameGen(rng, reserved)
    style = Style(rng, min(level, 2) if level >= 7 else level)
    ctx = Ctx(P, resolve, rng, ng)
    if level == 8:
        fn = make_comment_fn(rng, style, 2, {}, old_player, new_player)
        return partial_copy(ctx, P, src, items, host, resolve, style, fn, new_player)
    if level == 7:
        items = equivalent_forms(ctx, items)
        level = 3
    if level >= 6:
        items = split_merge(ctx, items)
    if level >= 5:
        items = control_forms(ctx, items)
    if level >= 4:
        items = dead_code(ctx, items)
    if level >= 3:
        items = reorder(P, items, resolve, rng)
        keep_names = list(P.kept)
        rng.shuffle(keep_names)
        P.kept = {k: P.kept[k] for k in keep_names}
    items = ensure_prototypes(items, resolve(items), P.kept)
    name_map = {}
    if level >= 2:
        name_map = rename_all(P, resolve(items), ng, rng)
    kept_lines = [macro_define_line(m) if level >= 2 else '#define %s%s %s' % (
        m.name, '(' + ', '.join(m.params) + ')' if m.params is not None else '', m.body)
        for m in P.kept.values()]
    fn = make_comment_fn(rng, style, level, name_map, old_player, new_player)
    em = Emitter(style, rng, comment_table, fn, new_player, kept_lines, prologue_lines(src, P))
    return em.file_text(items, head)


STMT_HOLDERS = (c_ast.FuncDef, c_ast.Compound, c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile,
                c_ast.Switch, c_ast.Case, c_ast.Default, c_ast.Label)


def check_supported(items):
    for top in items:
        for n in walk(top):
            for k in kids(n):
                if isinstance(k, c_ast.Compound) and not isinstance(n, STMT_HOLDERS):
                    line = k.coord.line if k.coord is not None else '?'
                    raise Fail('cannot handle the GNU statement expression at line %s' % line)


class Ctx:
    def __init__(self, P, resolve, rng, ng):
        self.P = P
        self.resolve = resolve
        self.rng = rng
        self.ng = ng
        self.made = set()
        self.keep = []


class Usage(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write('%s: %s\n' % (self.prog, message))
        sys.exit(1)


def main(argv):
    ap = Usage(
        prog='disguise.py',
        description='Writes a disguised copy of a Dominator player (see README.md).')
    ap.add_argument('--level', type=int, required=True,
                    help='1 to 6, cumulative; 7 equivalent forms; 8 partial copy')
    ap.add_argument('--host', metavar='HOST.c',
                    help='level 8: the original player the function is copied into')
    ap.add_argument('--seed', required=True, help='any string; fixes every random choice')
    ap.add_argument('--name', help='new PLAYER_NAME (1 to 12 letters, digits or _)')
    ap.add_argument('-I', dest='incdirs', action='append', default=[],
                    help='more include folders (the kit and IN.c\'s folder are searched)')
    ap.add_argument('input', metavar='IN.c')
    ap.add_argument('output', metavar='OUT.c')
    a = ap.parse_args(argv)
    if not 1 <= a.level <= 8:
        ap.error('--level must be 1 to 8')
    if (a.level == 8) != (a.host is not None):
        ap.error('--host HOST.c goes with --level 8, and only with it')
    if a.name is not None and not re.match(r'^[A-Za-z0-9_]{1,12}$', a.name):
        ap.error('--name must be 1 to 12 letters, digits or underscores')
    try:
        try:
            with open(a.input, 'rb') as f:
                raw = f.read()
        except OSError as e:
            raise Fail('cannot read: %s' % e.strerror)
        text = raw.decode('utf-8', 'surrogateescape')
        incdirs = [os.path.dirname(os.path.abspath(a.input)), KIT, COURSE_KIT] + a.incdirs
        host = None
        if a.host is not None:
            try:
                with open(a.host, 'rb') as f:
                    host = f.read().decode('utf-8', 'surrogateescape')
            except OSError as e:
                raise Fail('cannot read the host %s: %s' % (a.host, e.strerror))
        out = disguise(text, a.level, a.seed, a.name, incdirs, host)
        try:
            with open(a.output, 'w', encoding='utf-8', errors='surrogateescape') as f:
                f.write(out)
        except OSError as e:
            raise Fail('cannot write %s: %s' % (a.output, e.strerror))
    except Fail as e:
        sys.stderr.write('disguise.py: %s: %s\n' % (a.input, e))
        return 2
    except RecursionError:
        sys.stderr.write('disguise.py: %s: nested too deeply to handle\n' % a.input)
        return 2
    except Exception as e:     # a construct the transformations do not expect
        if os.environ.get('DISGUISE_DEBUG'):
            raise
        sys.stderr.write('disguise.py: %s: cannot transform this file (%s: %s); '
                         'DISGUISE_DEBUG=1 shows where\n' % (a.input, type(e).__name__, e))
        return 2
    return 0




# ---------------------------------------------------------------------------
# Small AST builders and queries shared by levels 4 to 6
# ---------------------------------------------------------------------------

def B(op, l, r):
    return c_ast.BinaryOp(op, l, r)


def U(op, e):
    return c_ast.UnaryOp(op, e)


def A(op, l, r):
    return c_ast.Assignment(op, l, r)


def K(v):
    if isinstance(v, float):
        return c_ast.Constant('double', repr(v))
    if v < 0:
        return U('-', c_ast.Constant('int', str(-v)))
    return c_ast.Constant('int', str(v))


_GEN = c_generator.CGenerator()


def text_of(n):
    return _GEN.visit(n)


def strip_coords(node):
    for n in walk(node):
        n.coord = None
    return node


_SNIPPET_PARSER = []


def parse_snippet(code):
    """Parses C code that uses only builtin types and bool."""
    if not _SNIPPET_PARSER:
        _SNIPPET_PARSER.append(c_parser.CParser())
    ast = _SNIPPET_PARSER[0].parse('typedef _Bool bool;\n' + code, SRC)
    return [strip_coords(e) for e in ast.ext[1:]]


def loops_in(node):
    return isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile))


def escapes(node):
    """A break or continue in node that is not inside a loop (or switch, for
    break) also inside node."""
    def rec(n, in_loop, in_switch):
        if isinstance(n, c_ast.Break) and not (in_loop or in_switch):
            return True
        if isinstance(n, c_ast.Continue) and not in_loop:
            return True
        for k in kids(n):
            if rec(k, in_loop or loops_in(n) and k is getattr(n, 'stmt', None),
                   in_switch or isinstance(n, c_ast.Switch)):
                return True
        return False
    return rec(node, False, False)


def breaks_out(node):
    """Whether node holds a break that is not inside a loop or switch of
    its own."""
    if isinstance(node, c_ast.Break):
        return True
    if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)):
        return False
    return any(breaks_out(k) for k in kids(node))


def own_continues(loop_body):
    """The continue statements that belong to the loop whose body this is,
    as (owner, attr, index) places."""
    places = []

    def rec(n):
        for s in slots(n):
            v = getattr(n, s)
            if isinstance(v, c_ast.Continue):
                places.append((n, s, None))
            elif isinstance(v, list):
                for i, x in enumerate(v):
                    if isinstance(x, c_ast.Continue):
                        places.append((n, s, i))
                    elif isinstance(x, c_ast.Node) and not loops_in(x):
                        rec(x)
            elif isinstance(v, c_ast.Node) and not loops_in(v):
                rec(v)
    if isinstance(loop_body, c_ast.Continue):
        return None
    rec(loop_body)
    return places


def declared_names(node):
    out = set()
    for n in walk(node):
        if isinstance(n, (c_ast.Decl, c_ast.Typedef)) and n.name:
            out.add(n.name)
        if isinstance(n, c_ast.Enumerator):
            out.add(n.name)
    return out


def top_declared(items):
    return {d.name for d in items if isinstance(d, (c_ast.Decl, c_ast.Typedef)) and d.name}


def has_any(node, kinds):
    return any(isinstance(n, kinds) for n in walk(node))


def pure_lvalue(e, res, kept):
    """An lvalue that may be written twice: a name, or fields and elements
    of one with pure indices."""
    if isinstance(e, c_ast.ID):
        return res.sym_of(e) is not None
    if isinstance(e, c_ast.StructRef):
        return e.type == '.' and pure_lvalue(e.name, res, kept) or \
            e.type == '->' and isinstance(e.name, c_ast.ID) and res.sym_of(e.name) is not None
    if isinstance(e, c_ast.ArrayRef):
        return pure_lvalue(e.name, res, kept) and is_pure(e.subscript, res, kept)
    return False


def func_defs(items):
    return [it for it in items if isinstance(it, c_ast.FuncDef)]


def block_lists(node):
    """(owner, attr) of every statement list under node."""
    out = []
    for n in walk(node):
        if isinstance(n, c_ast.Compound) and n.block_items is not None:
            out.append((n, 'block_items'))
        elif isinstance(n, (c_ast.Case, c_ast.Default)) and n.stmts is not None:
            out.append((n, 'stmts'))
    return out


def wrap_bodies(node):
    """Gives every if, loop body a compound of its own (a no-op for the
    meaning) so that every statement sits in a list."""
    for n in walk(node):
        if isinstance(n, c_ast.If):
            if n.iftrue is not None and not isinstance(n.iftrue, c_ast.Compound):
                n.iftrue = c_ast.Compound([n.iftrue])
            if n.iffalse is not None and not isinstance(n.iffalse, (c_ast.Compound, c_ast.If)):
                n.iffalse = c_ast.Compound([n.iffalse])
        elif isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            if not isinstance(n.stmt, (c_ast.Compound, c_ast.EmptyStatement)):
                n.stmt = c_ast.Compound([n.stmt])


def ret_type(f, res):
    return conv_type(f.decl.type.type, res)


# ---------------------------------------------------------------------------
# Level 4: dead code
# ---------------------------------------------------------------------------

HELPERS = [
    ('clamp_value', 'int', ['int', 'int', 'int'],
     'static int F(int v, int lo, int hi)\n{\n if (v < lo)\n return lo;\n if (v > hi)\n'
     ' return hi;\n return v;\n}\n'),
    ('abs_diff', 'int', ['int', 'int'],
     'static int F(int a, int b)\n{\n int d = a - b;\n return d < 0 ? -d : d;\n}\n'),
    ('sum_of', 'int', None,
     'static int F(const int *a, int n)\n{\n int s = 0;\n for (int i = 0; i < n; i++)\n'
     ' s += a[i];\n return s;\n}\n'),
    ('in_range', 'bool', ['int', 'int', 'int'],
     'static bool F(int v, int lo, int hi)\n{\n return v >= lo && v <= hi;\n}\n'),
    ('sign_of', 'int', ['int'],
     'static int F(int x)\n{\n return (x > 0) - (x < 0);\n}\n'),
    ('swap_ints', 'void', None,
     'static void F(int *a, int *b)\n{\n int t = *a;\n *a = *b;\n *b = t;\n}\n'),
    ('max_of', 'int', ['int', 'int'],
     'static int F(int a, int b)\n{\n return a > b ? a : b;\n}\n'),
    ('min_of', 'int', ['int', 'int'],
     'static int F(int a, int b)\n{\n if (a < b)\n return a;\n return b;\n}\n'),
    ('ratio', 'double', ['int', 'int'],
     'static double F(int num, int den)\n{\n if (den == 0)\n return 0.0;\n'
     ' return (double)num / den;\n}\n'),
    ('count_equal', 'int', None,
     'static int F(const int *a, int n, int v)\n{\n int c = 0;\n for (int i = 0; i < n; ++i)\n'
     ' if (a[i] == v)\n c++;\n return c;\n}\n'),
    ('index_of', 'int', ['int', 'int', 'int'],
     'static int F(int r, int c, int w)\n{\n return r * w + c;\n}\n'),
    ('has_bit', 'bool', ['int', 'int'],
     'static bool F(int mask, int bit)\n{\n return (mask & bit) != 0;\n}\n'),
    ('wrap_index', 'int', ['int', 'int'],
     'static int F(int i, int n)\n{\n int r = i % n;\n if (r < 0)\n r += n;\n return r;\n}\n'),
]


class DeadVar:
    def __init__(self, name, t, assignable=True, init=True, dead=False):
        self.name = name
        self.t = t
        self.assignable = assignable
        self.init = init
        self.dead = dead


def var_entry(d, res, param=False):
    t = conv_type(d.type, res)
    td = innermost_typedecl(d.type)
    const = td is not None and 'const' in td.quals and isinstance(d.type, c_ast.TypeDecl)
    assignable = (t is not None and t[0] in ('b', 's') and isinstance(d.type, c_ast.TypeDecl)
                  and not const)
    if isinstance(d.type, c_ast.PtrDecl) and not d.type.quals:
        assignable = t is not None
    init = param or d.init is not None or 'static' in (d.storage or [])
    return DeadVar(d.name, t, assignable, init)


class DeadCoder:
    def __init__(self, ctx, res, helpers, has_printf):
        self.ctx = ctx
        self.rng = ctx.rng
        self.res = res
        self.helpers = helpers      # [(name, ret, params)]
        self.has_printf = has_printf
        self.p = self.rng.uniform(0.17, 0.27)

    def ints(self, env, init=True):
        return [v for v in env if v.t is not None and v.t[0] == 'b' and v.t[1] in ('i32', 'i64')
                and v.t[2] != '_Bool' and (v.init or not init)]

    def int_expr(self, env):
        rng = self.rng
        xs = [v for v in self.ints(env) if not v.dead]
        if not xs or rng.random() < 0.2:
            return K(rng.choice([0, 1, 2, -1, 3, 4, 8, 10, 16, 100]))
        x = mk_id(rng.choice(xs).name)
        r = rng.random()
        if r < 0.3:
            return x
        if r < 0.55:
            return B(rng.choice(['+', '-', '*']), x, K(rng.choice([1, 2, 3, 4])))
        if r < 0.8 and len(xs) > 1:
            y = mk_id(rng.choice(xs).name)
            return B(rng.choice(['+', '-', '^']), x, y)
        return B('%', x, K(rng.choice([2, 3, 7, 16])))

    def false_cond(self, env):
        rng = self.rng
        xs = self.ints(env)
        choices = ['zero', 'sizeof']
        if xs:
            choices += ['between', 'self', 'mul', 'between', 'and']
        c = rng.choice(choices)
        if c == 'zero':
            return K(0)
        if c == 'sizeof':
            return B('<', U('sizeof', c_ast.Typename(None, [], None, simple_type(['int']))), K(2))
        x = rng.choice(xs).name
        if c == 'between':
            return B('&&', B('<', mk_id(x), K(0)), B('>', mk_id(x), K(0)))
        if c == 'self':
            return B(rng.choice(['!=', '<', '>']), mk_id(x), mk_id(x))
        if c == 'mul':
            return B('!=', B('*', mk_id(x), K(0)), K(0))
        return B('!=', B('&', mk_id(x), K(0)), K(0))

    def dead_body(self, env, fctx, in_loop, in_switch):
        rng = self.rng
        opts = ['assign', 'return', 'dead']
        if in_loop:
            opts += ['break', 'continue']
        elif in_switch:
            opts.append('break')
        if self.helpers:
            opts.append('helper')
        if self.has_printf:
            opts.append('printf')
        for _ in range(6):
            o = rng.choice(opts)
            if o == 'assign':
                xs = [v for v in self.ints(env, init=False) if v.assignable]
                if xs:
                    return [A('=', mk_id(rng.choice(xs).name), self.int_expr(env))]
            elif o == 'return':
                rt = fctx['ret']
                if rt == ('v',):
                    return [c_ast.Return(None)]
                if rt is not None and rt[0] in ('b', 'p'):
                    return [c_ast.Return(K(rng.choice([0, 0, -1, 1])) if rt[0] == 'b' else K(0))]
                if rt is not None and rt[0] == 's':
                    vs = [v for v in env if v.t == rt and v.init]
                    if vs:
                        return [c_ast.Return(mk_id(rng.choice(vs).name))]
            elif o == 'dead':
                st = self.dead_update(env)
                if st is not None:
                    return [st]
            elif o == 'break':
                return [c_ast.Break()]
            elif o == 'continue':
                return [c_ast.Continue()]
            elif o == 'helper':
                h = rng.choice(self.helpers)
                xs = [v for v in self.ints(env, init=False) if v.assignable]
                if h[2] is not None and xs:
                    call = c_ast.FuncCall(mk_id(h[0]),
                                          c_ast.ExprList([self.int_expr(env) for _ in h[2]]))
                    return [A('=', mk_id(rng.choice(xs).name), call)]
            elif o == 'printf':
                xs = self.ints(env)
                if xs:
                    x = rng.choice(xs)
                    fmt = '"%s %%%s\\n"' % (rng.choice(['debug', 'dbg', 'here', 'check', 'value']),
                                           'ld' if x.t[1] == 'i64' else 'd')
                    return [c_ast.FuncCall(mk_id('printf'), c_ast.ExprList(
                        [c_ast.Constant('string', fmt), mk_id(x.name)]))]
        return [c_ast.EmptyStatement()] if rng.random() < 0.2 else [c_ast.Return(None)] \
            if fctx['ret'] == ('v',) else [c_ast.EmptyStatement()]

    def dead_update(self, env):
        rng = self.rng
        ds = [v for v in env if v.dead]
        if not ds:
            return None
        v = rng.choice(ds)
        x = mk_id(v.name)
        if v.t[1] == 'f64':
            return A(rng.choice(['+=', '*=', '=']), x, K(rng.choice([0.5, 1.0, 2.0])))
        if v.t[2] == '_Bool':
            return A('=', x, rng.choice([U('!', mk_id(v.name)),
                                         B('||', mk_id(v.name), B('>', self.int_expr(env), K(0)))]))
        r = rng.random()
        if r < 0.5 and getattr(v, 'glob', False):
            return A('=', x, self.int_expr(env))
        if r < 0.3:
            return A('+=', x, self.int_expr(env))
        if r < 0.5:
            return U(rng.choice(['p++', '++', 'p--']), x)
        if r < 0.7:
            return A('=', x, B('+', B('/', mk_id(v.name), K(2)), K(1)))
        if r < 0.85:
            return A('^=', x, self.int_expr(env))
        e = self.int_expr(env)
        return A('=', x, c_ast.TernaryOp(B('>', e, mk_id(v.name)), copy.deepcopy(e), mk_id(v.name)))

    def dead_decl(self, env):
        rng = self.rng
        name = self.ctx.ng.temp(rng.choice(['tmp', 'spare', 'extra', 'count', 'total', 'flag',
                                            'backup', 'score', 'last', 'limit', 'steps', 'acc']))
        r = rng.random()
        if r < 0.7:
            t = rng.choice([['int'], ['int'], ['int'], ['long'], ['unsigned', 'int']])
            d = mk_decl(name, simple_type(t), self.int_expr(env))
            v = DeadVar(name, ('b', 'i64' if t == ['long'] else 'i32',
                               'long' if t == ['long'] else ('unsigned int' if 'unsigned' in t else 'int')),
                        True, True, True)
        elif r < 0.85:
            xs = self.ints(env)
            init = K(0.0) if not xs or rng.random() < 0.5 else \
                B('*', c_ast.Cast(c_ast.Typename(None, [], None, simple_type(['double'])),
                                  mk_id(rng.choice(xs).name)), K(0.5))
            d = mk_decl(name, simple_type(['double']), init)
            v = DeadVar(name, ('b', 'f64', 'double'), True, True, True)
        else:
            xs = self.ints(env)
            init = mk_id('false') if not xs else B(rng.choice(['>', '<', '==']),
                                                   mk_id(rng.choice(xs).name), self.int_expr(env))
            d = mk_decl(name, simple_type(['bool']), init)
            v = DeadVar(name, ('b', 'i32', '_Bool'), True, True, True)
        return d, v

    def insertion(self, env, fctx, in_loop, in_switch, allow_decl):
        """A list of statements with no effect, and the variables it adds."""
        rng = self.rng
        r = rng.random()
        if r < 0.3 and allow_decl:
            d, v = self.dead_decl(env)
            out = [d]
            if rng.random() < 0.15:
                out.append(c_ast.Cast(c_ast.Typename(None, [], None, simple_type(['void'])),
                                      mk_id(v.name)))
            return out, [v]
        if r < 0.5:
            st = self.dead_update(env)
            if st is not None:
                return [st], []
        if r < 0.85:
            body = self.dead_body(env, fctx, in_loop, in_switch)
            cond = self.false_cond(env)
            if rng.random() < 0.15:
                return [c_ast.While(cond, c_ast.Compound(body))], []
            return [c_ast.If(cond, c_ast.Compound(body), None)], []
        ds = [v for v in env if v.dead and v.t[1] in ('i32', 'i64') and v.t[2] != '_Bool']
        if ds:
            v = rng.choice(ds).name
            body = self.dead_body(env, fctx, True, in_switch)
            return [c_ast.For(A('=', mk_id(v), K(0)), B('<', mk_id(v), K(0)),
                              U('p++', mk_id(v)), c_ast.Compound(body))], []
        xs = [v for v in env if v.init and v.t is not None and v.t[0] == 'b']
        if xs:
            return [c_ast.Cast(c_ast.Typename(None, [], None, simple_type(['void'])),
                               mk_id(rng.choice(xs).name))], []
        return [], []

    def block(self, items, env, fctx, in_loop, in_switch, is_case):
        rng = self.rng
        env = list(env)
        out = []
        for idx, st in enumerate(items):
            allow_decl = not (is_case and idx == 0)
            if rng.random() < self.p and not isinstance(st, c_ast.Label):
                ins, vs = self.insertion(env, fctx, in_loop, in_switch, allow_decl)
                out += ins
                env += vs
            self.stmt(st, env, fctx, in_loop, in_switch)
            out.append(st)
            if isinstance(st, c_ast.Decl) and st.name and not is_funcdecl(st):
                env.append(var_entry(st, self.res))
        if items and rng.random() < self.p / 2 and not isinstance(items[-1], (c_ast.Return,
                                                                            c_ast.Break,
                                                                            c_ast.Continue)):
            ins, vs = self.insertion(env, fctx, in_loop, in_switch, True)
            out += ins
        return out

    def sub(self, st, env, fctx, in_loop, in_switch):
        if isinstance(st, c_ast.Compound):
            st.block_items = self.block(st.block_items or [], env, fctx, in_loop, in_switch, False)
        else:
            self.stmt(st, env, fctx, in_loop, in_switch)

    def stmt(self, st, env, fctx, in_loop, in_switch):
        if isinstance(st, c_ast.Compound):
            st.block_items = self.block(st.block_items or [], env, fctx, in_loop, in_switch, False)
        elif isinstance(st, c_ast.If):
            self.sub(st.iftrue, env, fctx, in_loop, in_switch)
            if st.iffalse is not None:
                self.sub(st.iffalse, env, fctx, in_loop, in_switch)
        elif isinstance(st, c_ast.For):
            env2 = list(env)
            if isinstance(st.init, c_ast.DeclList):
                env2 += [var_entry(d, self.res) for d in st.init.decls if d.name]
            if not isinstance(st.stmt, c_ast.Compound) and self.rng.random() < 0.3:
                st.stmt = c_ast.Compound([st.stmt])
            self.sub(st.stmt, env2, fctx, True, in_switch)
        elif isinstance(st, (c_ast.While, c_ast.DoWhile)):
            if not isinstance(st.stmt, c_ast.Compound) and self.rng.random() < 0.3:
                st.stmt = c_ast.Compound([st.stmt])
            self.sub(st.stmt, env, fctx, True, in_switch)
        elif isinstance(st, c_ast.Switch) and isinstance(st.stmt, c_ast.Compound):
            for it in st.stmt.block_items or []:
                if isinstance(it, (c_ast.Case, c_ast.Default)):
                    it.stmts = self.block(it.stmts or [], env, fctx, in_loop, True, True)
        elif isinstance(st, c_ast.Label):
            self.stmt(st.stmt, env, fctx, in_loop, in_switch)


def dead_code(ctx, items):
    rng = ctx.rng
    res = ctx.resolve(items)
    has_printf = 'printf' in res.file.ord
    # unused helper functions, sometimes called from dead branches
    helpers = []
    new_funcs = []
    for name, ret, params, code in rng.sample(HELPERS, rng.choice([1, 1, 2, 2, 3])):
        fname = ctx.ng.temp(name)
        fd = parse_snippet(code.replace('F(', fname + '(', 1))[0]
        new_funcs.append(fd)
        if params is not None and ret == 'int':
            helpers.append((fname, ret, params))
    # unused globals
    globals_env = []
    new_globals = []
    for _ in range(rng.choice([0, 0, 1, 2])):
        name = ctx.ng.temp(rng.choice(['counter', 'calls', 'rounds_seen', 'last_value', 'state']))
        new_globals.append(mk_decl(name, simple_type(['int']), None, storage=['static']))
        globals_env.append(DeadVar(name, INT_T, True, True, True))
        globals_env[-1].glob = True
    dc = DeadCoder(ctx, res, helpers, has_printf)
    env = list(globals_env)
    for it in items:
        if isinstance(it, c_ast.Decl) and it.name and not is_funcdecl(it) and \
                'extern' not in it.storage and it.name != 'player_name':
            env.append(var_entry(it, res))
        if isinstance(it, c_ast.FuncDef):
            fctx = {'ret': ret_type(it, res)}
            fenv = list(env)
            args = it.decl.type.args
            for p in (args.params if args is not None else []):
                if isinstance(p, c_ast.Decl) and p.name:
                    fenv.append(var_entry(p, res, param=True))
            body = it.body.block_items or []
            if rng.random() < 0.5:
                d, v = dc.dead_decl(fenv)
                body.insert(0, d)
            it.body.block_items = dc.block(body, fenv, fctx, False, False, False)
    out = list(items)
    first_fn = min([i for i, it in enumerate(out) if isinstance(it, c_ast.FuncDef)] or [len(out)])
    for g in new_globals:
        out.insert(rng.randint(0, first_fn), g)
    for f in new_funcs:
        out.insert(rng.randint(min(first_fn + len(new_globals), len(out)), len(out)), f)
    return out




# ---------------------------------------------------------------------------
# Level 5: loop and conditional forms
# ---------------------------------------------------------------------------

FLIP = {'<': '>=', '>=': '<', '>': '<=', '<=': '>', '==': '!=', '!=': '=='}
MIRROR = {'<': '>', '>': '<', '<=': '>=', '>=': '<=', '==': '==', '!=': '!='}


class Forms:
    def __init__(self, ctx, res):
        self.ctx = ctx
        self.rng = ctx.rng
        self.res = res
        self.kept = ctx.P.kept
        self.ce = ConstEval(res)

    def pure(self, e):
        return is_pure(e, self.res, self.kept)

    def int_like(self, e):
        t = expr_type(e, self.res)
        return t is not None and t[0] in ('b', 'p') and (t[0] == 'p' or t[1] != 'f64')

    def negate(self, c, depth=0):
        if isinstance(c, c_ast.UnaryOp) and c.op == '!':
            return c.expr
        if isinstance(c, c_ast.BinaryOp):
            if c.op in ('==', '!='):
                return B(FLIP[c.op], c.left, c.right)
            if c.op in ('<', '>', '<=', '>=') and self.int_like(c.left) and self.int_like(c.right):
                return B(FLIP[c.op], c.left, c.right)
            if c.op in ('&&', '||') and depth < 1:
                return B('||' if c.op == '&&' else '&&', self.negate(c.left, depth + 1),
                         self.negate(c.right, depth + 1))
        return U('!', c)

    # -- the passes, on every statement list -----------------------------
    def run(self, f):
        wrap_bodies(f.body)
        self.fret = ret_type(f, self.res)
        for owner, attr in reversed(block_lists(f.body)):
            items = getattr(owner, attr)
            setattr(owner, attr, self.block(items, attr == 'stmts'))

    def block(self, items, is_case):
        rng = self.rng
        out = []
        i = 0
        while i < len(items):
            st = items[i]
            nxt = items[i + 1] if i + 1 < len(items) else None
            # if (c) return a; return b;  ->  return c ? a : b;
            if (isinstance(st, c_ast.If) and st.iffalse is None and isinstance(nxt, c_ast.Return)
                    and rng.random() < 0.5):
                r = self.returns_ternary(st, nxt)
                if r is not None:
                    out.append(r)
                    i += 2
                    continue
            # x = e;  while (c) { ...; step; }  ->  for (x = e; c; step) { ... }
            if (isinstance(st, c_ast.While) and out and rng.random() < 0.6):
                f = self.while_to_for(out[-1], st)
                if f is not None:
                    out[-1] = f
                    i += 1
                    continue
            rep = self.one(st, items, i, out, is_case)
            out += rep
            i += 1
        return out

    def one(self, st, items, i, out, is_case):
        rng = self.rng
        if isinstance(st, c_ast.If):
            r = None
            if rng.random() < 0.6:
                r = self.if_ternary(st)
            if r is None and rng.random() < 0.65:
                r = self.chain_to_switch(st)
            if r is None and st.iffalse is None and rng.random() < 0.3:
                r = self.split_and(st)
            if r is None and st.iffalse is not None and not isinstance(st.iffalse, c_ast.If) \
                    and rng.random() < 0.45:
                st.cond = self.negate(st.cond)
                st.iftrue, st.iffalse = st.iffalse, st.iftrue
                r = st
            if r is None and rng.random() < 0.3:
                r = self.join_and(st)
            return [r if r is not None else st]
        if isinstance(st, (c_ast.If, c_ast.While, c_ast.DoWhile, c_ast.For)) and st.cond is not None:
            self.mirror_compares(st.cond, True)
        if isinstance(st, c_ast.Switch) and rng.random() < 0.6:
            r = self.switch_to_chain(st)
            if r is not None:
                return [r]
            return [st]
        if isinstance(st, (c_ast.Assignment, c_ast.Return, c_ast.Decl)) and rng.random() < 0.6:
            r = self.ternary_if(st, is_case and not out)
            if r is not None:
                return r
        if isinstance(st, (c_ast.UnaryOp, c_ast.Assignment)) and rng.random() < 0.5:
            r = self.incr_form(st)
            if r is not None:
                return [r]
        if isinstance(st, c_ast.For):
            if isinstance(st.next, (c_ast.UnaryOp, c_ast.Assignment)) and rng.random() < 0.4:
                r = self.incr_form(st.next)
                if r is not None:
                    st.next = r
            self.early_continue(st.stmt)
            if rng.random() < 0.45:
                r = self.for_to_while(st, items, i, is_case and not out)
                if r is not None:
                    return r
            return [st]
        if isinstance(st, c_ast.While):
            self.early_continue(st.stmt)
            if rng.random() < 0.25:
                return [c_ast.If(st.cond, c_ast.Compound([c_ast.DoWhile(copy.deepcopy(st.cond),
                                                                        st.stmt)]), None)]
            if rng.random() < 0.3:
                return [c_ast.For(None, st.cond, None, st.stmt)]
            return [st]
        if isinstance(st, c_ast.DoWhile):
            self.early_continue(st.stmt)
        if isinstance(st, c_ast.BinaryOp):
            return [st]
        if isinstance(st, (c_ast.If,)):
            return [st]
        self.mirror_compares(st)
        return [st]

    # -- comparisons ----------------------------------------------------
    def mirror_compares(self, st, cond=False):
        if not cond and isinstance(st, (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While,
                                        c_ast.DoWhile, c_ast.Switch, c_ast.Case, c_ast.Default,
                                        c_ast.Label)):
            return
        for n in walk(st):
            if isinstance(n, c_ast.BinaryOp) and n.op in MIRROR and self.rng.random() < 0.3 \
                    and self.pure(n.left) and self.pure(n.right) \
                    and not isinstance(n.right, c_ast.Constant) \
                    and not isinstance(n.left, c_ast.Constant):
                n.op = MIRROR[n.op]
                n.left, n.right = n.right, n.left

    # -- x++ / ++x / x += 1 / x = x + 1 ----------------------------------
    def incr_form(self, e):
        rng = self.rng
        if isinstance(e, c_ast.UnaryOp) and e.op in ('p++', '++', 'p--', '--'):
            if not pure_lvalue(e.expr, self.res, self.kept):
                return None
            plus = '+' in e.op
            t = expr_type(e.expr, self.res)
            if t is None or t[0] != 'b':
                choices = ['++', 'p++'] if plus else ['--', 'p--']
                return U(rng.choice(choices), e.expr)
            choice = rng.choice(['pre', 'post', 'comp', 'full'])
            if choice == 'pre':
                return U('++' if plus else '--', e.expr)
            if choice == 'post':
                return U('p++' if plus else 'p--', e.expr)
            if choice == 'comp':
                return A('+=' if plus else '-=', e.expr, K(1))
            return A('=', e.expr, B('+' if plus else '-', copy.deepcopy(e.expr), K(1)))
        if isinstance(e, c_ast.Assignment):
            if e.op in ('+=', '-=', '*=', '|=', '&=', '^=') and pure_lvalue(e.lvalue, self.res,
                                                                           self.kept):
                if e.op in ('+=', '-=') and isinstance(e.rvalue, c_ast.Constant) \
                        and e.rvalue.value == '1' and rng.random() < 0.5:
                    return U(('++' if e.op == '+=' else '--') if rng.random() < 0.5 else
                             ('p++' if e.op == '+=' else 'p--'), e.lvalue)
                t = expr_type(e.lvalue, self.res)
                if t is not None and t[0] == 'b' and t[2] != '_Bool':
                    return A('=', e.lvalue, B(e.op[0], copy.deepcopy(e.lvalue), e.rvalue))
            if e.op == '=' and isinstance(e.rvalue, c_ast.BinaryOp) and \
                    e.rvalue.op in ('+', '-', '*', '|', '&', '^') and \
                    pure_lvalue(e.lvalue, self.res, self.kept) and \
                    text_of(e.rvalue.left) == text_of(e.lvalue):
                t = expr_type(e.lvalue, self.res)
                if t is not None and t[0] == 'b' and t[2] != '_Bool':
                    return A(e.rvalue.op + '=', e.lvalue, e.rvalue.right)
        return None

    # -- if/else and ?: --------------------------------------------------
    def single(self, s):
        items = stmt_list(s)
        return items[0] if len(items) == 1 else None

    def if_ternary(self, st):
        if st.iffalse is None or isinstance(st.iffalse, c_ast.If):
            return None
        a, b = self.single(st.iftrue), self.single(st.iffalse)
        if isinstance(a, c_ast.Assignment) and isinstance(b, c_ast.Assignment) and \
                a.op == b.op == '=' and text_of(a.lvalue) == text_of(b.lvalue) and \
                pure_lvalue(a.lvalue, self.res, self.kept):
            if ternary_safe(expr_type(a.rvalue, self.res), expr_type(b.rvalue, self.res),
                            expr_type(a.lvalue, self.res)):
                return A('=', a.lvalue, c_ast.TernaryOp(st.cond, a.rvalue, b.rvalue))
        if isinstance(a, c_ast.Return) and isinstance(b, c_ast.Return) and a.expr is not None \
                and b.expr is not None:
            if ternary_safe(expr_type(a.expr, self.res), expr_type(b.expr, self.res), self.fret):
                return c_ast.Return(c_ast.TernaryOp(st.cond, a.expr, b.expr))
        return None

    def returns_ternary(self, st, nxt):
        a = self.single(st.iftrue)
        if isinstance(a, c_ast.Return) and a.expr is not None and nxt.expr is not None and \
                ternary_safe(expr_type(a.expr, self.res), expr_type(nxt.expr, self.res), self.fret):
            return c_ast.Return(c_ast.TernaryOp(st.cond, a.expr, nxt.expr))
        return None

    def ternary_if(self, st, first_in_case):
        """x = c ? a : b;  ->  if (c) x = a; else x = b;  (and for return and
        declarations)."""
        if isinstance(st, c_ast.Assignment) and st.op == '=' and \
                isinstance(st.rvalue, c_ast.TernaryOp) and \
                pure_lvalue(st.lvalue, self.res, self.kept):
            t = st.rvalue
            if ternary_safe(expr_type(t.iftrue, self.res), expr_type(t.iffalse, self.res),
                            expr_type(st.lvalue, self.res)):
                return [c_ast.If(t.cond, c_ast.Compound([A('=', st.lvalue, t.iftrue)]),
                                 c_ast.Compound([A('=', copy.deepcopy(st.lvalue), t.iffalse)]))]
        if isinstance(st, c_ast.Return) and isinstance(st.expr, c_ast.TernaryOp):
            t = st.expr
            if ternary_safe(expr_type(t.iftrue, self.res), expr_type(t.iffalse, self.res),
                            self.fret):
                return [c_ast.If(t.cond, c_ast.Compound([c_ast.Return(t.iftrue)]),
                                 c_ast.Compound([c_ast.Return(t.iffalse)]))]
        if isinstance(st, c_ast.Decl) and isinstance(st.init, c_ast.TernaryOp) and \
                isinstance(st.type, c_ast.TypeDecl) and not st.storage and \
                'const' not in st.type.quals and not first_in_case and st.name:
            t = st.init
            target = conv_type(st.type, self.res)
            if ternary_safe(expr_type(t.iftrue, self.res), expr_type(t.iffalse, self.res), target) \
                    and not mentions(t, {st.name}):
                st.init = None
                return [st, c_ast.If(t.cond, c_ast.Compound([A('=', mk_id(st.name), t.iftrue)]),
                                     c_ast.Compound([A('=', mk_id(st.name), t.iffalse)]))]
        return None

    def split_and(self, st):
        """if (a && b) S  ->  if (a) { if (b) S }"""
        if isinstance(st.cond, c_ast.BinaryOp) and st.cond.op == '&&':
            return c_ast.If(st.cond.left, c_ast.Compound([c_ast.If(st.cond.right, st.iftrue,
                                                                   None)]), None)
        return None

    def join_and(self, st):
        """if (a) { if (b) S }  ->  if (a && b) S"""
        if st.iffalse is not None:
            return None
        inner = self.single(st.iftrue)
        if isinstance(inner, c_ast.If) and inner.iffalse is None:
            return c_ast.If(B('&&', st.cond, inner.cond), inner.iftrue, None)
        return None

    # -- if chains and switch --------------------------------------------
    def case_test(self, c):
        """(subject text, subject, [constants]) for `v == K || v == K2 ...`."""
        if isinstance(c, c_ast.BinaryOp) and c.op == '||':
            l = self.case_test(c.left)
            r = self.case_test(c.right)
            if l is None or r is None or l[0] != r[0]:
                return None
            return (l[0], l[1], l[2] + r[2])
        if isinstance(c, c_ast.BinaryOp) and c.op == '==':
            for v, k in ((c.left, c.right), (c.right, c.left)):
                if self.ce.value(k) is not None and self.ce.value(v) is None and \
                        (isinstance(v, c_ast.ID) or isinstance(v, c_ast.StructRef)) and \
                        self.pure(v):
                    t = expr_type(v, self.res)
                    if t is not None and t[0] == 'b' and t[1] != 'f64':
                        return (text_of(v), v, [k])
        return None

    def chain_to_switch(self, st):
        arms = []
        cur = st
        subject = None
        while isinstance(cur, c_ast.If):
            t = self.case_test(cur.cond)
            if t is None or (subject is not None and t[0] != subject[0]):
                break
            if breaks_out(cur.iftrue):
                return None
            if subject is None:
                subject = t
            arms.append((t[2], cur.iftrue))
            cur = cur.iffalse
        if len(arms) < 2 or subject is None:
            return None
        if cur is not None and breaks_out(cur):
            return None
        vals = [self.ce.value(k) for ks, _ in arms for k in ks]
        if len(set(vals)) != len(vals):
            return None
        items = []
        for ks, body in arms:
            for k in ks[:-1]:
                items.append(c_ast.Case(k, []))
            items.append(c_ast.Case(ks[-1], [body if isinstance(body, c_ast.Compound) and
                                              top_declared(stmt_list(body)) else body,
                                              c_ast.Break()]))
        if cur is not None:
            items.append(c_ast.Default([cur, c_ast.Break()]))
        for it in items:
            if it.stmts and isinstance(it.stmts[0], c_ast.Compound) and \
                    not top_declared(stmt_list(it.stmts[0])):
                it.stmts = stmt_list(it.stmts[0]) + it.stmts[1:]
                if it.stmts and isinstance(it.stmts[0], c_ast.Decl):
                    it.stmts = [c_ast.Compound(it.stmts[:-1]), it.stmts[-1]]
        return c_ast.Switch(subject[1], c_ast.Compound(items))

    def switch_to_chain(self, st):
        v = st.cond
        if not (isinstance(v, (c_ast.ID, c_ast.StructRef)) and self.pure(v)) or \
                not isinstance(st.stmt, c_ast.Compound):
            return None
        groups = []
        labels = []
        for it in st.stmt.block_items or []:
            if not isinstance(it, (c_ast.Case, c_ast.Default)):
                return None
            if isinstance(it, c_ast.Default):
                labels.append(None)
            else:
                if self.ce.value(it.expr) is None:
                    return None
                labels.append(it.expr)
            if it.stmts:
                groups.append((labels, list(it.stmts)))
                labels = []
        if labels:
            groups.append((labels, []))
        if not groups:
            return None
        arms = []
        default = None
        for gi, (labs, stmts) in enumerate(groups):
            last = stmts[-1] if stmts else None
            if isinstance(last, c_ast.Break):
                stmts = stmts[:-1]
            elif gi != len(groups) - 1 and not isinstance(last, (c_ast.Return, c_ast.Continue,
                                                                 c_ast.Goto)):
                return None
            for s in stmts:
                if breaks_out(s):
                    return None
                if has_any(s, (c_ast.Case, c_ast.Default, c_ast.Label)):
                    return None
            if None in labs:
                default = stmts
            else:
                arms.append((labs, stmts))
        names = [top_declared(stmts) for _, stmts in arms] + [top_declared(default or [])]
        all_stmts = [stmts for _, stmts in arms] + [default or []]
        for i, ns in enumerate(names):
            for j, ss in enumerate(all_stmts):
                if i != j and ns and any(mentions(s, ns) for s in ss):
                    return None
        if not arms:
            return None
        chain = c_ast.Compound(default) if default is not None and default else None
        for labs, stmts in reversed(arms):
            cond = None
            for k in labs:
                t = B('==', copy.deepcopy(v), k)
                cond = t if cond is None else B('||', cond, t)
            chain = c_ast.If(cond, c_ast.Compound(stmts), chain)
        return chain

    # -- loops -----------------------------------------------------------
    def early_continue(self, body):
        """{ if (c) continue; rest }  <->  { if (!c) { rest } }"""
        if not isinstance(body, c_ast.Compound) or not body.block_items:
            return
        items = body.block_items
        rng = self.rng
        for k, st in enumerate(items):
            if isinstance(st, c_ast.If) and st.iffalse is None and \
                    isinstance(self.single(st.iftrue), c_ast.Continue) and k + 1 < len(items) \
                    and rng.random() < 0.5:
                rest = items[k + 1:]
                if any(has_any(s, c_ast.Label) for s in rest):
                    return
                body.block_items = items[:k] + [c_ast.If(self.negate(st.cond),
                                                         c_ast.Compound(rest), None)]
                return
        last = items[-1]
        if isinstance(last, c_ast.If) and last.iffalse is None and \
                isinstance(last.iftrue, c_ast.Compound) and \
                len(last.iftrue.block_items or []) >= 2 and rng.random() < 0.4:
            inner = last.iftrue.block_items
            if top_declared(inner) & (top_declared(items[:-1]) | declared_names(last.cond)):
                return
            if any(has_any(s, c_ast.Label) for s in inner):
                return
            body.block_items = items[:-1] + [c_ast.If(self.negate(last.cond),
                                                      c_ast.Compound([c_ast.Continue()]), None)] \
                + inner

    def for_to_while(self, st, items, i, first_in_case):
        body = st.stmt
        nxt = st.next
        if nxt is not None:
            names = {n.name for n in walk(nxt) if isinstance(n, c_ast.ID)}
            if declared_names(body) & names:
                return None
            places = own_continues(body)
            if places is None:
                return None
            for owner, attr, idx in reversed(places):
                rep = c_ast.Compound([copy.deepcopy(nxt), c_ast.Continue()])
                if idx is None:
                    setattr(owner, attr, rep)
                else:
                    lst = getattr(owner, attr)
                    lst[idx:idx + 1] = [copy.deepcopy(nxt), c_ast.Continue()] \
                        if isinstance(owner, (c_ast.Compound, c_ast.Case, c_ast.Default)) else [rep]
            if isinstance(body, c_ast.Compound):
                new_body = c_ast.Compound(list(body.block_items or []) + [nxt])
            else:
                new_body = c_ast.Compound([body, nxt])
        else:
            new_body = body
        w = c_ast.While(st.cond if st.cond is not None else K(1), new_body)
        if isinstance(st.init, c_ast.DeclList):
            decls = st.init.decls
            dn = {d.name for d in decls}
            later = items[i + 1:]
            if not first_in_case and not (dn & top_declared(items)) and \
                    not any(mentions(x, dn) for x in later) and self.rng.random() < 0.6:
                return decls + [w]
            return [c_ast.Compound(decls + [w])]
        if st.init is not None:
            return [st.init, w]
        return [w]

    def while_to_for(self, prev, st):
        """x = e; while (c) { ...; x++; }  ->  for (x = e; c; x++) { ... }"""
        if not isinstance(prev, c_ast.Assignment) or not isinstance(st.stmt, c_ast.Compound):
            return None
        items = st.stmt.block_items or []
        if len(items) < 2:
            return None
        last = items[-1]
        if not isinstance(last, (c_ast.UnaryOp, c_ast.Assignment)):
            return None
        target = last.expr if isinstance(last, c_ast.UnaryOp) else last.lvalue
        if not isinstance(target, c_ast.ID) or text_of(prev.lvalue) != target.name:
            return None
        if isinstance(last, c_ast.UnaryOp) and last.op not in ('++', 'p++', '--', 'p--'):
            return None
        if own_continues(st.stmt) or has_any(st.stmt, c_ast.Label):
            return None
        if declared_names(st.stmt) & {target.name}:
            return None
        return c_ast.For(prev, st.cond, last, c_ast.Compound(items[:-1]))


def control_forms(ctx, items):
    for f in func_defs(items):
        res = ctx.resolve(items)
        Forms(ctx, res).run(f)
    return items



# ---------------------------------------------------------------------------
# Level 6: splitting and merging functions
# ---------------------------------------------------------------------------

def array_typedef(t, res, depth=0):
    """Whether t names an array type through a typedef (a parameter of such
    a type is really a pointer)."""
    if depth > 20 or not isinstance(t, c_ast.TypeDecl) or \
            not isinstance(t.type, c_ast.IdentifierType):
        return False
    s = res.ref.get(id(t.type))
    if s is None or s.kind != 'typedef':
        return False
    return isinstance(s.type, c_ast.ArrayDecl) or array_typedef(s.type, res, depth + 1)


def local_type_refs(node, res, func):
    """Whether node names a type, tag or constant local to func."""
    for n in walk(node):
        s = res.ref.get(id(n))
        if s is not None and s.func is func and s.kind in ('typedef', 'tag', 'enumconst'):
            return True
    return False


def extract_candidates(items, res, ctx):
    out = []
    for f in func_defs(items):
        if id(f) in ctx.made:
            continue
        for owner, attr in block_lists(f.body):
            lst = getattr(owner, attr)
            n = len(lst)
            for i in range(n):
                for j in range(i + 1, min(n, i + 4) + 1):
                    seg = lst[i:j]
                    size = sum(1 for st in seg for _ in walk(st))
                    if size < 12:
                        continue
                    if j - i == 1 and not isinstance(seg[0], (c_ast.For, c_ast.While,
                                                             c_ast.DoWhile, c_ast.If,
                                                             c_ast.Switch, c_ast.Compound)):
                        continue
                    if any(isinstance(st, (c_ast.Decl, c_ast.Typedef, c_ast.Case, c_ast.Default,
                                           c_ast.Label, c_ast.Pragma)) for st in seg):
                        continue
                    if owner is f.body and j - i == n:
                        continue
                    c = check_segment(f, seg, res, ctx)
                    if c is not None:
                        out.append((f, owner, attr, i, j, c, size))
    return out


def check_segment(f, seg, res, ctx):
    """The free local variables of seg, in order, or None when seg cannot
    become a function of its own."""
    inside = set()
    for st in seg:
        for n in walk(st):
            if isinstance(n, (c_ast.Return, c_ast.Goto, c_ast.Label)):
                return None
            if isinstance(n, (c_ast.Decl, c_ast.Typedef, c_ast.Enumerator)):
                inside.add(id(n))
        if escapes(st):
            return None
    free = []
    for st in seg:
        for n in walk(st):
            if isinstance(n, c_ast.ID) and id(n) in res.macro_refs:
                if any(x.func is f for x in res.macro_refs[id(n)]):
                    return None
            s = res.ref.get(id(n))
            if s is None or s.func is not f or id(s.node) in inside:
                continue
            if s.kind in ('typedef', 'tag', 'enumconst', 'func'):
                return None
            if s.kind not in ('var', 'param'):
                return None
            if s not in free:
                if 'register' in (s.storage or []) or 'extern' in (s.storage or []):
                    return None
                if isinstance(s.type, c_ast.FuncDecl) or local_type_refs(s.type, res, f):
                    return None
                if s.kind == 'param' and array_typedef(s.type, res):
                    return None
                for t in walk(s.type):
                    if isinstance(t, c_ast.ArrayDecl) and t.dim is not None and \
                            ConstEval(res).value(t.dim) is None and \
                            any(isinstance(x, c_ast.ID) and res.sym_of(x) is not None and
                                res.sym_of(x).kind in ('var', 'param') for x in walk(t.dim)):
                        return None
                free.append(s)
    return free


def do_extract(cand, items, ctx):
    f, owner, attr, i, j, free, _ = cand
    ng = ctx.ng
    lst = getattr(owner, attr)
    seg = lst[i:j]
    hint = '_'.join(split_words(f.decl.name)[:2] + [ctx.rng.choice(
        ['part', 'step', 'loop', 'inner', 'update', 'scan', 'work', 'pass', 'stage'])])
    hname = ng.temp(hint)
    params = []
    pname = {}
    for s in free:
        words = split_words(s.name) or ['value']
        pn = ng.temp('_'.join(words + [ctx.rng.choice(['', '', 'ptr', 'ref', 'p'])]).strip('_'))
        pname[id(s)] = pn
        t = copy.deepcopy(s.type)
        if s.kind == 'param' and isinstance(t, c_ast.ArrayDecl):
            t = c_ast.PtrDecl(list(t.dim_quals or []), t.type)
        params.append(mk_decl(pn, c_ast.PtrDecl([], t)))
    res = ctx.res_cache
    uses = {}
    for st in seg:
        for n in walk(st):
            s = res.ref.get(id(n))
            if isinstance(n, c_ast.ID) and s is not None and id(s) in pname:
                uses[id(n)] = pname[id(s)]

    def fix(n):
        if isinstance(n, c_ast.ID) and id(n) in uses:
            return U('*', mk_id(uses[id(n)]))
        return None
    body = [replace_nodes(st, fix) for st in seg]
    if params:
        plist = c_ast.ParamList(params)
    else:
        plist = c_ast.ParamList([c_ast.Typename(None, [], None, simple_type(['void']))])
    fdecl = c_ast.FuncDecl(plist, c_ast.TypeDecl(hname, [], None, c_ast.IdentifierType(['void'])))
    helper = c_ast.FuncDef(c_ast.Decl(hname, [], [], ['static'], [], fdecl, None, None), None,
                           c_ast.Compound(body))
    args = c_ast.ExprList([U('&', mk_id(s.name)) for s in free]) if free else None
    call = c_ast.FuncCall(mk_id(hname), args)
    lst[i:j] = [call]
    ctx.made.add(id(helper))
    ctx.keep.append(helper)
    k = items.index(f)
    return items[:k] + [helper] + items[k:]


def dummy_arg(p, res):
    t = conv_type(p.type, res)
    if t is None:
        return None
    if t[0] in ('b', 'p'):
        return K(0)
    if t[0] == 's':
        tt = copy.deepcopy(p.type)
        td = innermost_typedecl(tt)
        td.declname = None
        return c_ast.CompoundLiteral(c_ast.Typename(None, [], None, tt), c_ast.InitList([K(0)]))
    return None


def merge_pair(items, res, ctx):
    """Merges two functions of one return type into one with a selector
    argument; returns the new items or None."""
    rng = ctx.rng
    calls = {}
    other_use = set()
    for it in items:
        for n in walk(it):
            if isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID):
                s = res.ref.get(id(n.name))
                if s is not None:
                    calls.setdefault(id(s), []).append(n)
        call_names = {id(n.name) for n in walk(it) if isinstance(n, c_ast.FuncCall)}
        for n in walk(it):
            if isinstance(n, c_ast.ID) and id(n) not in call_names:
                s = res.ref.get(id(n))
                if s is not None and s.kind == 'func':
                    other_use.add(id(s))
    cands = []
    for f in func_defs(items):
        s = res.file.ord.get(f.decl.name)
        args = f.decl.type.args
        params = [] if args is None else [p for p in args.params if isinstance(p, c_ast.Decl)]
        if s is None or s.origin != 'src' or f.decl.name in NEVER_RENAME or id(s) in other_use:
            continue
        if args is not None and any(isinstance(p, (c_ast.ID, c_ast.EllipsisParam))
                                    for p in args.params):
            continue
        if f.param_decls or has_any(f.body, c_ast.Label):
            continue
        if any(dummy_arg(p, res) is None for p in params):
            continue
        bad = False
        for c in calls.get(id(s), []):
            exprs = c.args.exprs if c.args is not None else []
            if len(exprs) != len(params) or \
                    sum(1 for e in exprs if not is_pure(e, res, ctx.P.kept)) > 1:
                bad = True
        if bad:
            continue
        rt = _GEN._generate_type(f.decl.type.type, emit_declname=False).strip()
        cands.append((f, s, params, rt))
    pairs = [(a, b) for x, a in enumerate(cands) for b in cands[x + 1:] if a[3] == b[3]]
    if not pairs:
        return None
    (f, fs, fp, rt), (g, gs, gp, _) = rng.choice(pairs)
    if rng.random() < 0.5:
        (f, fs, fp), (g, gs, gp) = (g, gs, gp), (f, fs, fp)
    ng = ctx.ng
    # fresh parameter names: the two bodies now share one scope of parameters
    for fn, ps in ((f, fp), (g, gp)):
        for p in ps:
            for s in res.funcs.get(id(fn), []):
                if s.node is p:
                    apply_name(s.occ, ng.temp('_'.join(split_words(p.name)) or 'arg'))
    sel = ng.temp(rng.choice(['which', 'mode', 'kind', 'op', 'what', 'action', 'variant']))
    words = split_words(f.decl.name)[-1:] + split_words(g.decl.name)[-1:]
    mname = ng.temp('_'.join([rng.choice(['do', 'handle', 'run', 'process'])] + words))
    vf, vg = rng.choice([(0, 1), (1, 0), (1, 2), (0, 2)])
    sel_first = rng.random() < 0.6
    sel_decl = mk_decl(sel, simple_type(['int']))
    plist = fp + gp
    plist = [sel_decl] + plist if sel_first else plist + [sel_decl]
    rtype = copy.deepcopy(f.decl.type.type)
    fdecl = c_ast.FuncDecl(c_ast.ParamList(plist), rtype)
    decl = c_ast.Decl(mname, [], [], ['static'], [], fdecl, None, None)
    set_decl_name(decl, mname)
    if rng.random() < 0.5:
        body = c_ast.If(B('==', mk_id(sel), K(vf)), f.body, g.body)
    else:
        body = c_ast.If(B('!=', mk_id(sel), K(vf)), g.body, f.body)
    merged = c_ast.FuncDef(decl, None, c_ast.Compound([body]))
    fdum = [dummy_arg(p, res) for p in fp]
    gdum = [dummy_arg(p, res) for p in gp]
    for which, sym, val in ((0, fs, vf), (1, gs, vg)):
        for c in calls.get(id(sym), []):
            exprs = list(c.args.exprs) if c.args is not None else []
            if which == 0:
                new = exprs + [copy.deepcopy(d) for d in gdum]
            else:
                new = [copy.deepcopy(d) for d in fdum] + exprs
            new = [K(val)] + new if sel_first else new + [K(val)]
            c.name = mk_id(mname)
            c.args = c_ast.ExprList(new)
    out = []
    for it in items:
        if it is f:
            out.append(merged)
        elif it is g:
            continue
        elif is_funcdecl(it) and it.name in (f.decl.name, g.decl.name):
            continue
        else:
            out.append(it)
    return out


def inline_once(items, res, ctx):
    """Inlines a void function called once, as a statement, into its caller;
    returns the new items or None."""
    calls = {}
    addr = set()
    for it in items:
        call_names = {id(n.name) for n in walk(it) if isinstance(n, c_ast.FuncCall)}
        for n in walk(it):
            if isinstance(n, c_ast.ID):
                s = res.ref.get(id(n))
                if s is not None and s.kind == 'func':
                    if id(n) in call_names:
                        calls.setdefault(id(s), []).append(n)
                    else:
                        addr.add(id(s))
    # where each call statement stands
    places = {}
    for f in func_defs(items):
        for owner, attr in block_lists(f.body):
            for i, st in enumerate(getattr(owner, attr)):
                if isinstance(st, c_ast.FuncCall) and isinstance(st.name, c_ast.ID):
                    places[id(st.name)] = (f, owner, attr, i, st)
    cands = []
    for g in func_defs(items):
        s = res.file.ord.get(g.decl.name)
        if s is None or s.origin != 'src' or g.decl.name in NEVER_RENAME or id(s) in addr:
            continue
        if ret_type(g, res) != ('v',) or g.param_decls or has_any(g.body, c_ast.Label):
            continue
        cs = calls.get(id(s), [])
        if len(cs) != 1 or id(cs[0]) not in places:
            continue
        caller, owner, attr, i, st = places[id(cs[0])]
        if caller is g:
            continue
        rets = [n for n in walk(g.body) if isinstance(n, c_ast.Return)]
        body = list(g.body.block_items or [])
        if rets and not (len(rets) == 1 and body and body[-1] is rets[0]):
            continue
        args = g.decl.type.args
        params = [] if args is None else [p for p in args.params if isinstance(p, c_ast.Decl)]
        if args is not None and any(isinstance(p, (c_ast.ID, c_ast.EllipsisParam))
                                    for p in args.params):
            continue
        if any(array_typedef(p.type, res) or isinstance(p.type, c_ast.FuncDecl)
               for p in params):
            continue
        exprs = st.args.exprs if st.args is not None else []
        if len(exprs) != len(params) or \
                sum(1 for e in exprs if not is_pure(e, res, ctx.P.kept)) > 1:
            continue
        # the globals g uses must not be hidden by the caller's locals
        local_names = {x.name for x in res.funcs.get(id(caller), [])}
        used = {n.name for n in walk(g.body) if isinstance(n, c_ast.ID)}
        used |= {nm for n in walk(g.body) if isinstance(n, c_ast.IdentifierType) for nm in n.names}
        used |= {n.name for n in walk(g.body) if isinstance(n, (c_ast.Struct, c_ast.Union,
                                                                c_ast.Enum)) and n.name}
        for p in params:
            for n in walk(p.type):
                if isinstance(n, c_ast.IdentifierType):
                    used |= set(n.names)
                elif isinstance(n, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and n.name:
                    used.add(n.name)
                elif isinstance(n, c_ast.ID):
                    used.add(n.name)
        if used & local_names or any(id(n) in res.macro_refs for n in walk(g.body)
                                     if isinstance(n, c_ast.ID)):
            continue
        if len(list(walk(g.body))) > 400:
            continue
        cands.append((g, s, params, caller, owner, attr, i, st, body, rets))
    if not cands:
        return None
    g, s, params, caller, owner, attr, i, st, body, rets = ctx.rng.choice(cands)
    if rets:
        body = body[:-1]
    decls = []
    exprs = st.args.exprs if st.args is not None else []
    for p, e in zip(params, exprs):
        for ps in res.funcs.get(id(g), []):
            if ps.node is p:
                apply_name(ps.occ, ctx.ng.temp('_'.join(split_words(p.name)) or 'arg'))
        t = p.type
        if isinstance(t, c_ast.ArrayDecl):
            t = c_ast.PtrDecl(list(t.dim_quals or []), t.type)
        d = mk_decl(p.name, t, e)
        decls.append(d)
    lst = getattr(owner, attr)
    lst[i] = c_ast.Compound(decls + body)
    return [it for it in items if it is not g and not (is_funcdecl(it) and it.name == g.decl.name)]


def split_merge(ctx, items):
    rng = ctx.rng
    for _ in range(rng.choice([1, 2, 2, 3])):
        res = ctx.resolve(items)
        ctx.res_cache = res
        cands = extract_candidates(items, res, ctx)
        if not cands:
            break
        # middle-sized pieces look most like a person's refactoring
        weights = [1.0 / (1 + abs(c[6] - 40) / 20.0) for c in cands]
        cand = rng.choices(cands, weights)[0]
        items = do_extract(cand, items, ctx)
    if rng.random() < 0.5:
        res = ctx.resolve(items)
        items = inline_once(items, res, ctx) or items
    for _ in range(rng.choice([1, 1, 2])):
        res = ctx.resolve(items)
        merged = merge_pair(items, res, ctx)
        if merged is None:
            break
        items = merged
    return items





# ---------------------------------------------------------------------------
# Level 7: equivalent forms, nearly everywhere
# ---------------------------------------------------------------------------

class Equivalent(Forms):
    """Only rewrites that mean the same and that a normaliser may undo:
    x++ / ++x / x += 1 / x = x + 1, a < b / b > a, for / while, and the arms
    of if chains testing one variable against distinct constants shuffled.
    Applied at RATE, so a copy keeps little of the original's forms."""
    RATE = 0.8

    def block(self, items, is_case):
        out = []
        i = 0
        while i < len(items):
            st = items[i]
            if isinstance(st, c_ast.While) and out and self.rng.random() < self.RATE:
                f = self.while_to_for(out[-1], st)
                if f is not None:
                    self.mirror_all(f.cond)
                    out[-1] = f
                    i += 1
                    continue
            out += self.one(st, items, i, out, is_case)
            i += 1
        return out

    def one(self, st, items, i, out, is_case):
        rng = self.rng
        if isinstance(st, c_ast.If):
            self.mirror_all(st.cond)
            r = self.shuffle_chain(st)
            return [r if r is not None else st]
        if isinstance(st, (c_ast.While, c_ast.DoWhile, c_ast.For)) and st.cond is not None:
            self.mirror_all(st.cond)
        if isinstance(st, (c_ast.UnaryOp, c_ast.Assignment)) and rng.random() < self.RATE:
            r = self.incr_form(st)
            if r is not None:
                return [r]
        if isinstance(st, c_ast.For):
            if isinstance(st.next, (c_ast.UnaryOp, c_ast.Assignment)) and \
                    rng.random() < self.RATE:
                r = self.incr_form(st.next)
                if r is not None:
                    st.next = r
            if rng.random() < 0.5:
                r = self.for_to_while(st, items, i, is_case and not out)
                if r is not None:
                    return r
            return [st]
        if isinstance(st, c_ast.While) and rng.random() < 0.3:
            return [c_ast.For(None, st.cond, None, st.stmt)]
        if not isinstance(st, STMT_HOLDERS):
            self.mirror_all(st)
        return [st]

    def mirror_all(self, node):
        """a < b -> b > a for pure operands, constants included (not both)."""
        for n in walk(node):
            if isinstance(n, c_ast.BinaryOp) and n.op in ('<', '>', '<=', '>=') and \
                    self.rng.random() < self.RATE and self.pure(n.left) and \
                    self.pure(n.right) and not (isinstance(n.left, c_ast.Constant) and
                                                isinstance(n.right, c_ast.Constant)):
                n.op = MIRROR[n.op]
                n.left, n.right = n.right, n.left

    def shuffle_chain(self, st):
        """if (v == A) X else if (v == B) Y ... [else Z]: the tested arms in
        another order (they exclude each other), the plain else last."""
        arms = []
        cur = st
        subject = None
        while isinstance(cur, c_ast.If):
            t = self.case_test(cur.cond)
            if t is None or (subject is not None and t[0] != subject):
                break
            subject = t[0]
            arms.append((cur.cond, cur.iftrue))
            cur = cur.iffalse
        if len(arms) < 2 or (cur is not None and isinstance(cur, c_ast.If)):
            return None
        vals = [self.ce.value(k) for c, _ in arms for k in self.case_test(c)[2]]
        if None in vals or len(set(vals)) != len(vals):
            return None
        order = list(range(len(arms)))
        while order == sorted(order):
            self.rng.shuffle(order)
        chain = cur
        for j in reversed(order):
            chain = c_ast.If(arms[j][0], arms[j][1], chain)
        return chain


def equivalent_forms(ctx, items):
    for f in func_defs(items):
        Equivalent(ctx, ctx.resolve(items)).run(f)
    return items


# ---------------------------------------------------------------------------
# Level 8: one function (with what it needs) copied into another player
# ---------------------------------------------------------------------------

def code_size(items):
    gen = c_generator.CGenerator()
    return sum(len(c_tokens(gen.visit(it))) for it in items)


def closures(items, res, kept):
    """For each function but play: the groups it needs (its own, and those
    defining what it uses, transitively), as indexes into the groups."""
    groups = group_items(items)
    defined_in = {}
    for i, g in enumerate(groups):
        for s in item_defs(g, res):
            defined_in.setdefault(id(s), []).append(i)
    out = {}
    for i, g in enumerate(groups):
        f = g[0]
        if not isinstance(f, c_ast.FuncDef) or f.decl.name == 'main':
            continue
        need, todo = set(), [i]
        while todo:
            j = todo.pop()
            if j in need:
                continue
            need.add(j)
            for s in file_syms_in(groups[j], res, kept):
                todo += defined_in.get(id(s), [])
        if any(isinstance(groups[j][0], c_ast.FuncDef) and groups[j][0].decl.name ==
               'main' or (isinstance(groups[j][0], c_ast.Decl) and
                          groups[j][0].name == 'player_name') for j in need):
            continue
        out[f.decl.name] = sorted(need)
    return groups, out


def pick_fragment(items, res, kept, host_size, rng):
    """The function whose copy (with what it needs) comes closest, as a
    ratio, to a quarter of the host with it in, and is at least half that
    (play() too: a copier renames it)."""
    groups, cl = closures(items, res, kept)
    if not cl:
        raise Fail('no function to copy')
    target = host_size / 3.0
    size = {name: code_size([x for j in need for x in groups[j]]) for name, need in cl.items()}
    # a helper of a few lines is no copied function: at least half the target
    big = [n for n in size if size[n] >= target / 2] or [max(size, key=lambda n: size[n])]
    sized = sorted((abs(math.log(size[n] / target)), n) for n in big)
    best = [n for d, n in sized if d <= sized[0][0] + 0.05]
    name = rng.choice(best)
    if os.environ.get('DISGUISE_DEBUG'):
        sys.stderr.write('partial copy of %s: %s\n' % (name, ', '.join(
            '%s %.2f' % (n, d) for d, n in sized)))
    return [x for j in cl[name] for x in groups[j]]


def macros_used(kept, text):
    """The kept macros (by their new names) that text or their bodies use."""
    ids = {t for k, t in c_tokens(text) if k == 'id'}
    want, grew = set(), True
    while grew:
        grew = False
        for m in kept.values():
            new = getattr(m, 'newname', m.name)
            if new in ids and m.name not in want:
                want.add(m.name)
                ids |= {t for k, t in c_tokens(macro_define_line(m)) if k == 'id'}
                grew = True
    return [m for m in kept.values() if m.name in want]


def host_names(host):
    src = Source(host)
    return {t for k, t in c_tokens(src.stripped) if k == 'id'}


def partial_copy(ctx, P, src, items, host, resolve, style, fn, new_player):
    """The host's text with the picked function appended, renamed and laid
    out as a copier would (and the includes it needs put first)."""
    res = resolve(items)
    hsize = len(c_tokens(Source(host).stripped))
    part = pick_fragment(items, res, P.kept, hsize, ctx.rng)
    rename_all(P, resolve(items), ctx.ng, ctx.rng)
    em = Emitter(style, ctx.rng, {}, fn, new_player, [], [])
    body = em.file_text(part, [])
    if re.search(r'\bplay\b', body):    # the host has its own
        body = re.sub(r'\bplay\b', ctx.ng.fresh('play', 'func'), body)
    lines = [macro_define_line(m) for m in macros_used(P.kept, body)]
    have = set(re.findall(r'#\s*include\s*([<"][^>"]+[>"])', host))
    need = [t for t in prologue_lines(src, P) if t.startswith('#include') and
            re.sub(r'#\s*include\s*', '', t).strip() not in have]
    top = '\n'.join(need) + '\n' if need else ''
    return top + host.rstrip('\n') + '\n\n' + '\n'.join(lines + [''] if lines else []) + body


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
