import { spawn } from 'node:child_process';
import { startLayout } from './lib/layout.mjs';
const layout = await startLayout('distributed');
try {
  await new Promise((r) => setTimeout(r, 5000));
  const mon = spawn('redis-cli', ['monitor']);
  let out = '';
  mon.stdout.on('data', (d) => (out += d));
  await new Promise((r) => setTimeout(r, 10000));
  mon.kill();
  const lines = out.split('\n').filter((l) => l.includes(layout.namespace ?? 'gfbench'));
  const byCmd = {};
  for (const l of out.split('\n')) { const m = /\] "(\w+)"(?: "([^"]*)")?/.exec(l); if (!m) continue; const key = `${m[1].toUpperCase()} ${(m[2] ?? '').replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, '<id>').replace(/gfbench-[0-9a-f]+/, 'ns').slice(0, 60)}`; byCmd[key] = (byCmd[key] ?? 0) + 1; }
  console.log(Object.entries(byCmd).sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => `${(v / 10).toFixed(1).padStart(6)}/s ${k}`).join('\n'));
} finally { await layout.stop(); }
