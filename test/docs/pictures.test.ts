// The pictures in the docs show what the current templates write: each is rendered from a golden
// output by scripts/render-pictures.ts, which records the golden's hash beside the picture. A golden
// that changed without its picture being rendered again fails here.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const RENDER = 'npx tsx scripts/render-pictures.ts (apt-get install chromium fonts-noto-core fonts-noto-color-emoji)';

interface Picture {
  golden: string;
  png: string;
  goldenSha256?: string;
  pngSha256?: string;
  tablesWiderThanComment?: number;
}

const pictures = JSON.parse(readFileSync(join(ROOT, 'docs/images/pictures.json'), 'utf8')) as Picture[];
const sha256 = (path: string): string =>
  createHash('sha256')
    .update(readFileSync(join(ROOT, path)))
    .digest('hex');

describe('the pictures of the docs', () => {
  it.each(pictures.map((picture) => [picture.png, picture] as const))('%s shows its golden as it is', (_, picture) => {
    expect(existsSync(join(ROOT, picture.golden)), `${picture.golden} is gone: update docs/images/pictures.json`).toBe(
      true,
    );
    expect(sha256(picture.golden), `${picture.golden} changed since ${picture.png} was rendered: run ${RENDER}`).toBe(
      picture.goldenSha256,
    );
    expect(sha256(`docs/images/${picture.png}`), `docs/images/${picture.png} is not the picture rendered`).toBe(
      picture.pngSha256,
    );
    // Measured by Chromium when the picture was rendered: a reader scrolls no table sideways.
    expect(picture.tablesWiderThanComment, `${picture.golden} has tables wider than a comment`).toBe(0);
  });

  it('lists every picture the docs show, and every one it lists is shown', () => {
    const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    const shown = new Set(
      docs.flatMap((name) =>
        [...readFileSync(join(ROOT, 'docs', name), 'utf8').matchAll(/\]\(images\/([\w.-]+\.png)\)/g)].map((m) => m[1]),
      ),
    );
    expect([...shown].sort()).toEqual(pictures.map((picture) => picture.png).sort());
  });
});
