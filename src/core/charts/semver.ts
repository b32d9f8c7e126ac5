// Chart versions and version ranges as Helm and Flux read them (Masterminds semver): `1.2.3`,
// `v1.2`, comparators joined by spaces or commas (`>=1.0.0 <2`), alternatives with `||`, x-ranges
// (`6.x`, `6.1.*`, `*`), caret (`^6.1`: below 7) and tilde (`~6.1`: below 6.2). A pre-release
// satisfies a range only when the range names a pre-release of its own.
export type Semver = [number, number, number, string];

export function parseSemver(text: string): Semver | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0), m[4] ?? ''] : undefined;
}

export function compareSemver(a: Semver, b: Semver): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  if (a[3] === b[3]) return 0;
  if (!a[3]) return 1;
  if (!b[3]) return -1;
  return a[3] < b[3] ? -1 : 1;
}

/** Whether `text` names one version (not a range). */
export function isExactVersion(text: string): boolean {
  return /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.test(text.trim());
}

/** One comparator as [operator, bound] pairs (an x-range, caret or tilde is two). */
function comparators(part: string): Array<[string, Semver]> | undefined {
  const m = /^(>=|<=|>|<|=|\^|~>?)?v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(-[0-9A-Za-z.-]+)?$/.exec(part);
  if (!m) return undefined;
  const op = m[1] ?? '';
  const wild = (s: string | undefined): boolean => s === undefined || /^[xX*]$/.test(s);
  const [major, minor, patch] = [m[2], m[3], m[4]].map((s) => (wild(s) ? undefined : Number(s)));
  if (major === undefined) return [];
  const low: Semver = [major, minor ?? 0, patch ?? 0, m[5]?.slice(1) ?? ''];
  if (op === '^') {
    const high: Semver = major > 0 || minor === undefined ? [major + 1, 0, 0, ''] : [0, minor + 1, 0, ''];
    return [
      ['>=', low],
      ['<', high],
    ];
  }
  if (op.startsWith('~'))
    return [
      ['>=', low],
      ['<', minor === undefined ? [major + 1, 0, 0, ''] : [major, minor + 1, 0, '']],
    ];
  if (minor === undefined || patch === undefined) {
    const high: Semver = minor === undefined ? [major + 1, 0, 0, ''] : [major, minor + 1, 0, ''];
    if (op === '' || op === '=')
      return [
        ['>=', low],
        ['<', high],
      ];
    if (op === '>') return [['>=', high]];
    if (op === '<=') return [['<', high]];
  }
  return [[op || '=', low]];
}

function holds(version: Semver, op: string, bound: Semver): boolean {
  const c = compareSemver(version, bound);
  return { '>=': c >= 0, '<=': c <= 0, '>': c > 0, '<': c < 0, '=': c === 0 }[op] ?? false;
}

function rangeParts(alternative: string): string[] {
  return alternative
    .trim()
    .replace(/([<>=~^]+)\s+/g, '$1')
    .split(/[\s,]+/)
    .filter(Boolean);
}

/** Whether this reader reads every comparator of `range` (where Masterminds' NewConstraint would fail, it does not). */
export function isReadableRange(range: string): boolean {
  return range.split('||').every((alternative) => rangeParts(alternative).every((part) => comparators(part)));
}

/** Whether `version` satisfies `range`; false for a range this reader cannot read. */
export function satisfiesRange(version: Semver, range: string): boolean {
  return range.split('||').some((alternative) => {
    const all = rangeParts(alternative).map(comparators);
    if (all.some((c) => c === undefined)) return false;
    const pairs = all.flat() as Array<[string, Semver]>;
    if (version[3] && !pairs.some(([, bound]) => bound[3] && bound.slice(0, 3).join() === version.slice(0, 3).join()))
      return false;
    return pairs.every(([op, bound]) => holds(version, op, bound));
  });
}
