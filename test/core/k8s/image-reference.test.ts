// The registry host of an image reference, as container tooling normalises it. Rows are the cases of
// distribution/reference normalize_test.go (TestParseRepositoryInfo, TestNormalizedSplitHostname,
// TestParseAnyReference), read from the upstream repository, plus what a pod spec writes.
import { describe, expect, it } from 'vitest';
import { registryOf } from '../../../src/core/k8s/index.js';

describe('registryOf', () => {
  it.each([
    // Familiar names are Docker Hub: `ubuntu` is docker.io/library/ubuntu.
    ['nginx', 'docker.io'],
    ['nginx:1.27', 'docker.io'],
    ['library/ubuntu', 'docker.io'],
    ['fooo/bar', 'docker.io'],
    ['docker/migrator', 'docker.io'],
    ['test_com/foo', 'docker.io'],
    ['docker.io/library/redis:latest', 'docker.io'],
    ['docker.io/foo', 'docker.io'],
    // The legacy Docker Index host is the same registry.
    ['index.docker.io/library/ubuntu', 'docker.io'],
    // A digest or a tag says nothing about the host; a `:` before the first `/` is a port.
    ['redis@sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c', 'docker.io'],
    ['busybox:1.38.0@sha256:fd8d9aa63ba2f0982b5304e1ee8d3b90a210bc1ffb5314d980eb6962f1a9715d', 'docker.io'],
    ['127.0.0.1:8000/private/moonbase', '127.0.0.1:8000'],
    ['example.com/privatebase', 'example.com'],
    ['example.com:8000/private/moonbase:v1', 'example.com:8000'],
    ['test-com:8080/foo', 'test-com:8080'],
    ['xn--n3h.com:18080/foo', 'xn--n3h.com:18080'],
    ['localhost/app', 'localhost'],
    ['[fc00::1]:5000/docker', '[fc00::1]:5000'],
    // Upper case is a host (repository paths are lower case); hosts compare without case.
    ['Foo/bar', 'foo'],
    ['GHCR.IO/acme/web:1.0', 'ghcr.io'],
    ['ghcr.io/stefanprodan/podinfo:6.14.1', 'ghcr.io'],
    ['registry.k8s.io/redis:e2e', 'registry.k8s.io'],
  ])('%s → %s', (image, registry) => expect(registryOf(image)).toBe(registry));

  it('names no registry for an empty image', () => {
    expect(registryOf('')).toBeUndefined();
    expect(registryOf('  ')).toBeUndefined();
  });
});
