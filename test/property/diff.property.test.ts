// The drift engine on generated objects: an object compared with itself (or with its own manifest
// rendered from YAML) shows nothing, and swapping desired and live reports the same paths.
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config/index.js';
import { diffObject, diffResources } from '../../src/core/diff/index.js';
import { renderManifests } from '../../src/core/manifests/index.js';
import type { KubeObject } from '../../src/core/model/index.js';

const fieldName = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/);
const objectName = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
// Non-empty scalars: `null`, "" and {} mean "absent" to the API, so they are not values to swap.
const scalar = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.integer(), fc.boolean());
const anyValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.constantFrom(null, '', [], {}),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fieldName, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A tree whose leaves hold two values: projecting it gives two objects of the same shape. */
type PairTree = { leaf: [unknown, unknown] } | { map: Record<string, PairTree> } | { list: PairTree[] };
const pairTree: fc.Arbitrary<PairTree> = fc.letrec<{ tree: PairTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.tuple(scalar, scalar).map((leaf) => ({ leaf })),
    fc.dictionary(fieldName, tie('tree'), { minKeys: 1, maxKeys: 4 }).map((map) => ({ map })),
    fc.array(tie('tree'), { minLength: 1, maxLength: 3 }).map((list) => ({ list })),
  ),
})).tree;

function project(tree: PairTree, side: 0 | 1): unknown {
  if ('leaf' in tree) return tree.leaf[side];
  if ('list' in tree) return tree.list.map((item) => project(item, side));
  return Object.fromEntries(Object.entries(tree.map).map(([key, value]) => [key, project(value, side)]));
}

/** Containers matched by name (a keyed list), each with an env list keyed by name. */
const containers = fc.uniqueArray(
  fc.record({
    name: objectName,
    image: fc.tuple(scalar, scalar),
    env: fc.uniqueArray(
      fc.record({ name: fieldName, value: fc.tuple(fc.string({ minLength: 1 }), fc.string({ minLength: 1 })) }),
      { selector: (e) => e.name, maxLength: 3 },
    ),
  }),
  { selector: (c) => c.name, minLength: 1, maxLength: 3 },
);

function widget(name: string, spec: unknown): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'team' }, spec } as KubeObject;
}

function deployment(
  name: string,
  list: Array<{ name: string; image: [unknown, unknown]; env: Array<{ name: string; value: [string, string] }> }>,
  side: 0 | 1,
): KubeObject {
  const spec = {
    template: {
      spec: {
        containers: list.map((c) => ({
          name: c.name,
          image: c.image[side],
          env: c.env.map((e) => ({ name: e.name, value: e.value[side] })),
        })),
      },
    },
  };
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'team' }, spec } as KubeObject;
}

const paths = (a: KubeObject, b: KubeObject): string[] =>
  diffObject(a, b)
    .changes.map((change) => change.path)
    .sort();

describe('drift engine properties', () => {
  it('an object compared with a copy of itself has no changes, whatever it holds', () => {
    fc.assert(
      fc.property(
        objectName,
        fc.dictionary(fieldName, anyValue, { maxKeys: 5 }),
        fc.dictionary(fieldName, fc.string(), { maxKeys: 4 }),
        (name, spec, labels) => {
          const object = { ...widget(name, spec), metadata: { name, namespace: 'team', labels } } as KubeObject;
          expect(diffObject(object, structuredClone(object)).changes).toEqual([]);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('swapping desired and live reports the same paths (generic objects)', () => {
    fc.assert(
      fc.property(objectName, pairTree, (name, tree) => {
        const a = widget(name, project(tree, 0));
        const b = widget(name, project(tree, 1));
        expect(paths(a, b)).toEqual(paths(b, a));
      }),
      { numRuns: 1500 },
    );
  });

  it('swapping desired and live reports the same paths (keyed lists: containers and env by name)', () => {
    fc.assert(
      fc.property(objectName, containers, (name, list) => {
        const a = deployment(name, list, 0);
        const b = deployment(name, list, 1);
        const forward = paths(a, b);
        expect(forward).toEqual(paths(b, a));
        const differing = list
          .flatMap((c) => [c.image[0] !== c.image[1], ...c.env.map((e) => e.value[0] !== e.value[1])])
          .filter(Boolean).length;
        expect(forward).toHaveLength(differing);
      }),
      { numRuns: 1500 },
    );
  });

  it('objects rendered from their own YAML are all in sync with themselves as live', () => {
    const config = defaultConfig();
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(objectName, fc.dictionary(fieldName, anyValue, { maxKeys: 4 })), {
          selector: ([name]) => name,
          minLength: 1,
          maxLength: 5,
        }),
        (specs) => {
          const live = specs.map(([name, spec]) => widget(name, spec));
          const text = live.map((object) => stringify(object)).join('---\n');
          const rendered = renderManifests(new Map([['widgets.yaml', text]]), '');
          expect(rendered.errors).toEqual([]);
          const result = diffResources(rendered.objects, live, { config });
          expect(result.resources.map((resource) => resource.status)).toEqual(live.map(() => 'in-sync'));
        },
      ),
      { numRuns: 500 },
    );
  });
});
