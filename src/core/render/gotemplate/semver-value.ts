// sprig's `semver`: a Masterminds semver v3 *Version with the methods a template can call — Major,
// Minor, Patch, Prerelease, Metadata, Original, String, Compare, LessThan, LessThanEqual, GreaterThan,
// GreaterThanEqual, Equal, IncMajor, IncMinor, IncPatch, SetPrerelease, SetMetadata. IncX and SetX
// return a Version (not a pointer) which, not addressable, has only the value methods: Compare and the
// comparisons take a *Version, so they cannot be called on it, as in Go.
import { parseSemver } from '../../charts/semver.js';
import { getter, GoObject, type GoMethod, type Value } from './go-values.js';
import { TemplateError } from './parser.js';

interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
  metadata: string;
  original: string;
}

const POINTER = '*semver.Version';

/** version.go String: major.minor.patch, then -pre and +metadata. */
function versionText(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre ? `-${v.pre}` : ''}${v.metadata ? `+${v.metadata}` : ''}`;
}

/** version.go comparePrePart: numbers numerically and below words, words by bytes, an empty part lowest. */
function comparePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return -1;
  if (o === '') return 1;
  const [sn, on] = [/^\d+$/.test(s), /^\d+$/.test(o)];
  if (sn && on) return BigInt(s) > BigInt(o) ? 1 : -1;
  if (sn !== on) return sn ? -1 : 1;
  return s > o ? 1 : -1;
}

/** version.go Compare: -1, 0 or 1; metadata ignored, a pre-release below its release. */
function compare(v: Version, o: Version): number {
  for (const key of ['major', 'minor', 'patch'] as const) if (v[key] !== o[key]) return v[key] < o[key] ? -1 : 1;
  if (v.pre === o.pre) return 0;
  if (v.pre === '' || o.pre === '') return v.pre === '' ? 1 : -1;
  const [sp, op] = [v.pre.split('.'), o.pre.split('.')];
  for (let i = 0; i < Math.max(sp.length, op.length); i++) {
    const d = comparePart(sp[i] ?? '', op[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

/** version.go validatePrerelease / validateMetadata. */
function validate(text: string, what: 'prerelease' | 'metadata'): void {
  for (const part of text.split('.')) {
    if (!/^[0-9A-Za-z-]+$/.test(part)) throw new TemplateError(`invalid ${what} string`);
    if (what === 'prerelease' && /^0\d+$/.test(part)) throw new TemplateError('version segment starts with 0');
  }
}

/** The value returned by IncX / SetX: its original keeps a leading `v`. */
function next(v: Version, change: Partial<Version>): GoObject {
  const moved = { ...v, ...change };
  return versionObject({ ...moved, original: (v.original.startsWith('v') ? 'v' : '') + versionText(moved) }, false);
}

function valueMethods(v: Version): Record<string, GoMethod> {
  const set = (what: 'prerelease' | 'metadata') => ({
    params: ['string'],
    call: ([text]: Value[]) => {
      if (text !== '') validate(text as string, what);
      return next(v, what === 'prerelease' ? { pre: text as string } : { metadata: text as string });
    },
  });
  return {
    ...{ Major: getter(() => v.major), Minor: getter(() => v.minor), Patch: getter(() => v.patch) },
    ...{ Prerelease: getter(() => v.pre), Metadata: getter(() => v.metadata), String: getter(() => versionText(v)) },
    IncPatch: getter(() => next(v, v.pre !== '' ? { pre: '', metadata: '' } : { patch: v.patch + 1n, metadata: '' })),
    IncMinor: getter(() => next(v, { minor: v.minor + 1n, patch: 0n, pre: '', metadata: '' })),
    IncMajor: getter(() => next(v, { major: v.major + 1n, minor: 0n, patch: 0n, pre: '', metadata: '' })),
    SetPrerelease: set('prerelease'),
    SetMetadata: set('metadata'),
  };
}

const VERSIONS = new WeakMap<GoObject, Version>();

function pointerMethods(v: Version): Record<string, GoMethod> {
  const against = (test: (d: number) => boolean): GoMethod => ({
    params: [POINTER],
    call: ([other]) => test(compare(v, VERSIONS.get(other as GoObject)!)),
  });
  return {
    Original: getter(() => v.original),
    Compare: { params: [POINTER], call: ([other]) => BigInt(compare(v, VERSIONS.get(other as GoObject)!)) },
    LessThan: against((d) => d < 0),
    LessThanEqual: against((d) => d <= 0),
    GreaterThan: against((d) => d > 0),
    GreaterThanEqual: against((d) => d >= 0),
    Equal: against((d) => d === 0),
  };
}

function versionObject(v: Version, pointer: boolean): GoObject {
  const methods = pointer ? { ...valueMethods(v), ...pointerMethods(v) } : valueMethods(v);
  const object = new GoObject(pointer ? POINTER : 'semver.Version', versionText(v), methods);
  VERSIONS.set(object, v);
  return object;
}

/** Masterminds semver v3 NewVersion (coercing `1.2` to 1.2.0): a *Version, or its error. */
export function semverOf(text: string): GoObject {
  const parsed = parseSemver(text);
  const m = /^v?[0-9.]+(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(text.trim());
  if (!parsed || !m) throw new TemplateError('Invalid Semantic Version');
  const [major, minor, patch, pre] = parsed;
  if (pre) validate(pre, 'prerelease');
  if (m[2]) validate(m[2], 'metadata');
  const version = { major: BigInt(major), minor: BigInt(minor), patch: BigInt(patch), pre, metadata: m[2] ?? '' };
  return versionObject({ ...version, original: text }, true);
}
