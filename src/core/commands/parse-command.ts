// A pull request comment as a driftback command: `/driftback <verb> …` on the comment's first line, as
// Atlantis reads `atlantis plan`. Only the first line counts; anything below it is the person's own
// text. A comment that does not start with `/driftback` is no command (undefined), and one that does
// but cannot be read is `invalid` with the words that say what is accepted.

export const COMMAND_PREFIX = '/driftback';

/** `Kind/namespace/name`, or `Kind/name` for a cluster-scoped object: how people name an object. */
export interface ObjectRef {
  kind: string;
  namespace: string;
  name: string;
}

/** What a command is about: an object, a field (a path as the PR shows it, or a JSON pointer), or both. */
export interface Target {
  object?: ObjectRef;
  field?: string;
}

export type Command =
  | { type: 'help' }
  | { type: 'plan' }
  | { type: 'explain'; target: Target }
  | { type: 'ignore'; target: Target; reason?: string }
  | { type: 'allow'; target: Target; reason: string }
  | { type: 'invalid'; message: string };

/** Whether a command changes what driftback does (runs work or records a decision): those need write access. */
export function changesState(command: Command): boolean {
  return command.type === 'plan' || command.type === 'ignore' || command.type === 'allow';
}

/** A reason is kept to this many characters (it is shown in PR bodies and replies). */
export const REASON_MAX = 300;

const OBJECT = /^([A-Z][A-Za-z0-9]*)(?:\.[A-Za-z0-9.-]+)?\/([^/\s]+)(?:\/([^/\s]+))?$/;
/** A field as the PR shows it (`spec.replicas`, `containers[api].image`) or a JSON pointer (`/spec/replicas`). */
const FIELD = /^(\/\S*|[a-z]\S*[.[]\S*)$/;

export function parseObjectRef(token: string): ObjectRef | undefined {
  const match = OBJECT.exec(token);
  if (!match) return undefined;
  const [, kind, first, second] = match;
  return second === undefined ? { kind, namespace: '', name: first } : { kind, namespace: first, name: second };
}

interface Parsed {
  target: Target;
  reason?: string;
}

/** `<field> [on <object>] [because <reason>]` or `<object> [<field>] [because] [<reason>]`. */
function parseTarget(words: readonly string[]): Parsed | string {
  const target: Target = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const lower = word.toLowerCase();
    if (lower === 'because') return { target, reason: words.slice(i + 1).join(' ') };
    const object = parseObjectRef(lower === 'on' && !target.object ? (words[i + 1] ?? '') : word);
    if (object && !target.object) {
      target.object = object;
      if (lower === 'on') i++;
      continue;
    }
    if (target.field === undefined && (FIELD.test(word) || (i === 0 && /^[a-z]/.test(word)))) {
      target.field = word;
      continue;
    }
    if (!target.object && !target.field) return `\`${word}\` is neither an object (Kind/namespace/name) nor a field`;
    return { target, reason: words.slice(i).join(' ') };
  }
  return { target };
}

function trimmedReason(reason: string | undefined): string | undefined {
  const text = reason?.trim();
  if (!text) return undefined;
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX - 1)}…` : text;
}

function withTarget(verb: 'explain' | 'ignore' | 'allow', words: readonly string[]): Command {
  const parsed = parseTarget(words);
  if (typeof parsed === 'string') return { type: 'invalid', message: parsed };
  const { target } = parsed;
  if (!target.object && !target.field)
    return { type: 'invalid', message: `\`${verb}\` needs an object (Kind/namespace/name), a field, or both` };
  const reason = trimmedReason(parsed.reason);
  if (verb === 'explain')
    return reason === undefined
      ? { type: 'explain', target }
      : { type: 'invalid', message: '`explain` takes an object and a field, no reason' };
  if (verb === 'ignore') return reason === undefined ? { type: 'ignore', target } : { type: 'ignore', target, reason };
  if (reason === undefined)
    return { type: 'invalid', message: '`allow` needs a reason: `because …` says why this may be codified' };
  return { type: 'allow', target, reason };
}

/** The command a comment holds; undefined when its first line does not start with `/driftback`. */
export function parseCommand(body: string): Command | undefined {
  const line = body.replace(/^\s+/, '').split(/\r?\n/, 1)[0] ?? '';
  const words = line.split(/\s+/).filter(Boolean);
  if (words[0]?.toLowerCase() !== COMMAND_PREFIX) return undefined;
  const verb = words[1]?.toLowerCase();
  const rest = words.slice(2);
  switch (verb) {
    case undefined:
    case 'help':
      return { type: 'help' };
    case 'plan':
      return rest.length === 0 ? { type: 'plan' } : { type: 'invalid', message: '`plan` takes no arguments' };
    case 'explain':
    case 'ignore':
    case 'allow':
      return withTarget(verb, rest);
    default:
      return { type: 'invalid', message: `\`${words[1]}\` is not a driftback command` };
  }
}
