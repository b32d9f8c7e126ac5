// Values set inside the YAML text a literal block scalar holds (an Argo CD helm.values, a ConfigMap's
// values.yaml): only the changed lines are written, at the block's indentation; the header, comments,
// blank lines and everything around the block stay byte for byte.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { setEmbeddedValueAt } from '../../../src/core/codify/yaml-embedded.js';
import { changedLines } from './support.js';

/** The range of the block scalar that is `key`'s value (its header starts after `key: `). */
function blockOf(text: string, key: string): [number, number] {
  const start = text.indexOf(`${key}: `) + key.length + 2;
  return [start, start + 1];
}

describe('setEmbeddedValueAt', () => {
  const app = [
    'spec:',
    '  helm:',
    '    values: |- # production',
    '      # two zones',
    '      replicaCount: 2',
    '',
    '      image:',
    '        tag: "1.0" # pinned',
    '  other: 1',
    '',
  ].join('\n');

  it('rewrites the one changed line, comments and the blank line kept', () => {
    const result = setEmbeddedValueAt(app, blockOf(app, 'values'), ['image', 'tag'], '1.1');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(changedLines(app, result.text)).toEqual({
      removed: ['        tag: "1.0" # pinned'],
      added: ['        tag: "1.1" # pinned'],
    });
    expect(result.line).toBe(8);
    expect(parse(parse(result.text).spec.helm.values)).toEqual({ replicaCount: 2, image: { tag: '1.1' } });
  });

  it('adds a missing value at the block indentation, before what follows the block', () => {
    const result = setEmbeddedValueAt(app, blockOf(app, 'values'), ['resources', 'limits', 'cpu'], '200m');
    expect(result.ok && changedLines(app, result.text)).toEqual({
      removed: [],
      added: ['      resources:', '        limits:', '          cpu: 200m'],
    });
    expect(result.ok && result.text.endsWith('  other: 1\n')).toBe(true);
  });

  it('edits a ConfigMap key at the end of the file, with no line break after it', () => {
    const text = 'data:\n  values.yaml: |\n    replicaCount: 2\n    debug: false';
    const result = setEmbeddedValueAt(text, blockOf(text, 'values.yaml'), ['replicaCount'], 3);
    expect(result.ok && result.text).toBe('data:\n  values.yaml: |\n    replicaCount: 3\n    debug: false');
  });

  it('refuses a folded block, an indentation indicator and a value that is not a block', () => {
    const folded = 'values: >\n  replicaCount: 2\n';
    const indicated = 'values: |2\n    replicaCount: 2\n';
    const quoted = 'values: "replicaCount: 2"\n';
    for (const text of [folded, indicated, quoted]) {
      const result = setEmbeddedValueAt(text, blockOf(text, 'values'), ['replicaCount'], 3);
      expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/not edited/) });
    }
  });

  it('refuses text that is not a map of values, saying so', () => {
    const text = 'values: |\n  - a\n  - b\n';
    const result = setEmbeddedValueAt(text, blockOf(text, 'values'), ['replicaCount'], 3);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/^in the values text: /) });
  });
});
