// The App's private key, found as Probot finds it (@probot/get-private-key, which Probot's own
// `createProbot` uses): PRIVATE_KEY (the PEM text, "\n"-escaped or base64 as some hosts need), else
// PRIVATE_KEY_PATH (the .pem file GitHub hands out), else the single *.pem file in the working
// directory. Unlike Probot, a key that is named but cannot be used is an error at start, not an
// "Invalid keyData" at every GitHub call later.
import { createPrivateKey } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const PEM = /-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----/;

export type PrivateKeyFound = { key: string; from: string } | undefined;

function fromVariable(value: string): string {
  let key = value;
  // Probot accepts the PEM base64-encoded (a one-line form some hosting consoles need).
  if (Buffer.from(key, 'base64').toString('base64') === key) key = Buffer.from(key, 'base64').toString('utf8');
  return key.replace(/\\n/g, '\n');
}

function fromFile(path: string, variable: string): string {
  if (!existsSync(path))
    throw new Error(
      `${variable} names ${path}, which does not exist: point it at the .pem file downloaded from the App's settings page`,
    );
  return readFileSync(path, 'utf8');
}

/** Throws with what to change when a key is named but unusable; undefined when none is set. */
export function readPrivateKey(env: NodeJS.ProcessEnv, cwd = process.cwd()): PrivateKeyFound {
  let found: PrivateKeyFound;
  if (env.PRIVATE_KEY) found = { key: fromVariable(env.PRIVATE_KEY), from: 'PRIVATE_KEY' };
  else if (env.PRIVATE_KEY_PATH)
    found = {
      key: fromFile(resolve(cwd, env.PRIVATE_KEY_PATH), 'PRIVATE_KEY_PATH'),
      from: `PRIVATE_KEY_PATH (${env.PRIVATE_KEY_PATH})`,
    };
  else {
    const pems = readdirSync(cwd).filter((name) => name.endsWith('.pem'));
    if (pems.length > 1)
      throw new Error(`several .pem files in ${cwd} (${pems.join(', ')}): set PRIVATE_KEY_PATH to the App's key`);
    if (pems.length === 1) found = { key: readFileSync(resolve(cwd, pems[0]), 'utf8'), from: pems[0] };
  }
  if (!found) return undefined;
  const pem = PEM.exec(found.key)?.[0];
  try {
    if (!pem) throw new Error('no PEM block');
    createPrivateKey(pem);
  } catch (error) {
    throw new Error(
      `the private key from ${found.from} is not a PEM private key (${(error as Error).message}): use the .pem file GitHub generated for the App, unchanged`,
    );
  }
  return { key: pem + '\n', from: found.from };
}
