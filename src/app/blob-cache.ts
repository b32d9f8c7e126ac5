// The App's blob cache, kept to what renders need. Blobs fetched during a job are held in memory;
// only those the job's renders read (and the kustomizations and the config, which every render of
// the repository reads) are written to the store, each at most MAX_CACHED_BLOB_BYTES. Every use
// records when, and the maintenance job evicts what nobody used for BLOB_UNUSED_DAYS, so files of
// closed pull requests, images and documents never stay. Tree listings are cached the same way,
// by tree sha, so a reconcile at a known HEAD needs no GitHub call at all.
import type { BaseTreeListing, BlobCache } from '../github/index.js';
import { MAX_MANIFEST_FILE_BYTES } from '../core/manifests/read-yaml.js';
import type { Store } from '../store/types.js';

/** Largest blob kept: a larger manifest is refused by the renderer anyway. 4 MiB. */
export const MAX_CACHED_BLOB_BYTES = MAX_MANIFEST_FILE_BYTES;
/** Largest tree listing kept (about 200,000 entries). 16 MiB. */
export const MAX_CACHED_LISTING_BYTES = 16 * 1024 * 1024;
/** Blobs and listings no job used for this long are evicted. Default 2 days (a pull request's base is usually newer). */
export const BLOB_UNUSED_DAYS = 2;

type BlobStore = Pick<Store, 'getBlobs' | 'putBlobs' | 'touchBlobs'>;

/** One job's view of the cache: reads go to the store, fetched blobs wait until `keep`. */
export interface BlobSession extends BlobCache {
  /** Writes the fetched blobs among `shas` (size-capped) and marks the cached ones as used at `now`. */
  keep(shas: Iterable<string>, now: number): Promise<void>;
}

export function blobSession(store: BlobStore): BlobSession {
  const fetched = new Map<string, string>();
  const hits = new Set<string>();
  return {
    async get(shas) {
      const found = await store.getBlobs(shas);
      for (const sha of found.keys()) hits.add(sha);
      return found;
    },
    async put(blobs) {
      for (const [sha, text] of blobs) fetched.set(sha, text);
    },
    async keep(shas, now) {
      const wanted = new Set(shas);
      const fresh = new Map(
        [...fetched].filter(
          ([sha, text]) => wanted.has(sha) && Buffer.byteLength(text, 'utf8') <= MAX_CACHED_BLOB_BYTES,
        ),
      );
      if (fresh.size > 0) await store.putBlobs(fresh, now);
      const used = [...hits].filter((sha) => wanted.has(sha));
      if (used.length > 0) await store.touchBlobs(used, now);
    },
  };
}

// `tree2:` listings carry each blob's size, so a file read only when a render asks for it is refused
// before it is fetched when it is too large. Listings of the older `tree:` form (no sizes) are not
// read: the tree is listed again, and the maintenance job evicts them.
const listingKey = (treeSha: string): string => `tree2:${treeSha}`;

/** A listing as cached: one `mode sha size path` line per entry that is not a directory (size `-` when unknown). */
function encodeListing(listing: BaseTreeListing): string {
  return listing.tree
    .filter((entry) => entry.type !== 'tree' && entry.path && entry.sha && entry.mode)
    .map((entry) => `${entry.mode} ${entry.sha} ${entry.size ?? '-'} ${entry.path}`)
    .join('\n');
}

function decodeListing(treeSha: string, text: string): BaseTreeListing {
  const tree =
    text === ''
      ? []
      : text.split('\n').map((line) => {
          const [mode, sha, size] = line.split(' ', 3);
          const path = line.slice(mode.length + sha.length + size.length + 3);
          const type = mode === '160000' ? 'commit' : 'blob';
          return { path, mode, sha, type, ...(size === '-' ? {} : { size: Number(size) }) };
        });
  return { sha: treeSha, tree };
}

export async function cachedListing(
  store: BlobStore,
  treeSha: string,
  now: number,
): Promise<BaseTreeListing | undefined> {
  const text = (await store.getBlobs([listingKey(treeSha)])).get(listingKey(treeSha));
  if (text === undefined) return undefined;
  await store.touchBlobs([listingKey(treeSha)], now);
  return decodeListing(treeSha, text);
}

export async function keepListing(store: BlobStore, listing: BaseTreeListing, now: number): Promise<void> {
  const text = encodeListing(listing);
  if (Buffer.byteLength(text, 'utf8') <= MAX_CACHED_LISTING_BYTES)
    await store.putBlobs(new Map([[listingKey(listing.sha), text]]), now);
}

/** The maintenance job's step: drops blobs and listings unused for BLOB_UNUSED_DAYS. */
export async function evictUnusedBlobs(store: Pick<Store, 'evictBlobs'>, now: number): Promise<number> {
  return store.evictBlobs(now - BLOB_UNUSED_DAYS * 24 * 60 * 60 * 1000);
}
