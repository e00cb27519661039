import { request } from 'node:http';
import { api, ADMIN, startLayout } from './lib/layout.mjs';
const layout = await startLayout(process.argv[2] ?? 'distributed');
try {
  await api(layout, 'POST', '/user/repos', { name: 'r1', auto_init: true });
  const get = (path, headers = {}) => new Promise((resolve, reject) => { const t = performance.now(); const req = request(`${layout.rootUrl}${path}`, { headers }, (res) => { res.resume(); res.on('end', () => resolve([res.statusCode, performance.now() - t])); }); req.on('error', reject); req.end(); });
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  for (let k = 0; k < 2; k++) {
    const refs = [], apiT = [];
    for (let i = 0; i < 40; i++) { refs.push((await get(`${ADMIN.username}/r1.git/info/refs?service=git-upload-pack`, { 'git-protocol': 'version=2' }))[1]); apiT.push((await get(`api/v1/repos/${ADMIN.username}/r1`))[1]); }
    console.log('info/refs median', med(refs).toFixed(2), 'ms; GET repo', med(apiT).toFixed(2), 'ms');
  }
} finally { await layout.stop(); }
