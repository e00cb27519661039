import { readFileSync } from 'node:fs';
import { startLayout } from './lib/layout.mjs';
const layout = await startLayout('distributed');
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (+f[11] + +f[12] + +f[13] + +f[14]) / 100; };
try {
  await new Promise((r) => setTimeout(r, 5000));
  const before = Object.fromEntries(Object.entries(layout.pids).map(([k, p]) => [k, cpu(p)]));
  await new Promise((r) => setTimeout(r, 20000));
  console.log(Object.entries(layout.pids).map(([k, p]) => `${k} ${((cpu(p) - before[k]) / 20 * 1000).toFixed(1)} ms/s`).join(', '));
} finally { await layout.stop(); }
