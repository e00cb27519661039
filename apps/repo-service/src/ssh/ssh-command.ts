import type { GitHttpService } from '../git/git.service.js';

/** What a client may ask the SSH server to run: a git service, or an LFS token. Nothing else, and never a shell. */
export type SshCommand =
  | { kind: 'git'; service: GitHttpService; owner: string; repo: string }
  | { kind: 'lfs-authenticate'; operation: 'upload' | 'download'; owner: string; repo: string };

export type ParsedSshCommand = { ok: true; command: SshCommand } | { ok: false; message: string };

const SERVICES: Record<string, GitHttpService> = {
  'git-upload-pack': 'upload-pack',
  'git-receive-pack': 'receive-pack',
};
/** One segment of `owner/repo`: the characters account and repository names are made of, never `.`/`-` first. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const MAX_COMMAND = 4096;

/**
 * Splits a command line as a POSIX shell would split plain words and quotes (`'…'`, `"…"`,
 * backslash), with no expansion of any kind: the words are only ever compared and looked up.
 * Null when quotes are unbalanced or the line holds control characters.
 */
export function splitWords(line: string): string[] | null {
  if ([...line].some((c) => c !== '\t' && (c < ' ' || c === '\x7f'))) return null;
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return null;
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) return null;
      inWord = true;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return null;
      word += line[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** `owner/repo[.git]` with an optional leading `/` (`ssh://` URLs send one), or null. */
export function parseRepoPath(raw: string): { owner: string; repo: string } | null {
  const path = raw.startsWith('/') ? raw.slice(1) : raw;
  const parts = path.split('/');
  if (parts.length !== 2) return null;
  const owner = parts[0]!;
  const repo = parts[1]!.replace(/\.git$/, '');
  if (!SEGMENT.test(owner) || !SEGMENT.test(repo) || owner.includes('..') || repo.includes('..')) return null;
  return { owner, repo };
}

/**
 * Gitea's `serv` checks of the command an SSH client sends (SSH_ORIGINAL_COMMAND): the verb is
 * one of the git services or `git-lfs-authenticate`, its one argument a repository path (no
 * options, no `..`, nothing outside `owner/repo`).
 */
export function parseSshCommand(line: string): ParsedSshCommand {
  if (line.length > MAX_COMMAND) return { ok: false, message: 'Command too long' };
  const words = splitWords(line.trim());
  if (!words || words.length === 0) return { ok: false, message: 'Invalid command' };
  // `git upload-pack …` (with a space) is how some clients spell the service.
  if (words[0] === 'git' && words.length > 1) words.splice(0, 2, `git-${words[1]}`);
  const [verb, path, ...rest] = words;
  const service = SERVICES[verb!];
  if (!service && verb !== 'git-lfs-authenticate')
    return { ok: false, message: `Unknown git command: ${verb!.slice(0, 64)}` };
  if (path === undefined) return { ok: false, message: 'Missing repository path' };
  const target = parseRepoPath(path);
  if (!target) return { ok: false, message: 'Invalid repository path' };
  if (service) {
    if (rest.length > 0) return { ok: false, message: 'Too many arguments' };
    return { ok: true, command: { kind: 'git', service, ...target } };
  }
  const [operation, ...extra] = rest;
  // git-lfs may add the object's oid after the operation; it is not needed for a token.
  if ((operation !== 'upload' && operation !== 'download') || extra.length > 1) {
    return { ok: false, message: 'git-lfs-authenticate: the operation must be "upload" or "download"' };
  }
  return { ok: true, command: { kind: 'lfs-authenticate', operation, ...target } };
}
