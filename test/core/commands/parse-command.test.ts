// How a PR comment reads as a driftback command: the verbs, both word orders of `ignore`, the reason,
// and the answers to what cannot be read (each says what is accepted).
import { describe, expect, it } from 'vitest';
import { changesState, matchItems, parseCommand, type CommandItem } from '../../../src/core/commands/index.js';

const cart = { kind: 'Deployment', namespace: 'shop', name: 'cart' };

describe('parseCommand', () => {
  it.each([
    ['/driftback plan', { type: 'plan' }],
    ['/driftback', { type: 'help' }],
    ['  /driftback help\nthanks!', { type: 'help' }],
    ['/driftback explain Deployment/shop/cart', { type: 'explain', target: { object: cart } }],
    [
      '/driftback explain Deployment/shop/cart spec.replicas',
      { type: 'explain', target: { object: cart, field: 'spec.replicas' } },
    ],
    ['/driftback ignore Deployment/shop/cart', { type: 'ignore', target: { object: cart } }],
    [
      '/driftback ignore Deployment/shop/cart spec.replicas scaled for the sale',
      { type: 'ignore', target: { object: cart, field: 'spec.replicas' }, reason: 'scaled for the sale' },
    ],
    [
      '/driftback ignore spec.replicas on Deployment/shop/cart because scaled for the sale',
      { type: 'ignore', target: { object: cart, field: 'spec.replicas' }, reason: 'scaled for the sale' },
    ],
    [
      '/driftback ignore /spec/replicas because HPA tests',
      { type: 'ignore', target: { field: '/spec/replicas' }, reason: 'HPA tests' },
    ],
    [
      '/driftback allow ClusterRoleBinding/oncall-admin because break-glass until Friday',
      {
        type: 'allow',
        target: { object: { kind: 'ClusterRoleBinding', namespace: '', name: 'oncall-admin' } },
        reason: 'break-glass until Friday',
      },
    ],
    [
      '/driftback allow Deployment/shop/cart spec.template.spec.containers[cart].image because vendor hotfix',
      {
        type: 'allow',
        target: { object: cart, field: 'spec.template.spec.containers[cart].image' },
        reason: 'vendor hotfix',
      },
    ],
  ])('%s', (body, expected) => {
    expect(parseCommand(body)).toEqual(expected);
  });

  it('is no command unless the first line starts with /driftback', () => {
    expect(parseCommand('LGTM, but /driftback plan please')).toBeUndefined();
    expect(parseCommand('> /driftback plan')).toBeUndefined();
    expect(parseCommand('/driftbackplan')).toBeUndefined();
  });

  it.each([
    ['/driftback deploy', '`deploy` is not a driftback command'],
    ['/driftback plan now', '`plan` takes no arguments'],
    ['/driftback explain', '`explain` needs an object (Kind/namespace/name), a field, or both'],
    ['/driftback explain Deployment/shop/cart it please', '`explain` takes an object and a field, no reason'],
    ['/driftback allow Deployment/shop/cart', '`allow` needs a reason: `because …` says why this may be codified'],
    ['/driftback ignore Cart because', '`Cart` is neither an object (Kind/namespace/name) nor a field'],
  ])('%s is refused with what is accepted', (body, message) => {
    expect(parseCommand(body)).toEqual({ type: 'invalid', message });
  });

  it('keeps a long reason to 300 characters', () => {
    const command = parseCommand(`/driftback ignore Deployment/shop/cart because ${'x'.repeat(400)}`);
    expect(command?.type === 'ignore' && command.reason?.length).toBe(300);
  });

  it('says which commands change state (those need write access)', () => {
    expect(['plan', 'ignore', 'allow', 'explain', 'help'].map((verb) => changesState({ type: verb } as never))).toEqual(
      [true, true, true, false, false],
    );
  });
});

describe('matchItems', () => {
  const item = (kind: string, namespace: string, name: string, field: string, path: string) =>
    ({ key: { group: 'apps', kind, namespace, name }, field, path }) as Pick<CommandItem, 'key' | 'field' | 'path'>;
  const items = [
    item('Deployment', 'shop', 'cart', 'spec.replicas', '/spec/replicas'),
    item(
      'Deployment',
      'shop',
      'cart',
      'spec.template.spec.containers[cart].image',
      '/spec/template/spec/containers/0/image',
    ),
    item('Deployment', 'shop', 'checkout', 'spec.replicas', '/spec/replicas'),
    item('ClusterRoleBinding', '', 'oncall-admin', '', ''),
  ];

  it('names items by object, by field (as shown or as a pointer, or a field inside it), or both', () => {
    expect(matchItems(items, { object: cart })).toEqual(items.slice(0, 2));
    expect(matchItems(items, { field: 'spec.replicas' })).toEqual([items[0], items[2]]);
    expect(matchItems(items, { object: cart, field: '/spec/replicas' })).toEqual([items[0]]);
    expect(matchItems(items, { object: cart, field: 'spec.template.spec.containers[cart]' })).toEqual([items[1]]);
    expect(matchItems(items, { object: { kind: 'clusterrolebinding', namespace: '', name: 'oncall-admin' } })).toEqual([
      items[3],
    ]);
    expect(matchItems(items, { object: { ...cart, namespace: 'other' } })).toEqual([]);
    expect(matchItems(items, { field: 'spec.rep' })).toEqual([]);
  });

  it('a port named without its protocol names the TCP port (Kubernetes defaults it)', () => {
    const ports = [
      item('Service', 'shop', 'cart', 'spec.ports[8080/TCP].targetPort', '/spec/ports/0/targetPort'),
      item('Service', 'shop', 'cart', 'spec.ports[8080/UDP].targetPort', '/spec/ports/1/targetPort'),
    ];
    const service = { kind: 'Service', namespace: 'shop', name: 'cart' };
    expect(matchItems(ports, { object: service, field: 'spec.ports[8080]' })).toEqual([ports[0]]);
    expect(matchItems(ports, { object: service, field: 'spec.ports[8080].targetPort' })).toEqual([ports[0]]);
    expect(matchItems(ports, { object: service, field: 'spec.ports[8080/UDP]' })).toEqual([ports[1]]);
    expect(matchItems(ports, { object: service, field: 'spec.ports[9090]' })).toEqual([]);
  });
});
