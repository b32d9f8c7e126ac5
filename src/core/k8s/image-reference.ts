// The registry a container image is pulled from, as container tooling reads an image reference
// (distribution/reference `ParseNormalizedNamed` / `splitDockerDomain`, which containerd and the
// kubelet's CRI clients use): `nginx` and `library/nginx` are Docker Hub (`docker.io`), the legacy
// `index.docker.io` is `docker.io` too, a first component with `.` or `:` or `localhost` is a host
// (a port kept: `registry:5000` is its own registry), and tags and digests say nothing about it.

const DOCKER_HUB = 'docker.io';
const LEGACY_DOCKER_HUB = 'index.docker.io';

/**
 * The registry host of an image reference, lower case (host names compare without case), or undefined
 * when the string is not an image reference at all (empty, or blank).
 */
export function registryOf(image: string): string | undefined {
  const reference = image.trim();
  if (!reference) return undefined;
  // A digest's `@` ends the name; a tag's `:` after the last `/` is not a port.
  const name = reference.split('@')[0]!;
  const slash = name.indexOf('/');
  if (slash < 0) return DOCKER_HUB;
  const first = name.slice(0, slash);
  if (first === 'localhost') return first;
  if (first === LEGACY_DOCKER_HUB) return DOCKER_HUB;
  // Upper case is not allowed in a repository path, so an upper-case first component is a host.
  if (/[.:]/.test(first) || first.toLowerCase() !== first) return first.toLowerCase();
  return DOCKER_HUB;
}
