// One plan with every action and several warnings, built from the microservices-demo repository:
// the input of the golden plan comment and check run.
import { planChanges } from '../../../src/core/plan/index.js';
import { defaultConfig } from '../../../src/core/config/index.js';
import type { Plan } from '../../../src/core/model/index.js';
import { byName, edited, liveOf, microservices, scaledByHand } from '../plan/build.js';

export function scenarioPlan(): Plan {
  const base = microservices();
  const cart = byName(base, 'Deployment', 'cartservice');
  const ad = byName(base, 'Deployment', 'adservice');
  const head = base
    .filter((d) => !(d.key.kind === 'Deployment' && d.key.name === 'emailservice'))
    .map((d) =>
      d === cart
        ? edited(d, (o) => {
            (o.spec as any).replicas = 2;
            (o.spec as any).template.spec.containers[0].image = 'cartservice:v2';
          })
        : d,
    );
  const live = base
    .filter(
      (d) =>
        d !== ad &&
        !(d.key.kind === 'Service' && d.key.name === 'adservice') &&
        !(d.key.kind === 'ServiceAccount' && d.key.name === 'adservice'),
    )
    .map((d) => liveOf(d));
  const liveCart = live.find((o) => o.kind === 'Deployment' && o.metadata.name === 'cartservice')!;
  scaledByHand(liveCart, 5);
  return planChanges({
    head,
    base,
    live,
    config: defaultConfig(),
    cluster: {
      name: 'prod-eu',
      path: 'kubernetes-manifests',
      defaultNamespace: 'default',
      prune: true,
      staleAfter: '30m',
    },
    snapshot: { capturedAt: '2026-12-02T11:50:00Z', complete: true, errors: [] },
    now: '2026-12-02T12:00:00Z',
  });
}
