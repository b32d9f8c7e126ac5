// Measured structure of a checkout's src/, read with the checkout's own TypeScript compiler (its
// parser only: no type checking, no program). Run from the project root.
// Prints detail lines, then `problem:` lines, then one figures line (always last); exits 1 when a
// check fails, 2 when it cannot run.
//
// Checks:
//   1. folder import graphs: first-level folders of src/core, and top-level folders of src/, acyclic;
//      core imports none of its siblings
//   2. function length: no function-like node over 80 lines, at most 10 over 50
//   3. GitOps stamp keys: each has one home (one non-test file that spells or builds it)
//   4. unused exports: at most 5
//   5. same-named files in different folders (index.ts, types.ts, main.ts, cli verbs, report model/template families aside): at most 5
//   6. `duplicates src/`: reported only
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { basename, dirname, join, posix } from 'node:path';

const CWD = process.cwd();
const LONG = 50; // a function over this many lines is long
const TOO_LONG = 80; // one over this is a problem
const MAX_LONG = 10; // more long functions than this is a problem
const MAX_UNUSED = 5;
const STAMP_KEYS = [
  'kustomize.toolkit.fluxcd.io/name',
  'kustomize.toolkit.fluxcd.io/namespace',
  'helm.toolkit.fluxcd.io/name',
  'app.kubernetes.io/instance',
  'argocd.argoproj.io/tracking-id',
  'argocd.argoproj.io/instance',
];
const SAME_NAME_ALLOWED = new Set(['index.ts', 'types.ts']);

process.on('uncaughtException', (error) => {
  console.log(
    `FAIL: lib/structure.mjs stopped: ${String(error?.stack ?? error)
      .split('\n')
      .slice(0, 3)
      .join(' | ')}`,
  );
  process.exit(2);
});

let ts;
try {
  ts = createRequire(join(CWD, 'package.json'))('typescript');
} catch (error) {
  console.log(`FAIL: cannot load the checkout's typescript package (npm ci first): ${error.message.split('\n')[0]}`);
  process.exit(2);
}

const problems = [];
const figures = [];
const out = (line) => console.log(line);

// ---------------------------------------------------------------------------------------------- files

/** Repository-relative paths (forward slashes) of files under `dir` whose names match `keep`. */
function walk(dir, keep) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = posix.join(dir, name);
    if (statSync(path).isDirectory()) found.push(...walk(path, keep));
    else if (keep(name)) found.push(path);
  }
  return found;
}

const isTs = (name) => /\.(ts|tsx|mts|cts)$/.test(name) && !/\.d\.[mc]?ts$/.test(name);
const isScript = (name) => isTs(name) || /\.(js|mjs|cjs|jsx)$/.test(name);
const isTestFile = (path) => /\.(test|spec)\.[mc]?[jt]sx?$/.test(path) || /(^|\/)(__tests__|test|tests)\//.test(path);

const SRC = walk('src', isTs);
const USERS = ['src', 'bin', 'test', 'bench'].flatMap((dir) => walk(dir, dir === 'src' ? isTs : isScript));
const KNOWN = new Set(USERS);

const parsed = new Map();
function sourceOf(path) {
  let sf = parsed.get(path);
  if (!sf) {
    const kind = /x$/.test(path) ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, kind);
    parsed.set(path, sf);
  }
  return sf;
}
const lineOf = (sf, pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;

/** A relative module specifier → the repository file it names (compiled dist/ paths map back to src/). */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stems = [base];
  if (base.startsWith('dist/')) stems.push('src/' + base.slice(5));
  for (const stem of stems) {
    const candidates = [stem];
    const noExt = stem.replace(/\.([mc]?)js$/, '');
    if (noExt !== stem) {
      const m = /\.([mc]?)js$/.exec(stem)[1];
      candidates.push(`${noExt}.${m}ts`, `${noExt}.tsx`);
    }
    candidates.push(`${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}.js`);
    for (const candidate of candidates) if (KNOWN.has(candidate)) return candidate;
  }
  return undefined;
}

/** Files a template-literal `import(\`./dir/${x}.js\`)` can load: its fixed head and tail around a wildcard. */
function resolvePattern(from, template) {
  const head = template.head.text;
  const tail = template.templateSpans.at(-1).literal.text;
  if (!head.startsWith('./') && !head.startsWith('../')) return [];
  const dir = posix.normalize(posix.join(posix.dirname(from), posix.dirname(head + 'x')));
  const prefix = posix.basename(head + 'x').slice(0, -1);
  const suffix = tail.replace(/\.js$/, '.ts');
  return USERS.filter(
    (file) => posix.dirname(file) === dir && posix.basename(file).startsWith(prefix) && file.endsWith(suffix),
  );
}

/**
 * Every module reference of a file: { target, names, typeOnly, line, reexport }. names: the imported
 * or re-exported names as the target spells them, '*' for all of them, [] for a bare `import './x'`.
 */
const referenceCache = new Map();
function referencesOf(path) {
  if (!referenceCache.has(path)) referenceCache.set(path, readReferences(path));
  return referenceCache.get(path);
}
function readReferences(path) {
  const sf = sourceOf(path);
  const refs = [];
  const add = (specifierNode, names, typeOnly, reexport = false) => {
    if (!specifierNode) return;
    const line = lineOf(sf, specifierNode.getStart(sf));
    if (ts.isStringLiteralLike(specifierNode)) {
      const target = resolveSpecifier(path, specifierNode.text);
      if (target) refs.push({ target, names, typeOnly, line, reexport });
      else if (!isPackage(specifierNode.text)) refs.push({ unplaced: specifierNode.text, line });
    } else if (ts.isTemplateExpression(specifierNode)) {
      for (const target of resolvePattern(path, specifierNode)) refs.push({ target, names, typeOnly, line, reexport });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const names = [];
      if (clause?.name) names.push('default');
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) names.push('*');
      if (bindings && ts.isNamedImports(bindings))
        for (const el of bindings.elements) names.push((el.propertyName ?? el.name).text);
      add(node.moduleSpecifier, names, Boolean(clause?.isTypeOnly));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      const names =
        !clause || ts.isNamespaceExport(clause)
          ? ['*']
          : clause.elements.map((el) => (el.propertyName ?? el.name).text);
      add(node.moduleSpecifier, names, node.isTypeOnly, true);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, ['*'], node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      add(node.arguments[0], ['*'], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const q = node.qualifier;
      const first = q ? (ts.isIdentifier(q) ? q : leftmost(q)) : undefined;
      add(node.argument.literal, [first ? first.text : '*'], true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return refs;
}
const leftmost = (q) => (ts.isIdentifier(q) ? q : leftmost(q.left));

// A specifier that is neither relative, nor a Node built-in, nor a declared package would hide an edge
// from the graphs below (a path alias, a package self-reference): it counts as a problem.
const manifest = existsSync('package.json') ? JSON.parse(readFileSync('package.json', 'utf8')) : {};
const PACKAGES = new Set(
  ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) =>
    Object.keys(manifest[k] ?? {}),
  ),
);
const BUILTINS = new Set(builtinModules);
function isPackage(specifier) {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0])) return true;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return PACKAGES.has(name) && name !== manifest.name;
}

// ----------------------------------------------------------------------------- 1. folder import graphs

/** unit → Map(unit → [example "a → b", count]) for the files `unitOf` places in a unit. */
function folderGraph(files, unitOf) {
  const graph = new Map();
  for (const file of files) {
    const from = unitOf(file);
    if (from === undefined) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    const edges = graph.get(from);
    for (const ref of referencesOf(file)) {
      if (ref.unplaced) continue;
      const to = unitOf(ref.target);
      if (to === undefined || to === from) continue;
      const edge = edges.get(to) ?? { example: undefined, count: 0, typeOnly: true };
      edge.count += 1;
      // The example: the first value import (a type-only one only when there is nothing else).
      if (!edge.example || (edge.typeOnly && !ref.typeOnly)) {
        edge.example = `${file}:${ref.line} → ${ref.target}`;
        edge.typeOnly = ref.typeOnly;
      }
      edges.set(to, edge);
    }
  }
  return graph;
}

/** Strongly connected components with more than one unit (Tarjan). */
function tangles(graph) {
  let index = 0;
  const stack = [];
  const info = new Map();
  const found = [];
  const strong = (v) => {
    info.set(v, { index, low: index, on: true });
    index += 1;
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!info.has(w)) {
        strong(w);
        info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
      } else if (info.get(w).on) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
    }
    if (info.get(v).low === info.get(v).index) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        info.get(w).on = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!info.has(v)) strong(v);
  return found;
}

/** Elementary cycles (each once, starting at its smallest unit), shortest first, at most `cap`. */
function cycles(graph, cap = 500) {
  const found = [];
  const units = [...graph.keys()].sort();
  const walkFrom = (start, node, path) => {
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (found.length >= cap) return;
      if (next === start) found.push([...path, start]);
      else if (next > start && !path.includes(next)) walkFrom(start, next, [...path, next]);
    }
  };
  for (const start of units) walkFrom(start, start, [start]);
  return found.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
}

/** Prints the cycles (at most `show`), then every edge inside a knot with its weight and an example. */
function printCycles(label, graph, strip, show = 10) {
  const found = cycles(graph);
  const knots = tangles(graph);
  out(
    `${label}; ${found.length}${found.length >= 500 ? '+' : ''} cycles${knots.length ? ' through ' + knots.map((k) => k.join(' ')).join(' | ') : ''}`,
  );
  for (const cycle of found.slice(0, show)) out(`  ${cycle.join(' → ')}`);
  if (found.length > show) out(`  (+${found.length - show} more)`);
  for (const knot of knots) {
    const inside = [];
    for (const from of knot)
      for (const [to, edge] of graph.get(from)) if (knot.includes(to)) inside.push({ from, to, ...edge });
    out(`  imports that tie ${knot.join(' ')} (fewest first):`);
    inside.sort((a, b) => a.count - b.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
    for (const e of inside)
      out(`    ${e.from} → ${e.to} ×${e.count}: ${strip(e.example)}${e.typeOnly ? ' (type only)' : ''}`);
  }
  if (found.length)
    problems.push(
      `${label.split(':')[0]}: ${found.length} import cycles (${knots.map((k) => k.join(' ')).join(' | ')})`,
    );
  return found.length;
}

const coreFiles = SRC.filter((f) => f.startsWith('src/core/'));
const coreUnit = (file) => /^src\/core\/([^/]+)/.exec(file)?.[1];
const coreGraph = folderGraph(coreFiles, coreUnit);
const coreEdges = [...coreGraph.values()].reduce((n, edges) => n + edges.size, 0);
const coreCycles = printCycles(`src/core folders: ${coreGraph.size}, ${coreEdges} import edges`, coreGraph, (s) =>
  s.replaceAll('src/core/', ''),
);

const topUnit = (file) => /^src\/([^/]+)/.exec(file)?.[1];
const topGraph = folderGraph(SRC, topUnit);
const shown = [...topGraph.keys()]
  .sort()
  .map((u) => `${u} → ${[...topGraph.get(u).keys()].sort().join(' ') || '(none)'}`);
const topCycles = printCycles(`src/ folders: ${shown.join('; ')}`, topGraph, (s) => s.replaceAll('src/', ''));
const coreOut = [...(topGraph.get('core') ?? new Map())];
for (const [to, edge] of coreOut)
  problems.push(`src/core imports src/${to} (${edge.example}${edge.count > 1 ? `, +${edge.count - 1} more` : ''})`);
const unplaced = SRC.flatMap((file) =>
  referencesOf(file)
    .filter((r) => r.unplaced)
    .map((r) => `${file}:${r.line} '${r.unplaced}'`),
);
if (unplaced.length)
  problems.push(
    `${unplaced.length} imports in src/ the graphs cannot place (not relative, built-in or a dependency): ${unplaced.slice(0, 5).join(', ')}`,
  );
figures.push(
  `${coreCycles} core folder cycles, ${topCycles} src folder cycles, core imports ${coreOut.length} siblings`,
);

// ------------------------------------------------------------------------------- 2. function length

function nameOf(node) {
  const text = (n) =>
    n
      ? ts.isIdentifier(n) || ts.isPrivateIdentifier(n) || ts.isStringLiteralLike(n) || ts.isNumericLiteral(n)
        ? n.text
        : n.getText()
      : undefined;
  const owner = (n) => {
    const p = n.parent;
    if (ts.isClassLike(p)) return p.name?.text ?? '(class)';
    if (ts.isObjectLiteralExpression(p)) {
      const holder = p.parent;
      if (holder && (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder))) return text(holder.name);
    }
    return undefined;
  };
  const qualified = (n, name) => (owner(n) ? `${owner(n)}.${name}` : name);
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? 'default';
  if (ts.isConstructorDeclaration(node)) return `${owner(node)}.constructor`;
  if (ts.isClassStaticBlockDeclaration(node)) return `${owner(node)}.static{}`;
  if (ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node)) {
    const prefix = ts.isGetAccessor(node) ? 'get ' : ts.isSetAccessor(node) ? 'set ' : '';
    return prefix + qualified(node, text(node.name));
  }
  // Arrow functions and function expressions: the name they are given, else where they are passed.
  if (node.name) return node.name.text;
  let p = node.parent;
  while (p && (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p))) p = p.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyDeclaration(p)) return qualified(p, text(p.name));
  if (ts.isPropertyAssignment(p)) return qualified(p, text(p.name));
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.EqualsToken) return p.left.getText();
  if (ts.isExportAssignment(p)) return 'default';
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) {
    const callee = p.expression.getText().replace(/\s+/g, '');
    let up = p.parent;
    while (up && !isFunctionLike(up)) up = up.parent;
    return `${callee.length > 40 ? callee.slice(0, 40) + '…' : callee}(=>)${up ? ' in ' + nameOf(up) : ''}`;
  }
  return '(anonymous)';
}

function isFunctionLike(node) {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isClassStaticBlockDeclaration(node)) &&
    node.body !== undefined
  );
}

const functions = [];
for (const file of SRC) {
  const sf = sourceOf(file);
  const visit = (node) => {
    if (isFunctionLike(node)) {
      const start = lineOf(sf, node.getStart(sf));
      const lines = lineOf(sf, node.getEnd()) - start + 1;
      functions.push({ file, start, lines, name: nameOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
functions.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.start - b.start);
const long = functions.filter((f) => f.lines > LONG);
const tooLong = functions.filter((f) => f.lines > TOO_LONG);
out(
  `functions: ${functions.length} in src/, ${long.length} over ${LONG} lines, ${tooLong.length} over ${TOO_LONG}; longest:`,
);
for (const f of functions.slice(0, 60)) out(`  ${String(f.lines).padStart(4)} ${f.name}  ${f.file}:${f.start}`);
if (tooLong.length) problems.push(`${tooLong.length} functions over ${TOO_LONG} lines (at most 0)`);
if (long.length > MAX_LONG) problems.push(`${long.length} functions over ${LONG} lines (at most ${MAX_LONG})`);
figures.push(
  `${long.length} functions over ${LONG} lines, ${tooLong.length} over ${TOO_LONG} (longest ${functions[0]?.lines ?? 0})`,
);

// ---------------------------------------------------------------------------------- 3. GitOps stamps
// A file is a home of a key when it spells the key in a string, or builds it from strings and
// constants (`${group}/name`, GROUP + '/name', a constant table's value): a small evaluator follows
// const bindings in the file and constants imported from other src files. Naming a constant that
// another file exports (import { FLUX_NAME_LABEL }) is a use of that home, not a new one.

const exportedConsts = new Map(); // file → Map(name → initializer)
function constsOf(file) {
  let found = exportedConsts.get(file);
  if (found) return found;
  found = new Map();
  exportedConsts.set(file, found);
  const sf = sourceOf(file);
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const list = node.parent;
      if (ts.isVariableDeclarationList(list) && list.flags & ts.NodeFlags.Const) {
        const all = found.get(node.name.text) ?? [];
        all.push(node.initializer);
        found.set(node.name.text, all);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}
const importsOf = new Map(); // file → Map(local name → { target, name })
function importBindings(file) {
  let found = importsOf.get(file);
  if (found) return found;
  found = new Map();
  importsOf.set(file, found);
  for (const statement of sourceOf(file).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const target = resolveSpecifier(file, statement.moduleSpecifier.text);
    const bindings = statement.importClause?.namedBindings;
    if (!target || !bindings || !ts.isNamedImports(bindings)) continue;
    for (const el of bindings.elements) found.set(el.name.text, { target, name: (el.propertyName ?? el.name).text });
  }
  return found;
}
/** The file and initializers a name in `file` is bound to, following imports and re-exports. */
function bindingOf(file, name, depth = 0) {
  if (depth > 8) return undefined;
  const local = constsOf(file).get(name);
  if (local) return { file, inits: local };
  const imported = importBindings(file).get(name);
  if (imported) return bindingOf(imported.target, imported.name, depth + 1);
  for (const statement of sourceOf(file).statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue;
    const target = resolveSpecifier(file, statement.moduleSpecifier.text);
    if (!target) continue;
    const clause = statement.exportClause;
    if (!clause) {
      const found = bindingOf(target, name, depth + 1);
      if (found) return found;
    } else if (ts.isNamedExports(clause)) {
      const el = clause.elements.find((e) => e.name.text === name);
      if (el) return bindingOf(target, (el.propertyName ?? el.name).text, depth + 1);
    }
  }
  return undefined;
}
const CAP = 64;
/** The strings an expression can be (a Set), or undefined when it is not a known string. */
function valuesOf(file, node, depth = 0) {
  if (depth > 12) return undefined;
  const product = (parts) => {
    let acc = new Set(['']);
    for (const part of parts) {
      if (!part) return undefined;
      const next = new Set();
      for (const a of acc) for (const b of part) next.add(a + b);
      if (next.size > CAP) return undefined;
      acc = next;
    }
    return acc;
  };
  const union = (...sets) => (sets.every(Boolean) ? new Set(sets.flatMap((s) => [...s])) : undefined);
  if (ts.isStringLiteralLike(node)) return new Set([node.text]);
  if (ts.isNumericLiteral(node)) return new Set([node.text]);
  if (
    ts.isParenthesizedExpression(node) ||
    ts.isAsExpression(node) ||
    ts.isSatisfiesExpression(node) ||
    ts.isNonNullExpression(node) ||
    ts.isTypeAssertionExpression(node)
  )
    return valuesOf(file, node.expression, depth + 1);
  if (ts.isTemplateExpression(node))
    return product([
      new Set([node.head.text]),
      ...node.templateSpans.flatMap((span) => [
        valuesOf(file, span.expression, depth + 1),
        new Set([span.literal.text]),
      ]),
    ]);
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken)
      return product([valuesOf(file, node.left, depth + 1), valuesOf(file, node.right, depth + 1)]);
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
      return union(valuesOf(file, node.left, depth + 1), valuesOf(file, node.right, depth + 1));
    return undefined;
  }
  if (ts.isConditionalExpression(node))
    return union(valuesOf(file, node.whenTrue, depth + 1), valuesOf(file, node.whenFalse, depth + 1));
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
    // [a, b].join(sep) and a.concat(b, …)
    const { expression: target, name } = node.expression;
    if (name.text === 'join' && ts.isArrayLiteralExpression(target)) {
      const sep = node.arguments.length ? valuesOf(file, node.arguments[0], depth + 1) : new Set([',']);
      if (!sep || sep.size !== 1) return undefined;
      const [glue] = sep;
      const parts = target.elements.flatMap((el, i) =>
        i ? [new Set([glue]), valuesOf(file, el, depth + 1)] : [valuesOf(file, el, depth + 1)],
      );
      return product(parts);
    }
    if (name.text === 'concat')
      return product([valuesOf(file, target, depth + 1), ...node.arguments.map((a) => valuesOf(file, a, depth + 1))]);
  }
  if (ts.isIdentifier(node)) {
    const binding = bindingOf(file, node.text);
    return binding ? union(...binding.inits.map((init) => valuesOf(binding.file, init, depth + 1))) : undefined;
  }
  if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
    // A constant table: its named entry when the key is known, else any of its entries.
    if (!ts.isIdentifier(node.expression)) return undefined;
    const binding = bindingOf(file, node.expression.text);
    if (!binding) return undefined;
    const key = ts.isPropertyAccessExpression(node)
      ? node.name.text
      : ts.isStringLiteralLike(node.argumentExpression)
        ? node.argumentExpression.text
        : undefined;
    const sets = [];
    for (let table of binding.inits) {
      while (ts.isAsExpression(table) || ts.isSatisfiesExpression(table) || ts.isParenthesizedExpression(table))
        table = table.expression;
      const entries = ts.isObjectLiteralExpression(table)
        ? table.properties.filter(ts.isPropertyAssignment)
        : ts.isArrayLiteralExpression(table)
          ? table.elements.map((e) => ({ initializer: e }))
          : [];
      for (const entry of entries) {
        const name =
          entry.name && (ts.isIdentifier(entry.name) || ts.isStringLiteralLike(entry.name))
            ? entry.name.text
            : undefined;
        if (key === undefined || name === key)
          sets.push(valuesOf(binding.file, entry.initializer, depth + 1) ?? new Set());
      }
    }
    return sets.length ? union(...sets) : undefined;
  }
  return undefined;
}

const keyPattern = new RegExp(
  `(^|[^\\w./-])(${STAMP_KEYS.map((k) => k.replace(/[.]/g, '\\.')).join('|')})(?=$|[^\\w./-])`,
  'g',
);
const homes = new Map(STAMP_KEYS.map((key) => [key, new Set()]));
for (const file of SRC) {
  const sf = sourceOf(file);
  const visit = (node) => {
    // A module specifier or an import/export name is not a string the program uses.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    let values;
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      for (const m of node.text.matchAll(keyPattern)) homes.get(m[2]).add(file);
    }
    const parent = node.parent;
    const inSum = parent && ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.PlusToken;
    if (
      ts.isTemplateExpression(node) ||
      (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken && !inSum)
    )
      values = valuesOf(file, node);
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['join', 'concat'].includes(node.expression.name.text)
    )
      values = valuesOf(file, node);
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      // A table lookup whose table is written in this file.
      const binding = ts.isIdentifier(node.expression) ? bindingOf(file, node.expression.text) : undefined;
      if (binding?.file === file) values = valuesOf(file, node);
    }
    for (const value of values ?? []) if (homes.has(value)) homes.get(value).add(file);
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
const split = [];
const absent = [];
out('GitOps stamp keys, the files that spell or build each (tests aside):');
for (const [key, files] of homes) {
  const real = [...files].filter((f) => !isTestFile(f)).sort();
  if (real.length) out(`  ${key}: ${real.length} — ${real.map((f) => f.replace(/^src\//, '')).join(' ')}`);
  else absent.push(key);
  if (real.length > 1) split.push(`${key} ×${real.length}`);
}
if (absent.length) out(`  in none: ${absent.join(' ')}`);
if (split.length) problems.push(`GitOps stamp keys with more than one home: ${split.join(', ')}`);
const splitKeys = split.length;
figures.push(`${splitKeys} of ${STAMP_KEYS.length} stamp keys in more than one file`);

// --------------------------------------------------------------------------------- 4. unused exports

/** A file's own exports: name → line (declarations, `export { a }`, `export default`, named re-exports). */
const ownExports = new Map(); // file → Map(name → { line, from?: {target, name} })
const starExports = new Map(); // file → [target]
for (const file of SRC) {
  const sf = sourceOf(file);
  const own = new Map();
  const stars = [];
  const at = (node) => lineOf(sf, node.getStart(sf));
  for (const statement of sf.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? (ts.getModifiers(statement) ?? []) : [];
    const exported = modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    const isDefault = modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (exported && isDefault) own.set('default', { line: at(statement) });
    else if (exported && ts.isVariableStatement(statement)) {
      const names = (binding) =>
        ts.isIdentifier(binding)
          ? [binding]
          : binding.elements.flatMap((el) => (ts.isOmittedExpression(el) ? [] : names(el.name)));
      for (const decl of statement.declarationList.declarations)
        for (const id of names(decl.name)) own.set(id.text, { line: at(id) });
    } else if (exported && statement.name && ts.isIdentifier(statement.name)) {
      if (!own.has(statement.name.text)) own.set(statement.name.text, { line: at(statement) });
    } else if (ts.isExportAssignment(statement)) own.set('default', { line: at(statement) });
    else if (ts.isExportDeclaration(statement)) {
      const target =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolveSpecifier(file, statement.moduleSpecifier.text)
          : undefined;
      const clause = statement.exportClause;
      if (!clause) {
        if (target) stars.push(target);
      } else if (ts.isNamespaceExport(clause))
        own.set(clause.name.text, { line: at(statement), from: target && { target, name: '*' } });
      else
        for (const el of clause.elements)
          own.set(el.name.text, {
            line: at(el),
            from: statement.moduleSpecifier ? target && { target, name: (el.propertyName ?? el.name).text } : undefined,
          });
    }
  }
  ownExports.set(file, own);
  starExports.set(file, stars);
}
const allExports = new Map();
function exportsOf(file, seen = new Set()) {
  if (allExports.has(file)) return allExports.get(file);
  if (seen.has(file)) return new Set();
  seen.add(file);
  const names = new Set(ownExports.get(file)?.keys() ?? []);
  for (const star of starExports.get(file) ?? [])
    for (const n of exportsOf(star, seen)) if (n !== 'default') names.add(n);
  allExports.set(file, names);
  return names;
}
/** Marks `name` of `file` used in `set`, and through re-exports what it stands for. */
function markUsed(set, file, name) {
  if (!ownExports.has(file)) return; // not a src file
  if (name === '*') {
    for (const n of exportsOf(file)) markUsed(set, file, n);
    return;
  }
  const key = `${file}\0${name}`;
  if (set.has(key)) return;
  set.add(key);
  const own = ownExports.get(file).get(name);
  if (own) {
    if (own.from) markUsed(set, own.from.target, own.from.name);
    return;
  }
  for (const star of starExports.get(file)) if (exportsOf(star).has(name)) markUsed(set, star, name);
}
const used = new Set(); // `${file}\0${name}`, imported by some other file
const usedOutsideTests = new Set(); // the same, counting only importers outside test/
for (const file of USERS)
  for (const ref of referencesOf(file)) {
    if (ref.unplaced || ref.target === file || ref.reexport) continue; // a re-export is used only when what it exports is
    for (const name of ref.names) {
      markUsed(used, ref.target, name);
      if (!isTestFile(file)) markUsed(usedOutsideTests, ref.target, name);
    }
  }

/** How often each name is used (not merely named) in a file: a name-based count, blind to shadowing. */
function localUses(file) {
  const uses = new Map();
  const visit = (node) => {
    if (ts.isIdentifier(node) && !isNameOnly(node)) uses.set(node.text, (uses.get(node.text) ?? 0) + 1);
    ts.forEachChild(node, visit);
  };
  visit(sourceOf(file));
  return uses;
}
/** An identifier that names something (a declaration, a property, an export/import slot) rather than using it. */
function isNameOnly(id) {
  const p = id.parent;
  if (!p) return true;
  if ((ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) && p.name === id) return true;
  if (ts.isExportSpecifier(p) || ts.isImportSpecifier(p) || ts.isImportClause(p) || ts.isNamespaceImport(p))
    return true;
  const named = [
    ts.isFunctionDeclaration,
    ts.isClassDeclaration,
    ts.isInterfaceDeclaration,
    ts.isTypeAliasDeclaration,
    ts.isEnumDeclaration,
    ts.isVariableDeclaration,
    ts.isBindingElement,
    ts.isModuleDeclaration,
    ts.isPropertyAssignment,
    ts.isPropertySignature,
    ts.isPropertyDeclaration,
    ts.isMethodDeclaration,
    ts.isMethodSignature,
    ts.isEnumMember,
    ts.isGetAccessor,
    ts.isSetAccessor,
  ];
  return named.some((is) => is(p)) && p.name === id;
}

// An export that no other file imports is one of:
//   dead: its own file does not use it either (counted; a re-export is dead when nothing imports it
//         through that file, and is listed only where what it re-exports is alive, else its origin is);
//   a barrel entry: an `export … from` in an index.ts that nobody imports through the index (reported);
//   needless: its own file uses it, the `export` keyword is spare (reported).
const dead = [];
let barrelEntries = 0;
let needless = 0;
let testsOnly = 0;
const isBarrel = (file) => basename(file) === 'index.ts';
for (const file of SRC) {
  const uses = localUses(file);
  for (const [name, info] of ownExports.get(file)) {
    const key = `${file}\0${name}`;
    const ownUse = !info.from && name !== 'default' && (uses.get(name) ?? 0) > 0;
    if (used.has(key)) {
      if (!usedOutsideTests.has(key) && !ownUse && !info.from) testsOnly += 1;
      continue;
    }
    const where = `${name} (${file.replace(/^src\//, '')}:${info.line}`;
    if (info.from) {
      const origin =
        info.from.target && ownExports.has(info.from.target) ? `${info.from.target}\0${info.from.name}` : undefined;
      if (origin && !used.has(origin)) continue; // its origin is listed (or is used there)
      if (isBarrel(file)) barrelEntries += 1;
      else dead.push(`${where}, re-export)`);
    } else if (ownUse) needless += 1;
    else dead.push(`${where})`);
  }
}
dead.sort((a, b) => a.endsWith('re-export)') - b.endsWith('re-export)'));
out(
  `unused exports: ${dead.length} imported by no other file and unused in their own${dead.length ? ' — ' + dead.slice(0, 10).join(', ') + (dead.length > 10 ? ', …' : '') : ''}`,
);
out(
  `  not counted: ${barrelEntries} index.ts re-exports nobody imports through the index, ` +
    `${needless} exports used only in their own file, ${testsOnly} used only by tests`,
);
if (dead.length > MAX_UNUSED) problems.push(`${dead.length} unused exports (at most ${MAX_UNUSED})`);
figures.push(`${dead.length} unused exports`);

// ---------------------------------------------------------------------------------- 5. same-named files

const byName = new Map();
for (const file of SRC) {
  const name = basename(file);
  if (SAME_NAME_ALLOWED.has(name) || name === 'main.ts') continue;
  const dir = dirname(file).replace(/^src\/?/, '') || '.';
  if (dir === 'cli/commands') continue; // a command file is named by its verb
  // A report's view model and template beside it (report/X, report/models/X, report/templates/X) are one family.
  const family = dir.replace(/\/(models|templates)$/, '');
  const dirs = byName.get(name) ?? [];
  if (!dirs.includes(family)) byName.set(name, [...dirs, family]);
}
const clashes = [...byName].filter(([, dirs]) => dirs.length > 1).sort((a, b) => a[0].localeCompare(b[0]));
const clashText = clashes.map(([name, dirs], i) => (i < 10 ? `${name} (${dirs.join(', ')})` : name));
out(`same-named files: ${clashes.length}${clashes.length ? ' — ' + clashText.join('; ') : ''}`);
if (clashes.length > 5) problems.push(`${clashes.length} file names used in more than one folder of src/ (at most 5)`);
figures.push(`${clashes.length} same-named files`);

// ------------------------------------------------------------------------------------- 6. duplicates

try {
  const text = execFileSync('duplicates', ['--repo', 'src', '--most', '5'], { encoding: 'utf8', timeout: 60_000 });
  const lines = text.trim().split('\n');
  const count = /^(\d+) pairs?/.exec(lines[0])?.[1] ?? (/^no duplicates/.test(lines[0]) ? '0' : '?');
  const rows = lines.slice(1).filter((l) => /^D\d+ /.test(l));
  out(`duplicates (src/, not a failure): ${count} pairs${rows.length ? '; largest:' : ''}`);
  for (const line of rows) out(`  ${line}`);
  for (const line of lines.filter((l) => /^(incomplete|left out):/.test(l))) out(`  ${line}`);
  figures.push(`${count} duplicate pairs`);
} catch (error) {
  out(`duplicates: not run (${error.code === 'ENOENT' ? 'not on PATH' : error.message.split('\n')[0]})`);
  figures.push('duplicates not run');
}

for (const p of problems) out(`problem: ${p}`);
out(figures.join('; '));
process.exit(problems.length ? 1 : 0);
