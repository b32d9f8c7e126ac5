// Renders golden outputs (the drift pull request, the plan comment, the emergency pull request, the
// dashboard: the list is docs/images/pictures.json) as GitHub shows them, in headless Chromium, into
// the PNGs of the docs, and records beside each the hash of its golden and of the PNG. Not part of
// CI; test/docs/pictures.test.ts fails when a golden changed and its picture was not re-rendered.
//
//   apt-get install chromium fonts-noto-core fonts-noto-color-emoji    # Debian's Chromium and fonts
//   npx tsx scripts/render-pictures.ts [--chromium /usr/bin/chromium] [--out docs/images]
//
// The page is a pull request comment box as wide as GitHub's at a 1280-pixel window (the comment
// body 808 pixels), styled with github-markdown-css; the Markdown is rendered by markdown-it, the same
// renderer the rendered-structure test uses.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import MarkdownIt from 'markdown-it';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

interface Picture {
  /** Golden Markdown, relative to the repository. */
  golden: string;
  /** PNG written under --out. */
  png: string;
  /** Who the comment box says wrote it, and what. */
  header: string;
  /** Which <details> to show open (the source of a pattern matched against their summary). */
  open: string;
  /** SHA-256 of the golden the PNG was rendered from, and of the PNG: test/docs/pictures.test.ts compares them. */
  goldenSha256?: string;
  pngSha256?: string;
  /** Tables Chromium lays out wider than the comment (a reader would scroll them): must be 0. */
  tablesWiderThanComment?: number;
}

// The pictures of the docs, and what each was rendered from.
const MANIFEST = join(ROOT, 'docs/images/pictures.json');

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

// Chromium's flags for a quiet headless run: no GPU, no sandbox (root in a container), no network of its own.
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const PAGE_CSS = `
  body { background: #fff; margin: 0; padding: 24px; }
  .comment { width: 840px; border: 1px solid #d1d9e0; border-radius: 6px; }
  .comment-header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; padding: 8px 16px; color: #59636e;
    font: 14px -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; border-radius: 6px 6px 0 0; }
  .comment-header b { color: #1f2328; }
  .bot { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 6px; font-size: 12px; }
  .markdown-body { padding: 16px; width: 808px; box-sizing: border-box; }
  .markdown-body pre span { display: inline-block; min-width: 100%; }
  .da { color: #116329; background: #dafbe1; } .dd { color: #82071e; background: #ffebe9; }
  .dr { color: #8250df; } .dh { font-weight: 600; }
`;

/** GitHub's colours for a line of a diff: headers, added, removed, hunk. */
function diffClass(line: string): string {
  if (/^(\+\+\+|---)/.test(line)) return 'dh';
  return line.startsWith('+') ? 'da' : line.startsWith('-') ? 'dd' : line.startsWith('@@') ? 'dr' : '';
}

function page(markdown: string, picture: Picture): string {
  const css = readFileSync(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  const renderer: MarkdownIt = new MarkdownIt({
    html: true,
    linkify: true,
    // GitHub colours added and removed lines of a `diff` block; so does the picture.
    highlight: (code, language) =>
      language !== 'diff'
        ? ''
        : code
            .replace(/\n$/, '')
            .split('\n')
            .map((line) => `<span class="${diffClass(line)}">${renderer.utils.escapeHtml(line)}</span>`)
            .join('\n'),
  });
  const html = renderer.render(markdown);
  return `<!doctype html><html><head><meta charset="utf-8"><style>${css}${PAGE_CSS}</style></head><body>
<div class="comment"><div class="comment-header">${picture.header}</div><div class="markdown-body">${html}</div></div>
</body></html>`;
}

async function main(): Promise<void> {
  const options = {
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    out: { type: 'string', default: 'docs/images' },
  } as const;
  const { values } = parseArgs({ options });
  const out = resolve(ROOT, values.out!);
  mkdirSync(out, { recursive: true });
  const pictures = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Picture[];
  const browser = await chromium.launch({ executablePath: values.chromium, args: FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 900, height: 600 }, deviceScaleFactor: 1 });
    for (const picture of pictures) {
      const view = await context.newPage();
      await view.setContent(page(readFileSync(join(ROOT, picture.golden), 'utf8'), picture), { waitUntil: 'load' });
      await view.evaluate((source) => {
        const open = new RegExp(source);
        for (const details of document.querySelectorAll('details')) {
          if (open.test(details.querySelector('summary')?.textContent?.replace(/^\W+/, '') ?? '')) details.open = true;
        }
      }, picture.open);
      // A table wider than the comment scrolls on GitHub: say so, since the picture cannot show it.
      const overflowing = await view.evaluate(
        () =>
          [...document.querySelectorAll('.markdown-body table')].filter(
            (table) => table.scrollWidth > table.clientWidth,
          ).length,
      );
      if (overflowing) process.stderr.write(`${picture.golden}: ${overflowing} table(s) wider than the comment\n`);
      picture.tablesWiderThanComment = overflowing;
      await view.locator('.comment').screenshot({ path: join(out, picture.png) });
      picture.goldenSha256 = sha256(readFileSync(join(ROOT, picture.golden)));
      picture.pngSha256 = sha256(readFileSync(join(out, picture.png)));
      process.stdout.write(`${join(values.out!, picture.png)}\n`);
    }
    writeFileSync(MANIFEST, `${JSON.stringify(pictures, null, 2)}\n`);
  } finally {
    await browser.close();
  }
}

await main();
