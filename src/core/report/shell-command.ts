// Shell commands the App suggests in issues and comments (`flux resume kustomization apps -n
// flux-system`), built from names found in a snapshot. A reader pastes them into a terminal, so a
// name only becomes an argument when it is one the Kubernetes API accepts, and every argument is
// quoted for POSIX shells unless it is made of characters no shell treats specially.
import { ruleProblem, type NameRule } from '../k8s/object-names.js';

/** The argument as one POSIX shell word. */
export function shellQuote(argument: string): string {
  if (/^[A-Za-z0-9._:/=@+-]+$/.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

export type CommandPart = string | { value: string; rule: NameRule };

/** The command line, or undefined when a name in it is not one the API accepts (then none is suggested). */
export function shellCommand(parts: readonly CommandPart[]): string | undefined {
  const words: string[] = [];
  for (const part of parts) {
    if (typeof part !== 'string' && ruleProblem(part.rule, part.value)) return undefined;
    words.push(shellQuote(typeof part === 'string' ? part : part.value));
  }
  return words.join(' ');
}
