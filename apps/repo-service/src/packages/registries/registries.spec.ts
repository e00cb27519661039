import { createHash } from 'node:crypto';
import { teamPackageMode } from '../package-access.js';
import { isValidGenericFilename, isValidGenericName, isValidGenericVersion } from './generic.registry.js';
import { integrityMatches, npmFilename, parseNpmUpload, splitNpmPath } from './npm.registry.js';

const tarball = Buffer.from('a tarball, or so');
const sha512 = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;

function publishDoc(overrides: { name?: string; version?: string; dist?: object; attachments?: object; versions?: object } = {}): Buffer {
  const name = overrides.name ?? '@scope/tool';
  const version = overrides.version ?? '1.2.3';
  return Buffer.from(
    JSON.stringify({
      _id: name,
      name,
      'dist-tags': { latest: version, beta: '0.0.1' },
      versions: overrides.versions ?? { [version]: { name, version, description: 'd', main: 'index.js', scripts: { test: 'x' }, dist: overrides.dist ?? { integrity: sha512 } } },
      _attachments: overrides.attachments ?? { [`tool-${version}.tgz`]: { data: tarball.toString('base64'), length: tarball.length } },
    }),
  );
}

describe('generic registry names', () => {
  it.each(['tool', 'my_tool-1.0+x', 'A.b'])('should accept the package name %s', (name) => expect(isValidGenericName(name)).toBe(true));
  it.each(['..', '.', '-', 'a/b', 'a b', '', 'ü'])('should refuse the package name %j', (name) => expect(isValidGenericName(name)).toBe(false));
  it.each(['1.0.0', 'v2', 'latest-1'])('should accept the version %s', (v) => expect(isValidGenericVersion(v)).toBe(true));
  it.each(['', ' 1.0', '..', '.', '1/0'])('should refuse the version %j', (v) => expect(isValidGenericVersion(v)).toBe(false));
  it.each(['file.tar.gz', 'a b (1).zip', 'x=y;z.txt'])('should accept the file name %s', (f) => expect(isValidGenericFilename(f)).toBe(true));
  it.each(['..', '.', ' lead', 'trail ', 'a/b', 'a\\b', '\u0000x'])('should refuse the file name %j', (f) => expect(isValidGenericFilename(f)).toBe(false));
});

describe('npm publish documents', () => {
  it('should keep the manifest fields npm needs, the dist-tags of the version and the tarball', () => {
    const upload = parseNpmUpload(publishDoc(), '@scope/tool');
    expect(upload).toMatchObject({ name: '@scope/tool', version: '1.2.3', tags: ['latest'], filename: 'tool-1.2.3.tgz' });
    expect(upload.manifest).toEqual({ description: 'd', main: 'index.js' });
    expect(upload.tarball.equals(tarball)).toBe(true);
  });

  type Overrides = Parameters<typeof publishDoc>[0] & object;
  it.each<[string, Overrides, string]>([
    ['a version that is not semver', { version: '1.0' }, 'package version is invalid'],
    ['an upper-case name', { name: '@scope/Tool' }, 'package name is invalid'],
    ['a tarball that does not match its integrity', { dist: { integrity: `sha512-${createHash('sha512').update('other').digest('base64')}` } }, 'failed to validate integrity'],
    ['a tarball that does not match its shasum', { dist: { shasum: 'deadbeef' } }, 'failed to validate integrity'],
    ['an unknown integrity algorithm', { dist: { integrity: 'md5-abc' } }, 'failed to validate integrity'],
    ['two attachments', { attachments: { a: { data: 'eA==' }, b: { data: 'eA==' } } }, 'package attachment is invalid'],
    ['two versions', { versions: { '1.0.0': {}, '2.0.0': {} } }, 'package is invalid'],
  ])('should refuse %s (400)', (_what, overrides, message) => {
    expect(() => parseNpmUpload(publishDoc(overrides), overrides.name ?? '@scope/tool')).toThrow(expect.objectContaining({ code: 'invalid_argument', message }));
  });

  it('should refuse a document for another name than the URL says', () => {
    expect(() => parseNpmUpload(publishDoc(), '@scope/other')).toThrow('package name is invalid');
  });

  it('should refuse a body that is no JSON', () => {
    expect(() => parseNpmUpload(Buffer.from('{'), '@scope/tool')).toThrow('package is invalid');
  });

  it('should check sha1 shasums when no integrity is given', () => {
    expect(integrityMatches(tarball, { shasum: createHash('sha1').update(tarball).digest('hex') })).toBe(true);
    expect(integrityMatches(tarball, {})).toBe(false);
  });
});

describe('npm paths', () => {
  it.each([
    ['@scope%2Ftool', { name: '@scope/tool', rest: [] }],
    ['@scope%2ftool/-/1.0.0/tool-1.0.0.tgz', { name: '@scope/tool', rest: ['-', '1.0.0', 'tool-1.0.0.tgz'] }],
    ['%40scope%2Ftool/-rev/3', { name: '@scope/tool', rest: ['-rev', '3'] }],
    ['@scope/tool', { name: '@scope/tool', rest: [] }],
    ['tool/-/tool-1.0.0.tgz', { name: 'tool', rest: ['-', 'tool-1.0.0.tgz'] }],
  ])('should split %s', (raw, expected) => expect(splitNpmPath(raw)).toEqual(expected));

  it('should answer null for a malformed path', () => {
    expect(splitNpmPath('@scope')).toBeNull();
    expect(splitNpmPath('%E0%A4%A')).toBeNull();
  });

  it('should name tarballs as npm does, without the scope', () => {
    expect(npmFilename('@Scope/Tool', '1.0.0-RC.1')).toBe('tool-1.0.0-rc.1.tgz');
  });
});

describe('package access through teams', () => {
  it('should take the highest team level, then the packages unit of teams below write', () => {
    expect(teamPackageMode([])).toBe(0);
    expect(teamPackageMode([{ permission: 'read', units_map: { 'repo.code': 'read' } }])).toBe(1);
    expect(teamPackageMode([{ permission: 'read', units_map: { 'repo.packages': 'write' } }])).toBe(2);
    expect(teamPackageMode([{ permission: 'admin', units_map: {} }, { permission: 'read', units_map: {} }])).toBe(3);
  });
});
