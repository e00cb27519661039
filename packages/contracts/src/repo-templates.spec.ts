import { gitignoreTemplate, gitignoreTemplateNames, renderGitignore, unknownGitignore } from './gitignore-templates.js';
import { isLicenseKey, licenseTemplate, licenseTemplateNames, renderLicense, type LicenseValues } from './license-templates.js';

const values: LicenseValues = { owner: 'alice', email: 'alice@example.com', repo: 'tool', year: '2026' };

describe('gitignore templates', () => {
  it("should list github/gitignore's templates from every folder, in byte order", () => {
    const names = gitignoreTemplateNames();
    expect(names).toEqual(expect.arrayContaining(['Go', 'Node', 'Python', 'macOS', 'JetBrains', 'VisualStudioCode']));
    expect([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(names);
    expect(names.indexOf('VisualStudioCode')).toBeLessThan(names.indexOf('macOS'));
    expect(names).not.toContain('README');
  });

  it('should look names up exactly', () => {
    expect(gitignoreTemplate('Node')).toContain('node_modules/');
    expect(gitignoreTemplate('node')).toBeUndefined();
    expect(gitignoreTemplate('toString')).toBeUndefined();
  });

  it('should concatenate the templates named, each under its name, in the order given', () => {
    expect(renderGitignore('Go,Node')).toBe(`# ---> Go\n${gitignoreTemplate('Go')}\n# ---> Node\n${gitignoreTemplate('Node')}\n`);
  });

  it('should name the first template that does not exist', () => {
    expect(unknownGitignore('Go,Nope,Also')).toBe('Nope');
    expect(unknownGitignore('Go, Node')).toBe(' Node');
    expect(unknownGitignore('Go,Node')).toBeUndefined();
  });
});

describe('license templates', () => {
  it('should list the preferred licenses first, then the rest in byte order, without deprecated identifiers', () => {
    const names = licenseTemplateNames();
    expect(names.slice(0, 2)).toEqual(['Apache-2.0', 'MIT']);
    const rest = names.slice(2);
    expect([...rest].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(rest);
    expect(names).toEqual(expect.arrayContaining(['GPL-3.0-only', 'BSD-3-Clause', '0BSD']));
    expect(names).not.toContain('GPL-2.0');
    expect(names).not.toContain('GPL-2.0+');
    expect(licenseTemplate('GPL-2.0')).toBeUndefined();
  });

  it('should read only the texts of listed keys, whatever else the name holds', () => {
    expect(licenseTemplate('MIT')).toContain('Permission is hereby granted');
    for (const name of ['mit', 'constructor', '__proto__', '../package', 'MIT/../MIT', '']) {
      expect(licenseTemplate(name)).toBeUndefined();
      expect(isLicenseKey(name)).toBe(false);
    }
    expect(isLicenseKey('MIT')).toBe(true);
  });

  it('should fill the owner, year and program placeholders line by line', () => {
    const mit = renderLicense('MIT', values)!;
    expect(mit).toContain('Copyright (c) 2026 alice\n');
    expect(mit).not.toMatch(/<year>|<copyright holders>/);
    expect(mit.endsWith('\n')).toBe(true);
    const apache = renderLicense('Apache-2.0', values)!;
    expect(apache).toContain('Copyright 2026 alice\n');
    const gpl = renderLicense('GPL-3.0-only', values)!;
    expect(gpl).toContain('     tool\n     Copyright (C) 2026  alice\n');
  });

  it('should fill 0BSD’s bare-word placeholders on its copyright line only', () => {
    const text = renderLicense('0BSD', values)!;
    expect(text.split('\n')[0]).toBe('Copyright (C) 2026 by alice alice@example.com');
    expect(text).toContain('THE AUTHOR DISCLAIMS');
  });

  it('should keep every line of the text and end each with a newline', () => {
    const source = licenseTemplate('ISC')!;
    expect(renderLicense('ISC', values)).toBe(`${source.replace(/\r?\n$/, '').replace(/\r\n/g, '\n')}\n`);
    expect(renderLicense('Nope', values)).toBeUndefined();
  });
});
