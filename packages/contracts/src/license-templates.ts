import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Gitea's LicensesTemplateListEntry: one license of `GET /licenses` (`name` is the key, as Gitea has no other). */
export interface LicensesTemplateListEntry {
  key: string;
  name: string;
  url: string;
}

/** Gitea's LicenseTemplateInfo: `GET /licenses/{name}`, the template's text with its placeholders. */
export interface LicenseTemplateInfo {
  key: string;
  name: string;
  url: string;
  body: string;
  implementation: string;
}

/** What GitHub's license API says in `implementation`; Gitea answers the same sentence for every license. */
export const LICENSE_IMPLEMENTATION =
  'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file';

/** Gitea's default [repository] PREFERRED_LICENSES: listed first, in this order. */
const PREFERRED_LICENSES = ['Apache-2.0', 'MIT'];

interface SpdxLicense {
  licenseText: string;
}

let known: ReadonlySet<string> | undefined;
let licenseDir: string | undefined;
let names: readonly string[] | undefined;

/**
 * The SPDX license ids (the `spdx-license-list` package, CC0) without the ones SPDX deprecated
 * (the `spdx-license-ids` package's list, and the `+` forms), as Gitea ships license-list-data
 * without its deprecated texts. Only the ids are held: the texts, 5 MB together, are read one at a
 * time when asked for ({@link licenseTemplate}), so a process that lists licenses or fills in one
 * LICENSE does not keep them all.
 */
function licenseIds(): ReadonlySet<string> {
  if (!known) {
    const require = createRequire(import.meta.url);
    const all = Object.keys(require('spdx-license-list') as Record<string, unknown>);
    const deprecated = new Set(require('spdx-license-ids/deprecated.json') as string[]);
    known = new Set(all.filter((key) => !deprecated.has(key) && !key.endsWith('+')));
  }
  return known;
}

/** The license keys CreateRepoOption's `license` may name, in Gitea's order: the preferred ones, then the rest in byte order. */
export function licenseTemplateNames(): readonly string[] {
  if (!names) {
    const all = licenseIds();
    const preferred = PREFERRED_LICENSES.filter((key) => all.has(key));
    const rest = [...all].filter((key) => !preferred.includes(key)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    names = [...preferred, ...rest];
  }
  return names;
}

/** Whether `key` names a license (exactly), without reading its text. */
export function isLicenseKey(key: string): boolean {
  return licenseIds().has(key);
}

/**
 * A license's text with its placeholders, or undefined for an unknown key (looked up exactly; only
 * a listed key names a file to read).
 */
export function licenseTemplate(key: string): string | undefined {
  if (!licenseIds().has(key)) return undefined;
  licenseDir ??= join(dirname(createRequire(import.meta.url).resolve('spdx-license-list/package.json')), 'licenses');
  // Read, not required: require would cache every text a matcher build reads, for good.
  return (JSON.parse(readFileSync(join(licenseDir, `${key}.json`), 'utf8')) as SpdxLicense).licenseText;
}

/** What fills a license's placeholders in a new repository. */
export interface LicenseValues {
  /** The owner's name (its login). */
  owner: string;
  email: string;
  /** The repository's name. */
  repo: string;
  year: string;
}

type Field = keyof LicenseValues;

/**
 * Placeholders that mean the same in every SPDX text where they occur (Gitea fills these), by the
 * value replacing them.
 */
const PLACEHOLDERS: ReadonlyArray<readonly [Field, readonly string[]]> = [
  [
    'owner',
    [
      '<name of author>',
      '<owner>',
      '[NAME]',
      '[name of copyright owner]',
      '[name of copyright holder]',
      '<COPYRIGHT HOLDERS>',
      '<copyright holders>',
      '<AUTHOR>',
      "<author's name or designee>",
      '[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]',
    ],
  ],
  ['email', ['[EMAIL]']],
  ['repo', ['<program>', "<one line to give the program's name and a brief idea of what it does.>"]],
  ['year', ['<year>', '[YEAR]', '{YEAR}', '[yyyy]', '[Year]', '[year]']],
];

/** Licenses whose placeholders are bare words, filled only on the line that has them (0BSD's later AUTHOR is prose). */
const LINE_PLACEHOLDERS: Readonly<Record<string, { line: RegExp; placeholders: ReadonlyArray<readonly [Field, readonly string[]]> }>> = {
  '0BSD': {
    line: /Copyright \(C\) YEAR by AUTHOR EMAIL/,
    placeholders: [
      ['owner', ['AUTHOR']],
      ['email', ['EMAIL']],
      ['year', ['YEAR']],
    ],
  },
};

/**
 * The LICENSE file of a new repository, as Gitea writes it: the license's text line by line
 * (each line ending in `\n`, a `\r` before it dropped) with its placeholders filled. Undefined for
 * an unknown key.
 */
export function renderLicense(key: string, values: LicenseValues): string | undefined {
  const text = licenseTemplate(key);
  if (text === undefined) return undefined;
  const special = LINE_PLACEHOLDERS[key];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines
    .map((raw) => {
      let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (special && !special.line.test(line)) return `${line}\n`;
      for (const [field, placeholders] of special?.placeholders ?? PLACEHOLDERS) {
        for (const placeholder of placeholders) line = line.replaceAll(placeholder, values[field]);
      }
      return `${line}\n`;
    })
    .join('');
}
