// Services of type LoadBalancer and Ingresses are healthy once the load balancer reports an address.
import type { Health, KubeObject } from '../model/index.js';
import { listAt, stringAt } from './read.js';

export function serviceHealth(obj: KubeObject): Health {
  if (stringAt(obj, 'spec', 'type') !== 'LoadBalancer') return { status: 'Healthy' };
  return listAt(obj, 'status', 'loadBalancer', 'ingress').length > 0
    ? { status: 'Healthy' }
    : { status: 'Progressing', message: 'Waiting for the load balancer to get an address' };
}

export function ingressHealth(obj: KubeObject): Health {
  return listAt(obj, 'status', 'loadBalancer', 'ingress').length > 0
    ? { status: 'Healthy' }
    : { status: 'Progressing', message: 'Waiting for the ingress to get an address' };
}
