// Run after regenerating package-lock.json on a machine whose npm registry mirror carries only
// the Linux builds of platform-specific optional packages (turbo, unrs-resolver, msgpackr-extract).
// npm then writes a lock without the other platforms' entries, and `npm ci` refuses that lock as
// "not in sync". This adds those entries the way an upstream lock has them:
// exact version, optional, and the os/cpu/libc that make npm skip them on every other machine,
// so nothing is ever fetched for them.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  ['darwin', 'darwin'],
  ['windows', 'win32'],
  ['win32', 'win32'],
  ['android', 'android'],
  ['freebsd', 'freebsd'],
  ['openharmony', 'openharmony'],
  ['linux', 'linux'],
];
const CPU = [
  ['arm64', 'arm64'],
  ['aarch64', 'arm64'],
  ['x64', 'x64'],
  ['ia32', 'ia32'],
  ['loong64', 'loong64'],
  ['ppc64', 'ppc64'],
  ['riscv64', 'riscv64'],
  ['s390x', 's390x'],
  ['arm', 'arm'],
  ['64', 'x64'],
];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find(([token]) => parts.includes(token))?.[1];
  const cpu = CPU.find(([token]) => parts.some((p) => p === token || p.startsWith(`${token}`) && token === 'arm'))?.[1];
  const libc = parts.includes('musl') || parts.includes('musleabihf') ? 'musl' : parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const sibling = path === '' ? `node_modules/${name}` : `${path.replace(/node_modules\/[^/]+(\/[^/]+)?$/, '')}node_modules/${name}`;
    if (packages[`${path}/node_modules/${name}`] || packages[sibling] || packages[`node_modules/${name}`]) continue;
    if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`${name}: optional dependency range ${version} is not exact`);
    const { os, cpu, libc } = platformOf(name);
    if (!os || !cpu) throw new Error(`cannot tell the platform of ${name}`);
    packages[`node_modules/${name}`] = {
      version,
      cpu: [cpu],
      ...(pkg.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform entries to package-lock.json`);
