// A small reader for the Go that kustomize's krusty tests are written in: a tokenizer (with Go's
// automatic semicolons), a parser for the statements and expressions those tests use, and nothing
// else. The interpreter (krusty-cases.ts) walks the tree; anything outside this subset is a parse
// error that names what was met, so a case is reported as unreadable rather than read wrongly.

export type Token =
  | { t: 'ident'; v: string; line: number }
  | { t: 'string'; v: string; line: number }
  | { t: 'number'; v: number; line: number }
  | { t: 'char'; v: string; line: number }
  | { t: 'op'; v: string; line: number }
  | { t: 'eof'; v: ''; line: number };

const OPERATORS = [
  '...',
  '&^=',
  '<<=',
  '>>=',
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '<-',
  '<<',
  '>>',
  '&^',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  ';',
  '.',
  ':',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '<',
  '>',
  '=',
  '!',
];

export function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  const endsStatement = (): boolean => {
    const last = out[out.length - 1];
    if (!last) return false;
    if (last.t === 'ident')
      return (
        ![
          'func',
          'if',
          'for',
          'else',
          'switch',
          'case',
          'package',
          'import',
          'var',
          'const',
          'type',
          'struct',
          'map',
          'range',
          'go',
          'defer',
          'select',
          'chan',
          'interface',
          'default',
        ].includes(last.v) ||
        ['return', 'break', 'continue', 'fallthrough'].includes(last.v) ||
        last.v === 'return'
      );
    if (last.t === 'string' || last.t === 'number' || last.t === 'char') return true;
    return last.t === 'op' && [')', ']', '}', '++', '--'].includes(last.v);
  };
  while (i < source.length) {
    const c = source[i];
    if (c === '\n') {
      if (endsStatement()) out.push({ t: 'op', v: ';', line });
      line += 1;
      i += 1;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i += 1;
      continue;
    }
    if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') i += 1;
      continue;
    }
    if (source.startsWith('/*', i)) {
      const end = source.indexOf('*/', i + 2);
      const text = source.slice(i, end + 2);
      const newlines = text.split('\n').length - 1;
      if (newlines > 0 && endsStatement()) out.push({ t: 'op', v: ';', line });
      line += newlines;
      i = end + 2;
      continue;
    }
    if (c === '`') {
      const end = source.indexOf('`', i + 1);
      const text = source.slice(i + 1, end).replace(/\r/g, '');
      out.push({ t: 'string', v: text, line });
      line += text.split('\n').length - 1;
      i = end + 1;
      continue;
    }
    if (c === '"' || c === "'") {
      let j = i + 1;
      let text = '';
      while (source[j] !== c) {
        if (source[j] === '\\') {
          const e = source[j + 1];
          const simple: Record<string, string> = {
            n: '\n',
            t: '\t',
            r: '\r',
            '\\': '\\',
            '"': '"',
            "'": "'",
            a: '\x07',
            b: '\b',
            f: '\f',
            v: '\v',
            '0': '\0',
          };
          if (e === 'x') {
            text += String.fromCharCode(parseInt(source.slice(j + 2, j + 4), 16));
            j += 4;
          } else if (e === 'u') {
            text += String.fromCodePoint(parseInt(source.slice(j + 2, j + 6), 16));
            j += 6;
          } else if (e === 'U') {
            text += String.fromCodePoint(parseInt(source.slice(j + 2, j + 10), 16));
            j += 10;
          } else if (/[0-7]/.test(e) && /[0-7]{3}/.test(source.slice(j + 1, j + 4))) {
            text += String.fromCharCode(parseInt(source.slice(j + 1, j + 4), 8));
            j += 4;
          } else {
            text += simple[e] ?? e;
            j += 2;
          }
        } else {
          text += source[j];
          j += 1;
        }
      }
      out.push(c === '"' ? { t: 'string', v: text, line } : { t: 'char', v: text, line });
      i = j + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i, i + 200))!;
      out.push({ t: 'ident', v: m[0], line });
      i += m[0].length;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^(0[xX][0-9a-fA-F_]+|[0-9_]+(\.[0-9]+)?)/.exec(source.slice(i, i + 100))!;
      out.push({ t: 'number', v: Number(m[0].replace(/_/g, '')), line });
      i += m[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new Error(`line ${line}: unexpected character ${JSON.stringify(c)}`);
    out.push({ t: 'op', v: op, line });
    i += op.length;
  }
  if (endsStatement()) out.push({ t: 'op', v: ';', line });
  out.push({ t: 'eof', v: '', line });
  return out;
}

export type Expr =
  | { e: 'lit'; v: string | number | boolean | null }
  | { e: 'ident'; name: string }
  | { e: 'sel'; x: Expr; name: string }
  | { e: 'call'; fn: Expr; args: Expr[]; spread: boolean; line: number }
  | { e: 'index'; x: Expr; index: Expr }
  | { e: 'slice'; x: Expr; lo?: Expr; hi?: Expr }
  | { e: 'unary'; op: string; x: Expr }
  | { e: 'binary'; op: string; x: Expr; y: Expr }
  | { e: 'composite'; type: TypeExpr | undefined; elements: { key?: Expr; keyName?: string; value: Expr }[] }
  | { e: 'func'; params: string[]; results: string[]; body: Stmt[] }
  | { e: 'type'; type: TypeExpr };

export type TypeExpr =
  | { kind: 'named'; name: string }
  | { kind: 'slice'; of: TypeExpr }
  | { kind: 'map'; value: TypeExpr }
  | { kind: 'struct' }
  | { kind: 'other' };

export type Stmt =
  | { s: 'expr'; x: Expr; line: number }
  | { s: 'define'; names: string[]; values: Expr[]; line: number }
  | { s: 'assign'; targets: Expr[]; op: string; values: Expr[]; line: number }
  | { s: 'var'; names: string[]; values: Expr[]; line: number }
  | { s: 'if'; init?: Stmt; cond: Expr; then: Stmt[]; else?: Stmt[]; line: number }
  | { s: 'range'; key?: string; value?: string; x: Expr; body: Stmt[]; line: number }
  | { s: 'for'; init?: Stmt; cond?: Expr; post?: Stmt; body: Stmt[]; line: number }
  | { s: 'return'; values: Expr[]; line: number }
  | { s: 'block'; body: Stmt[]; line: number }
  | { s: 'incdec'; x: Expr; line: number }
  | { s: 'unsupported'; what: string; line: number };

export interface FuncDecl {
  name: string;
  params: string[];
  /** Named results, which a bare `return` returns. */
  results: string[];
  body: Stmt[];
  line: number;
}

export interface GoFile {
  funcs: FuncDecl[];
  consts: { name: string; value: Expr }[];
  types: Set<string>;
}

export function parseGoFile(source: string): GoFile {
  return new Parser(tokenize(source)).file();
}

class Parser {
  private pos = 0;
  private noLit = 0;
  readonly types = new Set<string>(['string', 'int', 'bool', 'byte', 'error', 'any']);

  constructor(private readonly tokens: Token[]) {}

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
  }
  private next(): Token {
    return this.tokens[this.pos++];
  }
  private is(v: string, offset = 0): boolean {
    const token = this.peek(offset);
    return (token.t === 'op' || token.t === 'ident') && token.v === v;
  }
  private accept(v: string): boolean {
    if (!this.is(v)) return false;
    this.pos += 1;
    return true;
  }
  private expect(v: string): void {
    if (!this.accept(v))
      throw new Error(`line ${this.peek().line}: expected "${v}", found ${JSON.stringify(this.peek().v)}`);
  }
  private ident(): string {
    const token = this.next();
    if (token.t !== 'ident') throw new Error(`line ${token.line}: expected a name, found ${JSON.stringify(token.v)}`);
    return token.v;
  }
  private skipSemis(): void {
    while (this.accept(';'));
  }

  file(): GoFile {
    const funcs: FuncDecl[] = [];
    const consts: { name: string; value: Expr }[] = [];
    // Collect type names first: `T{` is a composite literal only for types.
    for (let i = 0; i < this.tokens.length - 1; i++) {
      if (this.tokens[i].v === 'type' && this.tokens[i + 1].t === 'ident') this.types.add(String(this.tokens[i + 1].v));
    }
    this.skipSemis();
    while (this.peek().t !== 'eof') {
      if (this.accept('package')) this.ident();
      else if (this.accept('import')) {
        if (this.accept('(')) while (!this.accept(')')) this.next();
        else {
          if (this.peek().t === 'ident') this.next();
          this.next();
        }
      } else if (this.is('const') || this.is('var')) {
        const stmt = this.varDecl();
        if (stmt.s === 'var')
          stmt.names.forEach((name, i) => consts.push({ name, value: stmt.values[i] ?? { e: 'lit', v: null } }));
      } else if (this.accept('type')) {
        this.ident();
        this.type();
      } else if (this.accept('func')) {
        const line = this.peek().line;
        if (this.is('(')) throw new Error(`line ${line}: methods are not read`);
        const name = this.ident();
        const params = this.params();
        const results = this.results();
        funcs.push({ name, params, results, body: this.block(), line });
      } else throw new Error(`line ${this.peek().line}: unexpected ${JSON.stringify(this.peek().v)} at top level`);
      this.skipSemis();
    }
    return { funcs, consts, types: this.types };
  }

  private params(): string[] {
    this.expect('(');
    const names: string[] = [];
    let pending: string[] = [];
    while (!this.accept(')')) {
      // `a, b string` or `t *testing.T` or an unnamed type.
      if (this.peek().t === 'ident' && (this.is(',', 1) || this.is(')', 1))) {
        pending.push(this.ident());
        if (this.accept(',')) continue;
        // A lone name before ')' is a type (unnamed parameter).
        names.push(...pending.slice(0, -1));
        pending = [];
        continue;
      }
      if (this.peek().t === 'ident' && !this.is('func') && !this.is('map') && !this.is('struct') && !this.is('.', 1)) {
        names.push(...pending, this.ident());
        pending = [];
      } else pending = [];
      this.accept('...');
      this.type();
      this.accept(',');
    }
    return names;
  }

  private results(): string[] {
    if (this.is('{')) return [];
    if (this.is('(')) return this.params();
    this.type();
    return [];
  }

  type(): TypeExpr {
    if (this.accept('*')) return this.type();
    if (this.accept('[')) {
      if (!this.accept(']')) {
        this.expr();
        this.expect(']');
      }
      return { kind: 'slice', of: this.type() };
    }
    if (this.accept('map')) {
      this.expect('[');
      this.type();
      this.expect(']');
      return { kind: 'map', value: this.type() };
    }
    if (this.accept('struct') || this.accept('interface')) {
      this.expect('{');
      let depth = 1;
      while (depth > 0) {
        const token = this.next();
        if (token.v === '{' && token.t === 'op') depth += 1;
        if (token.v === '}' && token.t === 'op') depth -= 1;
      }
      return { kind: 'struct' };
    }
    if (this.accept('func')) {
      this.params();
      if (!this.is(',') && !this.is(')') && !this.is('{') && !this.is(';') && !this.is('}') && !this.is('='))
        this.results();
      return { kind: 'other' };
    }
    if (this.accept('chan')) return this.type();
    let name = this.ident();
    if (this.accept('.')) name += `.${this.ident()}`;
    return { kind: 'named', name };
  }

  block(): Stmt[] {
    this.expect('{');
    const out: Stmt[] = [];
    this.skipSemis();
    while (!this.accept('}')) {
      out.push(this.statement());
      if (!this.is('}')) this.expect(';');
      this.skipSemis();
    }
    return out;
  }

  private varDecl(): Stmt {
    const line = this.peek().line;
    this.next();
    const one = (): { names: string[]; values: Expr[] } => {
      const names = [this.ident()];
      while (this.accept(',')) names.push(this.ident());
      if (!this.is('=') && !this.is(';') && !this.is(')')) this.type();
      const values: Expr[] = [];
      if (this.accept('=')) {
        values.push(this.expr());
        while (this.accept(',')) values.push(this.expr());
      }
      return { names, values };
    };
    if (this.accept('(')) {
      const names: string[] = [];
      const values: Expr[] = [];
      this.skipSemis();
      while (!this.accept(')')) {
        const decl = one();
        decl.names.forEach((name, i) => {
          names.push(name);
          values.push(decl.values[i] ?? { e: 'lit', v: null });
        });
        this.skipSemis();
      }
      return { s: 'var', names, values, line };
    }
    const decl = one();
    return { s: 'var', names: decl.names, values: decl.values, line };
  }

  private statement(): Stmt {
    const line = this.peek().line;
    if (this.is('var') || this.is('const')) return this.varDecl();
    if (this.accept('type')) {
      this.types.add(this.ident());
      this.type();
      return { s: 'block', body: [], line };
    }
    if (this.is('{')) return { s: 'block', body: this.block(), line };
    if (this.accept('return')) {
      const values: Expr[] = [];
      if (!this.is(';') && !this.is('}')) {
        values.push(this.expr());
        while (this.accept(',')) values.push(this.expr());
      }
      return { s: 'return', values, line };
    }
    if (this.accept('defer') || this.accept('go')) {
      this.expr();
      return { s: 'block', body: [], line };
    }
    if (this.accept('if')) return this.ifStatement(line);
    if (this.accept('for')) return this.forStatement(line);
    if (this.is('switch') || this.is('select') || this.is('goto') || this.is('break') || this.is('continue')) {
      const what = String(this.next().v);
      this.skipTo();
      return { s: 'unsupported', what, line };
    }
    return this.simple();
  }

  /** Skips to the end of the statement (balanced braces). */
  private skipTo(): void {
    let depth = 0;
    while (this.peek().t !== 'eof') {
      if (depth === 0 && (this.is(';') || this.is('}'))) return;
      const token = this.next();
      if (token.t === 'op' && token.v === '{') depth += 1;
      if (token.t === 'op' && token.v === '}') depth -= 1;
    }
  }

  private simple(): Stmt {
    const line = this.peek().line;
    const left = [this.expr()];
    while (this.accept(',')) left.push(this.expr());
    const op = this.peek();
    if (op.t === 'op' && op.v === ':=') {
      this.next();
      if (this.accept('range')) return { s: 'unsupported', what: 'range outside for', line };
      const values = [this.expr()];
      while (this.accept(',')) values.push(this.expr());
      return { s: 'define', names: left.map((x) => (x.e === 'ident' ? x.name : '_')), values, line };
    }
    if (op.t === 'op' && ['=', '+=', '-=', '*=', '|='].includes(op.v)) {
      this.next();
      const values = [this.expr()];
      while (this.accept(',')) values.push(this.expr());
      return { s: 'assign', targets: left, op: op.v, values, line };
    }
    if (op.t === 'op' && (op.v === '++' || op.v === '--')) {
      this.next();
      return { s: 'incdec', x: left[0], line };
    }
    return { s: 'expr', x: left[0], line };
  }

  private ifStatement(line: number): Stmt {
    this.noLit += 1;
    let init: Stmt | undefined;
    let cond: Expr;
    const first = this.simple();
    if (this.accept(';')) {
      init = first;
      const c = this.simple();
      if (c.s !== 'expr') throw new Error(`line ${line}: if condition`);
      cond = c.x;
    } else {
      if (first.s !== 'expr') throw new Error(`line ${line}: if condition`);
      cond = first.x;
    }
    this.noLit -= 1;
    const then = this.block();
    let otherwise: Stmt[] | undefined;
    if (this.accept('else')) {
      const elseLine = this.peek().line;
      otherwise = this.accept('if') ? [this.ifStatement(elseLine)] : this.block();
    }
    return { s: 'if', init, cond, then, else: otherwise, line };
  }

  private forStatement(line: number): Stmt {
    this.noLit += 1;
    if (this.is('{')) {
      this.noLit -= 1;
      return { s: 'for', body: this.block(), line };
    }
    // for k, v := range x / for k := range x / for range x
    let key: string | undefined;
    let value: string | undefined;
    if (this.accept('range')) {
      const x = this.expr();
      this.noLit -= 1;
      return { s: 'range', x, body: this.block(), line };
    }
    const save = this.pos;
    if (this.peek().t === 'ident') {
      key = this.ident();
      if (this.accept(',')) value = this.ident();
      if ((this.accept(':=') || this.accept('=')) && this.accept('range')) {
        const x = this.expr();
        this.noLit -= 1;
        return {
          s: 'range',
          key: key === '_' ? undefined : key,
          value: value === '_' ? undefined : value,
          x,
          body: this.block(),
          line,
        };
      }
    }
    this.pos = save;
    const init = this.is(';') ? undefined : this.simple();
    this.expect(';');
    const cond = this.is(';') ? undefined : this.expr();
    this.expect(';');
    const post = this.is('{') ? undefined : this.simple();
    this.noLit -= 1;
    return { s: 'for', init, cond, post, body: this.block(), line };
  }

  expr(level = 0): Expr {
    const levels = [
      ['||'],
      ['&&'],
      ['==', '!=', '<', '<=', '>', '>='],
      ['+', '-', '|', '^'],
      ['*', '/', '%', '<<', '>>', '&', '&^'],
    ];
    if (level >= levels.length) return this.unary();
    let x = this.expr(level + 1);
    for (;;) {
      const token = this.peek();
      if (token.t !== 'op' || !levels[level].includes(token.v)) return x;
      this.next();
      x = { e: 'binary', op: token.v, x, y: this.expr(level + 1) };
    }
  }

  private unary(): Expr {
    const token = this.peek();
    if (token.t === 'op' && ['!', '-', '+', '*', '&', '^', '<-'].includes(token.v)) {
      this.next();
      return { e: 'unary', op: token.v, x: this.unary() };
    }
    return this.primary();
  }

  private primary(): Expr {
    let x = this.operand();
    for (;;) {
      if (this.accept('.')) {
        if (this.accept('(')) {
          this.type();
          this.expect(')');
          continue;
        }
        x = { e: 'sel', x, name: this.ident() };
      } else if (this.is('(')) {
        const line = this.peek().line;
        this.next();
        const saved = this.noLit;
        this.noLit = 0;
        const args: Expr[] = [];
        let spread = false;
        this.skipSemis();
        while (!this.accept(')')) {
          args.push(this.expr());
          if (this.accept('...')) spread = true;
          this.accept(',');
          this.skipSemis();
        }
        this.noLit = saved;
        x = { e: 'call', fn: x, args, spread, line };
      } else if (this.is('[')) {
        this.next();
        const saved = this.noLit;
        this.noLit = 0;
        if (this.accept(':')) {
          const hi = this.is(']') ? undefined : this.expr();
          this.expect(']');
          x = { e: 'slice', x, hi };
        } else {
          const index = this.expr();
          if (this.accept(':')) {
            const hi = this.is(']') ? undefined : this.expr();
            this.expect(']');
            x = { e: 'slice', x, lo: index, hi };
          } else {
            this.expect(']');
            x = { e: 'index', x, index };
          }
        }
        this.noLit = saved;
      } else if (this.is('{') && this.noLit === 0 && this.isTypeName(x)) {
        x = this.composite({ kind: 'named', name: typeNameOf(x) });
      } else return x;
    }
  }

  private isTypeName(x: Expr): boolean {
    if (x.e === 'ident') return this.types.has(x.name);
    return x.e === 'sel' && x.x.e === 'ident' && /^[A-Z]/.test(x.name);
  }

  private composite(type: TypeExpr | undefined): Expr {
    this.expect('{');
    const saved = this.noLit;
    this.noLit = 0;
    const elements: { key?: Expr; keyName?: string; value: Expr }[] = [];
    this.skipSemis();
    while (!this.accept('}')) {
      let value = this.is('{') ? this.composite(undefined) : this.expr();
      let key: Expr | undefined;
      let keyName: string | undefined;
      if (this.accept(':')) {
        key = value;
        if (value.e === 'ident') keyName = value.name;
        value = this.is('{') ? this.composite(undefined) : this.expr();
      }
      elements.push({ key, keyName, value });
      this.accept(',');
      this.skipSemis();
    }
    this.noLit = saved;
    return { e: 'composite', type, elements };
  }

  private operand(): Expr {
    const token = this.peek();
    if (token.t === 'string' || token.t === 'char' || token.t === 'number') {
      this.next();
      return { e: 'lit', v: token.v };
    }
    if (this.accept('(')) {
      const saved = this.noLit;
      this.noLit = 0;
      const x = this.expr();
      this.noLit = saved;
      this.expect(')');
      return x;
    }
    if (this.is('func')) {
      this.next();
      const params = this.params();
      const results = this.is('{') ? [] : this.results();
      const saved = this.noLit;
      this.noLit = 0;
      const body = this.block();
      this.noLit = saved;
      return { e: 'func', params, results, body };
    }
    if (this.is('[') || this.is('map') || this.is('struct')) {
      const type = this.type();
      if (this.is('{')) return this.composite(type);
      return { e: 'type', type };
    }
    if (token.t === 'ident') {
      this.next();
      if (token.v === 'true' || token.v === 'false') return { e: 'lit', v: token.v === 'true' };
      if (token.v === 'nil') return { e: 'lit', v: null };
      return { e: 'ident', name: token.v };
    }
    throw new Error(`line ${token.line}: unexpected ${JSON.stringify(token.v)}`);
  }
}

function typeNameOf(x: Expr): string {
  if (x.e === 'ident') return x.name;
  if (x.e === 'sel' && x.x.e === 'ident') return `${x.x.name}.${x.name}`;
  return '?';
}
