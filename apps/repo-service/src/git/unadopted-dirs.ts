import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isUsableOwnerName, isUsableRepoName } from '@gitforge/contracts';

/**
 * Repositories an operator drops into the repositories root to be adopted, in Gitea's layout:
 * `<root>/<owner>/<name>.git`, both in lower case. gitforge's own repositories are `<root>/<id>.git`
 * and `<root>/.staging/<id>.git`, which no owner directory is named like: an owner directory does
 * not start with `.` and does not end in `.git`.
 */

/** Whether a directory directly under the root can be an owner's (as listed: lower case only). */
export function isOwnerDirName(name: string): boolean {
  return name === name.toLowerCase() && !name.endsWith('.git') && isUsableOwnerName(name);
}

/** The repository name a directory under an owner's stands for (`<name>.git`, lower case), or null. */
export function repoNameOfDir(dir: string): string | null {
  if (!dir.endsWith('.git')) return null;
  const name = dir.slice(0, -'.git'.length);
  return name === name.toLowerCase() && isUsableRepoName(name) ? name : null;
}

/**
 * Where an owner's dropped repository is, relative to the root (`<owner>/<name>.git`, lower case as
 * Gitea's RepoPath), or null when either name is one no account or repository could have: only
 * names checked here ever become a path, so none leads outside the root.
 */
export function unadoptedRelPath(owner: string, name: string): string | null {
  const o = owner.toLowerCase();
  const n = name.toLowerCase();
  if (!isOwnerDirName(o) || repoNameOfDir(`${n}.git`) === null) return null;
  return `${o}/${n}.git`;
}

/** Directory names in `dir` that are real directories (a symbolic link is not followed), in name order as Gitea's WalkDir. */
async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    // No root yet (nothing was ever created), or an owner directory removed while listing.
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return [];
    throw err;
  });
  // Byte order, as Go sorts names; every name kept is ASCII, where UTF-16 order is the same.
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** The owner directories under the root, in name order. */
export async function ownerDirs(root: string): Promise<string[]> {
  return (await subdirectories(root)).filter(isOwnerDirName);
}

/** The repository names of an owner directory's `<name>.git` directories, in name order. */
export async function repoDirNames(root: string, owner: string): Promise<string[]> {
  if (!isOwnerDirName(owner) || !(await isRealDirectory(join(root, owner)))) return [];
  return (await subdirectories(join(root, owner))).map(repoNameOfDir).filter((n): n is string => n !== null);
}

/** Whether `path` is a directory itself, not a symbolic link to one. */
export async function isRealDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return false;
    throw err;
  }
}

/**
 * The file in an adoption's directory, from before it enters the staging area until it is in
 * place, that says where the operator dropped it (its path relative to the root). The staging
 * sweep moves a staged directory that has it back there instead of deleting it. git ignores
 * files it does not know at the top of a bare repository.
 */
export const ADOPTION_MARKER = 'gitforge-adopted-from';

/** Writes the marker into `dir` and flushes it, so that no crash leaves the directory staged without it. */
export async function writeAdoptionMarker(dir: string, relPath: string): Promise<void> {
  const file = await open(join(dir, ADOPTION_MARKER), 'w');
  try {
    await file.writeFile(`${relPath}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
}

/**
 * Where the adoption staged at `dir` came from, relative to the root; null when `dir` holds no
 * marker (or is gone). A marker that names no drop location is an error: whatever holds it is
 * kept, never deleted, until someone looks.
 */
export async function readAdoptionMarker(dir: string): Promise<string | null> {
  let text: string;
  try {
    text = await readFile(join(dir, ADOPTION_MARKER), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
  const rel = text.trim();
  const [owner = '', dirName = '', ...rest] = rel.split('/');
  const name = repoNameOfDir(dirName);
  if (rest.length > 0 || name === null || unadoptedRelPath(owner, name) !== rel) {
    throw new Error(`${join(dir, ADOPTION_MARKER)} names no drop location: ${JSON.stringify(rel.slice(0, 200))}`);
  }
  return rel;
}
