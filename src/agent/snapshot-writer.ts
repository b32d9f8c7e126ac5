// Writes a snapshot document incrementally: the header, then items one at a time, then the
// footer with `scope` (known only once every type was listed). JSON key order does not matter
// to readers, so `scope` after `items` is a valid document; memory holds one item, not the list.
import { once } from 'node:events';
import { SNAPSHOT_API_VERSION, type KubeObject, type Snapshot } from '../core/model/index.js';

export type SnapshotHeader = Pick<Snapshot, 'repository' | 'cluster' | 'capturedAt' | 'agent' | 'server'>;

export class SnapshotWriter {
  private itemCount = 0;

  constructor(private readonly out: NodeJS.WritableStream) {}

  async begin(header: SnapshotHeader): Promise<void> {
    const head = JSON.stringify({ apiVersion: SNAPSHOT_API_VERSION, kind: 'Snapshot', ...header });
    await this.write(`${head.slice(0, -1)},"items":[`);
  }

  /** Writes one item and returns its size in bytes; waits when the stream is full. */
  async item(object: KubeObject): Promise<number> {
    const text = JSON.stringify(object);
    await this.write(this.itemCount === 0 ? `\n${text}` : `,\n${text}`);
    this.itemCount++;
    return Buffer.byteLength(text);
  }

  async end(scope: Snapshot['scope']): Promise<void> {
    await this.write(`\n],"scope":${JSON.stringify(scope)}}\n`);
  }

  private async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
}
