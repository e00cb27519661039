/** Where this forge answers: its root URL, and the host its SSH URLs name. */
export interface ForgeAddress {
  rootUrl: string;
  sshDomain: string;
}

/**
 * The repository a git URL names when it is one of this forge's (Gitea's ParseRepositoryURL with
 * GetRepositoryByURLRelax): `http(s)://` under the root URL, or `ssh://`, `git+ssh://` and
 * `[user@]host:owner/repo` on the SSH host, each `…/owner/repo[.git]`. Null for anything else
 * (another host, `git+https://`, a local path).
 */
export function forgeRepository(raw: string, forge: ForgeAddress): { owner: string; repo: string } | null {
  let text = raw.trim();
  if (!text.includes('://') && !text.includes('@')) {
    // `host.tld:owner/repo` reads as SSH without a user.
    const [dot, colon, slash] = [text.indexOf('.'), text.indexOf(':'), text.indexOf('/')];
    if (dot > 0 && dot < colon && colon < slash) text = `@${text}`;
  }
  let url: URL;
  if (!text.includes('://')) {
    // scp-like `user@host:path` is SSH.
    const scp = /^([^@/]*)@([^:/]+):(.*)$/.exec(text);
    if (!scp) return null;
    try {
      url = new URL(`ssh://${scp[1] ? `${scp[1]}@` : ''}${scp[2]}/${scp[3]!.replace(/^\//, '')}`);
    } catch {
      return null;
    }
  } else {
    try {
      url = new URL(text);
    } catch {
      return null;
    }
  }
  let path: string;
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const root = new URL(forge.rootUrl);
    if (url.origin.toLowerCase() !== root.origin.toLowerCase() || !url.pathname.toLowerCase().startsWith(root.pathname.toLowerCase())) return null;
    path = url.pathname.slice(root.pathname.length);
  } else if (url.protocol === 'ssh:' || url.protocol === 'git+ssh:') {
    if (url.hostname.toLowerCase() !== forge.sshDomain.toLowerCase()) return null;
    path = url.pathname;
  } else {
    return null;
  }
  const [owner, repo] = path.replace(/^\/+/, '').split('/');
  if (!owner || !repo) return null;
  try {
    return { owner: decodeURIComponent(owner), repo: decodeURIComponent(repo).replace(/\.git$/, '') };
  } catch {
    return null;
  }
}
