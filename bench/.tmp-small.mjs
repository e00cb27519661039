import { request } from 'node:http';
import { api, ADMIN, startLayout } from './lib/layout.mjs';
const layout = await startLayout('distributed');
try {
  const token = (await api(layout, 'POST', `/users/${ADMIN.username}/tokens`, { name: 'b', scopes: ['write:package'] })).sha1;
  const put = (path, body) => new Promise((resolve, reject) => { const t = performance.now(); const req = request(`${layout.rootUrl}${path}`, { method: 'PUT', headers: { authorization: `token ${token}`, 'content-length': String(body.length) } }, (res) => { res.resume(); res.on('end', () => resolve([res.statusCode, performance.now() - t])); }); req.on('error', reject); req.end(body); });
  const get = (path) => new Promise((resolve, reject) => { const t = performance.now(); const req = request(`${layout.rootUrl}${path}`, { headers: { authorization: `token ${token}` } }, (res) => { res.resume(); res.on('end', () => resolve([res.statusCode, performance.now() - t])); }); req.on('error', reject); req.end(); });
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  for (const size of [1, 1, 1024 * 1024]) {
    const up = [], down = [], api1 = [];
    for (let i = 0; i < 30; i++) {
      const p = `api/packages/${ADMIN.username}/generic/small${size}/1.0.${i}${Math.random().toString().slice(2,6)}/f.bin`;
      const [s, ms] = await put(p, Buffer.alloc(size, 1)); if (s !== 201) throw new Error(String(s)); up.push(ms);
      down.push((await get(p))[1]);
      api1.push((await get(`api/v1/users/${ADMIN.username}`))[1]);
    }
    console.log('size', size, 'upload', med(up).toFixed(1), 'download', med(down).toFixed(1), 'GET user', med(api1).toFixed(1));
  }
} finally { await layout.stop(); }
