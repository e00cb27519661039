import { Injectable } from '@nestjs/common';
import {
  ContractError,
  isValidRefName,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type Commit,
  type Compare,
  type ListOptions,
  type Note,
  type Page,
  type PullHeadRepoRequest,
  type RawText,
} from '@gitforge/contracts';
import { PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { codeReader, type RepoView } from '../contents/repo-view.js';
import { requireTreePath } from '../contents/tree-path.js';
import { CommitLog, type LogOptions, type LoggedCommit } from '../git/commit-log.js';
import { GitObjects, type GitCommit } from '../git/git-objects.js';
import { GitService } from '../git/git.service.js';
import { Refs } from '../git/refs.js';
import { RepoFactsService } from '../facts/repo-facts.service.js';
import { CommitUsers } from './commit-users.js';
import { toCommit } from './commit.mapper.js';

export interface CommitListQuery {
  sha?: string;
  path?: string;
  not?: string;
  since?: string;
  until?: string;
  stat?: string;
  files?: string;
  verification?: string;
}

/** Gitea's FormBool default-true flags (`stat`, `files`, `verification`): absent or a true value. */
export function flag(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(String(value));
}

/** Where `git notes` keeps the notes Gitea shows. */
const NOTES_REF = 'refs/notes/commits';

/** Gitea's [git] COMMITS_RANGE_SIZE. */
const COMMITS_RANGE_SIZE = 50;

/** The repository a compared head names by its owner (and name); RepoFactsService.headRepo finds it. */
type HeadOwner = Pick<PullHeadRepoRequest, 'owner' | 'repo'>;

/** A side of a comparison: the ref as written and its `~N`/`^` suffix. */
interface CompareRef {
  name: string;
  suffix: string;
}

/** Commit listings, single commits, their raw diff or patch, and comparisons. */
@Injectable()
export class CommitsService {
  constructor(
    private readonly access: RepoAccessService,
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
    private readonly log: CommitLog,
    private readonly users: CommitUsers,
    private readonly config: PlatformConfig,
    private readonly facts: RepoFactsService,
  ) {}

  /** `GET …/commits`: the history of a ref (default branch) or of a path, newest first. */
  async list(actor: Actor | null, owner: string, repo: string, query: CommitListQuery, options: ListOptions): Promise<Page<Commit>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    // Gitea checks the dates first, before the empty repository and the start.
    const [since, until] = [dateOption('since', query.since), dateOption('until', query.until)];
    if (view.ctx.repo.isEmpty) throw new ContractError('conflict', 'Git Repository is empty.');
    const start = await this.revOrDefault(view, query.sha);
    const revs = [start.sha];
    if (query.not) {
      const not = await this.refs.anyCommit(view.repoId, query.not);
      if (!not) throw notFound(`commit doesn't exist: ${query.not}`);
      revs.push(`^${not.sha}`);
    }
    const path = query.path ? requireTreePath(query.path) || undefined : undefined;
    const base: LogOptions = { revs, path, since, until };
    const total = await this.log.count(view.repoId, base);
    // A path with no history is 404; one with history but none between the dates an empty page.
    if (path !== undefined && total === 0 && (!(since || until) || (await this.log.count(view.repoId, { revs, path })) === 0)) throw notFound();
    // As Gitea's CommitsByFileAndRange: with `path` a page is always COMMITS_RANGE_SIZE commits
    // ("limit … ignored if used with 'path'"), though the paging headers still show `limit`.
    const size = path === undefined ? options.limit : COMMITS_RANGE_SIZE;
    const commits = await this.log.log(view.repoId, { ...base, skip: (options.page - 1) * size, maxCount: size });
    return pageOf(await this.toCommits(view, commits, query), total, options);
  }

  /** `GET …/git/commits/{sha}` (and `…/commits/{sha}`): a commit by id, branch or tag. */
  async get(actor: Actor | null, owner: string, repo: string, sha: string, query: CommitListQuery): Promise<Commit> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    if (!isValidRefName(sha) && !/^[0-9a-f]+$/.test(sha)) throw unprocessable(`no valid ref or sha: ${sha}`);
    const commit = await this.refs.anyCommit(view.repoId, sha);
    if (!commit) throw notFound(`commit doesn't exist: ${sha}`);
    const [logged] = await this.log.log(view.repoId, { revs: [commit.sha], noWalk: true });
    const [api] = await this.toCommits(view, [logged!], query);
    return api!;
  }

  /**
   * `GET …/git/notes/{sha}` (Gitea's GetNote): the note refs/notes/commits holds for a commit,
   * found through the notes tree's fan-out directories, with the notes commit that last wrote it.
   */
  async note(actor: Actor | null, owner: string, repo: string, sha: string, query: CommitListQuery): Promise<Note> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    if (!isValidRefName(sha) && !/^[0-9a-f]+$/.test(sha)) throw unprocessable(`no valid ref or sha: ${sha}`);
    const commit = await this.refs.anyCommit(view.repoId, sha);
    if (!commit) throw notFound(`object does not exist [id: ${sha}, rel_path: ]`);
    const missing = notFound(`commit doesn't exist: ${sha}`);
    const notesSha = await this.objects.resolveCommit(view.repoId, NOTES_REF);
    const notes = notesSha ? await this.objects.commit(view.repoId, notesSha) : null;
    if (!notes) throw missing;
    let tree = notes.tree;
    let rest = commit.sha;
    let path = '';
    for (;;) {
      const entries = (await this.objects.tree(view.repoId, tree)) ?? [];
      const blob = entries.find((e) => e.name === rest && e.type === 'blob');
      if (blob) {
        path += rest;
        const message = await this.objects.blob(view.repoId, blob.sha);
        const [last] = await this.log.log(view.repoId, { revs: [notes.sha], path, maxCount: 1 });
        if (!message || !last) throw missing;
        const [api] = await this.toCommits(view, [last], { ...query, stat: 'true' });
        return { message: message.toString('utf8'), commit: api! };
      }
      const dir = entries.find((e) => e.name === rest.slice(0, 2) && e.type === 'tree');
      if (!dir || rest.length <= 2) throw missing;
      path += `${rest.slice(0, 2)}/`;
      rest = rest.slice(2);
      tree = dir.sha;
    }
  }

  /** Gitea's GetRawDiff: `.diff` against the first parent (`git show` for a root), `.patch` via format-patch. */
  async raw(actor: Actor | null, owner: string, repo: string, sha: string, type: 'diff' | 'patch'): Promise<RawText> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const commit = await this.refs.anyCommit(view.repoId, sha);
    if (!commit) throw notFound(`commit doesn't exist: ${sha}`);
    const parent = commit.parents[0];
    let args: string[];
    if (type === 'diff') args = parent ? ['diff', '-M', '--end-of-options', parent, commit.sha] : ['show', '--end-of-options', commit.sha];
    else if (parent) args = ['format-patch', '--no-signature', '--stdout', '--end-of-options', `${commit.sha}...${parent}`];
    else args = ['format-patch', '--no-signature', '--stdout', '--root', '--end-of-options', commit.sha];
    return { text: (await this.git.run(view.repoId, args)).stdout.toString('utf8') };
  }

  /**
   * `GET …/compare/{basehead}`: `base...head` (from their merge base) or `base..head`; refs are
   * branches (slashes allowed), tags or (short) commit ids with optional `^`/`~N` suffixes (an
   * empty side is the default branch), the head optionally as `owner:ref` or `owner/repo:ref` of
   * this repository or of another in its fork network. JSON, or the raw diff or patch.
   */
  async compare(
    actor: Actor | null,
    owner: string,
    repo: string,
    basehead: string,
    query: { output?: string; files?: string; verification?: string },
  ): Promise<Compare | RawText> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const { base, head, headOwner, separator } = this.parseBaseHead(view, basehead);
    // A head in another repository of the fork network is compared there, as Gitea's
    // GetCompareInfo does, so the commits link to the head. Git reads the base's objects where
    // they are: a GET copies nothing into either repository, whose readers may not see the other.
    let headView = view;
    if (headOwner) {
      const found = await this.facts.headRepo(actor, { baseRepoId: view.repoId, ...headOwner });
      if (found.id !== view.repoId) headView = await codeReader(this.access, this.config, actor, found.ownerLogin, found.name);
    }
    const baseSha = await this.resolveCompareRef(view.repoId, base.name ? base : { ...base, name: view.ctx.repo.defaultBranch });
    const headSha = await this.resolveCompareRef(headView.repoId, head.name ? head : { ...head, name: headView.ctx.repo.defaultBranch });
    const env = headView.repoId === view.repoId ? {} : this.git.readingObjectsOf([view.repoId]);
    if (query.output === 'diff' || query.output === 'patch') {
      const args =
        query.output === 'diff'
          ? ['diff', '-p', '--end-of-options', `${baseSha}${separator}${headSha}`]
          : ['format-patch', '--binary', '--stdout', '--end-of-options', `${baseSha}${separator}${headSha}`];
      return { text: (await this.git.run(headView.repoId, args, { env })).stdout.toString('utf8') };
    }
    const commits = await this.log.log(headView.repoId, { revs: [headSha, `^${baseSha}`], env });
    const api = await this.toCommits(headView, commits, { stat: 'true', files: query.files, verification: query.verification });
    return { total_commits: api.length, commits: api };
  }

  private parseBaseHead(view: RepoView, raw: string): { base: CompareRef; head: CompareRef; headOwner: HeadOwner | null; separator: '...' | '..' } {
    let separator: '...' | '..' = '...';
    let at = raw.indexOf('...');
    if (at < 0) {
      at = raw.indexOf('..');
      separator = '..';
    }
    const [baseText, headText] = at < 0 ? [view.ctx.repo.defaultBranch, raw] : [raw.slice(0, at), raw.slice(at + separator.length)];
    const colon = headText.indexOf(':');
    const headOwner = colon < 0 ? null : this.headOwner(headText.slice(0, colon));
    return { base: splitSuffix(baseText), head: splitSuffix(colon < 0 ? headText : headText.slice(colon + 1)), headOwner, separator };
  }

  /** `owner` or `owner/repo` before a head's colon (Gitea's parseHead): null for no owner (this repository). */
  private headOwner(text: string): HeadOwner | null {
    const slash = text.indexOf('/');
    const owner = slash < 0 ? text : text.slice(0, slash);
    const repo = slash < 0 ? undefined : text.slice(slash + 1);
    if (!owner) {
      if (repo !== undefined) throw new ContractError('invalid_argument', 'head owner must be specified when head repo name is given');
      return null;
    }
    return { owner, ...(repo !== undefined ? { repo } : {}) };
  }

  private async resolveCompareRef(repoId: number, ref: CompareRef): Promise<string> {
    if (ref.name === '' || !(isValidRefName(ref.name) || /^[0-9a-f]+$/.test(ref.name))) {
      throw new ContractError('invalid_argument', `invalid ref: ${ref.name}${ref.suffix}`);
    }
    // Gitea's ResolveRefWithSuffix: the name as given (suffix included) is what does not exist.
    const missing = (name: string) => notFound(`ref ${JSON.stringify(name)} does not exist`);
    const commit = await this.refs.anyCommit(repoId, ref.name);
    if (!commit) throw missing(ref.name);
    if (!ref.suffix) return commit.sha;
    const moved = await this.objects.resolveCommit(repoId, `${commit.sha}${ref.suffix}`);
    if (!moved) throw missing(`${ref.name}${ref.suffix}`);
    return moved;
  }

  /** The commit `sha` names, else the default branch's; a name that names none is git's not-exist error, as Gitea passes it on. */
  private async revOrDefault(view: RepoView, sha: string | undefined): Promise<GitCommit> {
    const name = sha ?? view.ctx.repo.defaultBranch;
    const commit = await this.refs.anyCommit(view.repoId, name);
    if (!commit) throw notFound(`object does not exist [id: ${name}, rel_path: ]`);
    return commit;
  }

  private async toCommits(view: RepoView, commits: LoggedCommit[], query: Pick<CommitListQuery, 'stat' | 'files' | 'verification'>): Promise<Commit[]> {
    const users = await this.users.byEmail(commits.flatMap((c) => [c.author.email, c.committer.email]));
    const options = { stat: flag(query.stat), files: flag(query.files), verification: flag(query.verification) };
    return commits.map((c) => toCommit(c, view.urls, users, options));
  }
}

/** Splits `name~2^` into the name and its suffix (refs cannot contain `~` or `^`). */
function splitSuffix(text: string): CompareRef {
  const m = /^([^~^]*)((?:[~^]\d*)*)$/.exec(text);
  return m ? { name: m[1]!, suffix: m[2]! } : { name: text, suffix: '' };
}

/** Go's time.RFC3339 layout (fractional seconds allowed, as Go's parser takes them). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** `since`/`until` are passed to git as `--since=<value>`; only RFC 3339 dates are accepted, with Gitea's 422. */
function dateOption(name: 'since' | 'until', value: string | undefined): string | undefined {
  if (!value) return undefined;
  const at = RFC3339.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw unprocessable(`invalid '${name}' format, expected ISO 8601 (RFC3339)`);
  return new Date(at).toISOString();
}
