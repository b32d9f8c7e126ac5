// `npm run bench`: runs every bench/*.bench.ts in turn (or those named on the command line).
// Each prints its own figures and ratios.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)))
  .sort();
for (const file of files) {
  console.log(`\n## ${file.replace('.bench.ts', '')}\n`);
  await import(pathToFileURL(join(dir, file)).href);
}
