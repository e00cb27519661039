import { licenseTemplate, licenseTemplateNames, renderLicense } from '@gitforge/contracts';
import type { GitTreeEntry } from '../git/git-objects.js';
import { declaredLicenses, findLicenseFile, LicenseMatcher } from './license-detection.js';

const file = (name: string, mode = '100644'): GitTreeEntry => ({ name, mode, type: mode === '040000' ? 'tree' : 'blob', sha: name });
const known = (id: string): boolean => licenseTemplate(id) !== undefined;
const values = { owner: 'alice', email: 'alice@example.com', repo: 'tool', year: '2026' };

describe('findLicenseFile', () => {
  it('should prefer .md, then .txt, then no extension, then any other extension', () => {
    expect(findLicenseFile([file('LICENSE'), file('LICENSE.txt'), file('LICENSE.md')])?.name).toBe('LICENSE.md');
    expect(findLicenseFile([file('license'), file('LICENSE.txt')])?.name).toBe('LICENSE.txt');
    expect(findLicenseFile([file('LICENSE.rst'), file('COPYING')])?.name).toBe('COPYING');
    expect(findLicenseFile([file('README.md'), file('LICENCE.rst')])?.name).toBe('LICENCE.rst');
  });

  it('should take the last by name among equals', () => {
    expect(findLicenseFile([file('COPYING'), file('LICENSE')])?.name).toBe('LICENSE');
  });

  it('should pass over directories, symlinks and names that only start like one', () => {
    expect(findLicenseFile([file('LICENSE', '040000'), file('LICENSE.txt', '120000'), file('LICENSES'), file('LICENSE-MIT'), file('license.')])).toBeNull();
    expect(findLicenseFile([file('COPYING', '100755')])?.name).toBe('COPYING');
  });
});

describe('declaredLicenses', () => {
  it('should read the ids of SPDX-License-Identifier lines, not operators or exceptions', () => {
    expect(declaredLicenses('SPDX-License-Identifier: MIT OR Apache-2.0\n', known)).toEqual(['Apache-2.0', 'MIT']);
    expect(declaredLicenses('// SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) AND BSD-3-Clause\n', known)).toEqual(['BSD-3-Clause', 'GPL-2.0-only']);
    expect(declaredLicenses('SPDX-License-Identifier: NotALicense\nSPDX-License-Identifier: MIT', known)).toEqual(['MIT']);
    expect(declaredLicenses('MIT License\n', known)).toEqual([]);
  });
});

describe(LicenseMatcher.name, () => {
  describe('build', () => {
    it('should let the event loop run between slices and detect as the matcher built at once does', async () => {
      // Counts turns of the event loop: a build that never let go would finish before the first.
      let turns = 0;
      let building = true;
      const turn = (): void => {
        turns++;
        if (building) setImmediate(turn);
      };
      setImmediate(turn);
      const keys = ['MIT', 'ISC', 'Apache-2.0', 'Nope'];
      const built = await LicenseMatcher.build(keys, licenseTemplate, 0).finally(() => (building = false));
      expect(turns).toBeGreaterThanOrEqual(keys.length - 1);
      for (const key of ['MIT', 'ISC', 'Apache-2.0']) expect(built.detect(renderLicense(key, values)!)).toEqual([key]);
    });
  });

  const sut = new LicenseMatcher(licenseTemplateNames().map((key) => [key, licenseTemplate(key)!] as const));

  it('should recognise every license it knows once its placeholders are filled', () => {
    const missed = licenseTemplateNames().filter((key) => !sut.detect(renderLicense(key, values)!).includes(key));
    expect(missed).toEqual([]);
  });

  it('should name every license whose text is the same, and only those', () => {
    expect(sut.detect(renderLicense('GPL-3.0-or-later', values)!)).toEqual(['GPL-3.0-only', 'GPL-3.0-or-later']);
    expect(sut.detect(renderLicense('MIT', values)!)).toEqual(['MIT']);
    expect(sut.detect(renderLicense('BSD-2-Clause', values)!)).toEqual(['BSD-2-Clause']);
    expect(sut.detect(renderLicense('BSD-3-Clause', values)!)).toEqual(['BSD-3-Clause']);
  });

  it('should see past a different title, wrapping, case and copyright line', () => {
    const mit = licenseTemplate('MIT')!
      .replace('MIT License', 'The MIT License (MIT)')
      .replace('<year> <copyright holders>', '2015-2019 Some Body and contributors')
      .replace(/ /g, '\n  ');
    expect(sut.detect(mit)).toEqual(['MIT']);
    expect(sut.detect(licenseTemplate('ISC')!.toUpperCase())).toEqual(['ISC']);
  });

  it('should recognise the GPL and Apache texts without their how-to-apply appendix', () => {
    const apache = licenseTemplate('Apache-2.0')!;
    expect(sut.detect(apache.slice(0, apache.indexOf('APPENDIX')))).toEqual(['Apache-2.0']);
    const gpl = licenseTemplate('GPL-2.0-only')!;
    expect(sut.detect(gpl.slice(0, gpl.indexOf('END OF TERMS')))).toEqual(['GPL-2.0-only', 'GPL-2.0-or-later']);
  });

  it('should find nothing in text that is no license, or only part of one', () => {
    expect(sut.detect('# tool\n\nA small tool. Pull requests welcome.\n')).toEqual([]);
    expect(sut.detect(licenseTemplate('MIT')!.slice(0, 400))).toEqual([]);
    expect(sut.detect('')).toEqual([]);
  });
});
