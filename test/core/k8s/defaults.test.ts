// Defaulted fields: what the server fills in, each written once.
import { expect, it } from 'vitest';
import { defaultImagePullPolicy, keyFieldDefault } from '../../../src/core/k8s/index.js';

it.each([
  ['nginx', 'Always'],
  ['nginx:latest', 'Always'],
  ['registry.example:5000/shop/api', 'Always'],
  ['nginx:1.27', 'IfNotPresent'],
  ['registry.example:5000/shop/api:1.4.0', 'IfNotPresent'],
  ['nginx@sha256:abc', 'IfNotPresent'],
])('an image %s is pulled %s by default', (image, policy) => expect(defaultImagePullPolicy(image)).toBe(policy));

it.each([
  ['protocol', 'TCP'],
  ['name', undefined],
  ['port', undefined],
  ['constructor', undefined],
])('key field %s defaults to %j', (field, value) => expect(keyFieldDefault(field)).toBe(value));
