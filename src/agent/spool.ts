// The snapshot is streamed through gzip into a temporary file, then uploaded from it: memory
// holds one object at a time however big the cluster, and a retried upload re-reads the file
// instead of listing the cluster again.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PassThrough, type Writable } from 'node:stream';
import { createGzip } from 'node:zlib';

export interface Spool {
  file: string;
  /** Write the document here. */
  input: Writable;
  /** Ends the input and waits until the compressed file is complete; returns its size. */
  finish(): Promise<number>;
  remove(): Promise<void>;
}

export async function openSpool(dir = tmpdir()): Promise<Spool> {
  const folder = await mkdtemp(join(dir, 'driftback-'));
  const file = join(folder, 'snapshot.json.gz');
  const input = new PassThrough({ highWaterMark: 256 * 1024 });
  const done = pipeline(input, createGzip({ level: 6 }), createWriteStream(file));
  // Surface write errors on finish(), not as an unhandled rejection.
  done.catch(() => undefined);
  return {
    file,
    input,
    async finish() {
      input.end();
      await done;
      return (await stat(file)).size;
    },
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
