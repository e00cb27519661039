// `npm run bench`: runs every bench/*.bench.mjs (or those named on the command line) in one
// session and prints their reports. Figures are ratios against a reference measured in the same run.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

let failed = false;
for (const file of files) {
  const started = Date.now();
  console.log(`\n=== ${file} ===`);
  try {
    const mod = await import(join(here, file));
    await mod.default();
  } catch (err) {
    failed = true;
    console.error(`${file} failed:`, err);
  }
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
process.exit(failed ? 1 : 0);
