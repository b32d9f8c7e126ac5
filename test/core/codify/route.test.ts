import { describe, expect, it } from 'vitest';
import { overlayFor } from '../../../src/core/codify/route.js';
import { kustomizationUsers } from '../../../src/core/codify/shared-bases.js';
import { fixtureRepo } from './support.js';

describe('overlayFor: where a change to a shared base goes', () => {
  const users = new Map([
    ['base', 2],
    ['overlays/eu', 1],
    ['common/deploy.yaml', 2],
  ]);
  const chain = ['base/kustomization.yaml', 'overlays/eu/kustomization.yaml', 'clusters/eu/kustomization.yaml'];
  it.each([
    {
      name: 'a base used twice: the overlay that uses it',
      owner: 'base/kustomization.yaml',
      file: 'base/deploy.yaml',
      expected: 'overlays/eu/kustomization.yaml',
    },
    {
      name: 'an overlay used once: in place',
      owner: 'overlays/eu/kustomization.yaml',
      file: 'overlays/eu/patch.yaml',
      expected: undefined,
    },
    {
      name: 'a file listed by two kustomizations: the one that listed it',
      owner: 'overlays/eu/kustomization.yaml',
      file: 'common/deploy.yaml',
      expected: 'overlays/eu/kustomization.yaml',
    },
    { name: 'plain manifests: in place', owner: undefined, file: 'deploy.yaml', expected: undefined },
  ])('$name', ({ owner, file, expected }) => {
    expect(overlayFor(chain, owner, users, file)).toBe(expected);
  });

  it('null when every kustomization up to the root is shared', () => {
    expect(overlayFor(['base/kustomization.yaml'], 'base/kustomization.yaml', users, 'base/x.yaml')).toBeNull();
  });

  it("counts the flux2 example's base as used by both overlays", () => {
    expect(kustomizationUsers(fixtureRepo('flux2-kustomize-helm-example')).get('apps/base/podinfo')).toBe(2);
  });
});
