import { readFileSync, readdirSync } from 'node:fs';
import { startLayout } from './lib/layout.mjs';
const layout = await startLayout('distributed');
const threads = (pid) => Object.fromEntries(readdirSync(`/proc/${pid}/task`).map((t) => { const s = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8'); const name = s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')); const f = s.slice(s.lastIndexOf(') ') + 2).split(' '); return [`${t}:${name}`, [+f[11], +f[12]]]; }));
try {
  await new Promise((r) => setTimeout(r, 5000));
  const pid = layout.pids['admin-0'];
  const a = threads(pid);
  await new Promise((r) => setTimeout(r, 20000));
  const b = threads(pid);
  for (const k of Object.keys(b)) { const d = [b[k][0] - (a[k]?.[0] ?? 0), b[k][1] - (a[k]?.[1] ?? 0)]; if (d[0] + d[1] > 0) console.log(k, 'user', d[0] * 10, 'ms sys', d[1] * 10, 'ms over 20 s'); }
} finally { await layout.stop(); }
