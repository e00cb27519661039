import { Injectable } from '@nestjs/common';
import {
  ContractError,
  forbidden,
  notFound,
  pageOf,
  type Actor,
  type AnnotatedTag,
  type CreateTagOption,
  type ListOptions,
  type Page,
  type Reference,
  type Tag,
} from '@gitforge/contracts';
import { Database, DirectoryClient, PlatformConfig } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { codeReader, type RepoView } from '../contents/repo-view.js';
import { CommitWriter } from '../git/commit-writer.js';
import { GitObjects } from '../git/git-objects.js';
import { gitName } from '../git/git-identity.js';
import { GitService } from '../git/git.service.js';
import { isLikelyCommitId, Refs } from '../git/refs.js';
import { PushPolicy } from '../protections/push-policy.js';
import { PushesService } from '../pushes/pushes.service.js';
import { ReleaseEntity } from '../releases/release.entity.js';
import { toAnnotatedTag, toReference, toTag } from './tag.mapper.js';

const zeroId = (like: string): string => '0'.repeat(like.length);

/** Gitea's message cleanup for `git tag -m`: no trailing blanks, no leading or trailing empty lines. */
export function cleanTagMessage(message: string): string {
  const lines = message
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const collapsed = lines.filter((line, i) => line !== '' || lines[i - 1] !== '');
  return collapsed.length > 0 ? `${collapsed.join('\n')}\n` : '';
}

/** A name or e-mail as git accepts it in an identity line (git drops these characters too). */
const identityPart = (value: string): string => value.replace(/[<>\n\r\0]/g, '').trim();

/** Tags (`/tags`, `/git/tags/{sha}`) and references (`/git/refs`). */
@Injectable()
export class TagsService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly git: GitService,
    private readonly objects: GitObjects,
    private readonly refs: Refs,
    private readonly writer: CommitWriter,
    private readonly policy: PushPolicy,
    private readonly pushes: PushesService,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
  ) {}

  async list(actor: Actor | null, owner: string, repo: string, options: ListOptions): Promise<Page<Tag>> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const all = view.ctx.repo.isEmpty ? [] : await this.refs.tags(view.repoId);
    const page = all.slice((options.page - 1) * options.limit, options.page * options.limit);
    return pageOf(
      page.map((t) => toTag(t, view.urls)),
      all.length,
      options,
    );
  }

  async get(actor: Actor | null, owner: string, repo: string, name: string): Promise<Tag> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const tag = await this.find(view, name);
    if (!tag) throw notFound(`tag doesn't exist: ${name}`);
    return toTag(tag, view.urls);
  }

  /** `GET …/git/tags/{sha}`: Gitea answers 400 for anything that is not an annotated tag's full id. */
  async annotated(actor: Actor | null, owner: string, repo: string, sha: string): Promise<AnnotatedTag> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const missing = new ContractError('invalid_argument', `object does not exist [id: ${sha}, rel_path: ]`);
    if (!isLikelyCommitId(sha, view.objectFormat)) throw missing;
    const tag = await this.objects.tag(view.repoId, sha);
    const commit = tag ? await this.objects.resolveCommit(view.repoId, tag.sha) : null;
    if (!tag || !commit) throw missing;
    return toAnnotatedTag(tag, commit, view.urls);
  }

  /**
   * `GET …/git/refs[/{prefix}]`: the references under `refs/<prefix>`, always a list (Gitea's
   * ReferenceList: its single-object case compares the full name with the unprefixed path, so it
   * never happens); none is a 404.
   */
  async references(actor: Actor | null, owner: string, repo: string, prefix: string): Promise<Reference[]> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    const filter = prefix ? `refs/${prefix}` : '';
    const found = (await this.refs.all(view.repoId)).filter((r) => r.name.startsWith(filter));
    if (found.length === 0) throw notFound();
    return found.map((r) => toReference(r, view.urls));
  }

  /**
   * `POST …/tags`: a lightweight tag, or an annotated one signed by the caller when a message is
   * given, on `target` (the default branch when absent). Tag protections apply as for a push.
   */
  async create(actor: Actor | null, owner: string, repo: string, body: CreateTagOption): Promise<Tag> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const target = body.target || view.ctx.repo.defaultBranch;
    const commit = await this.refs.anyCommit(view.repoId, target);
    if (!commit) throw notFound(`target not found: object does not exist [id: ${target}, rel_path: ]`);
    const ref = `refs/tags/${body.tag_name}`;
    if (await this.refs.tagExists(view.repoId, body.tag_name))
      throw new ContractError('conflict', `tag already exists [name: ${body.tag_name}]`);
    const [decision] = await this.policy.checkRefUpdates({ ...view.ctx, actor: a }, [
      { oldSha: zeroId(commit.sha), newSha: commit.sha, ref },
    ]);
    if (decision && !decision.allowed)
      throw new ContractError('unprocessable', 'user not allowed to create protected tag');

    await this.writeTag(view, a, body.tag_name, commit.sha, body.message ?? '');
    return toTag((await this.find(view, body.tag_name))!, view.urls);
  }

  /**
   * Creates `refs/tags/{name}` at `commit`, annotated (the caller as tagger) when `message` has
   * text, and records it as a push does (events, repository row). Callers have checked access and
   * tag protection. Releases create their tags here too.
   */
  async writeTag(view: RepoView, actor: Actor, name: string, commit: string, rawMessage: string): Promise<string> {
    const ref = `refs/tags/${name}`;
    const message = cleanTagMessage(rawMessage);
    const object = message ? await this.annotate(view, actor, name, commit, message) : commit;
    // The transaction holds no rows: it records the request so a retried call does not tag twice.
    await this.db.transaction(async () => {
      const moved = await this.writer.updateRef(view.repoId, ref, object, null, view.objectFormat);
      if (moved !== 'ok') throw new ContractError('conflict', `tag already exists [name: ${name}]`);
      return null;
    });
    await this.pushes.afterRefUpdates({ ...view.ctx, actor }, [{ oldSha: zeroId(object), newSha: object, ref }]);
    return object;
  }

  async delete(actor: Actor | null, owner: string, repo: string, name: string): Promise<void> {
    const { view, actor: a } = await this.writable(actor, owner, repo);
    const tag = await this.find(view, name);
    if (!tag) throw notFound();
    // Gitea's DeleteTag: a release (a draft too) owns its tag; the release goes first.
    if (await this.db.manager.exists(ReleaseEntity, { where: { repoId: view.repoId, lowerTagName: name.toLowerCase() } }))
      throw new ContractError('conflict', 'a tag attached to a release cannot be deleted directly');
    const ref = `refs/tags/${name}`;
    const [decision] = await this.policy.checkRefUpdates({ ...view.ctx, actor: a }, [
      { oldSha: tag.id, newSha: zeroId(tag.id), ref },
    ]);
    if (decision && !decision.allowed)
      throw new ContractError('unprocessable', 'user not allowed to delete protected tag');
    await this.db.transaction(async () => {
      const moved = await this.writer.deleteRef(view.repoId, ref, tag.id);
      if (moved !== 'ok')
        throw new ContractError('conflict', `tag ${name} was updated concurrently; try again`);
      return null;
    });
    await this.pushes.afterRefUpdates({ ...view.ctx, actor: a }, [
      { oldSha: tag.id, newSha: zeroId(tag.id), ref },
    ]);
  }

  private async find(view: RepoView, name: string) {
    if (view.ctx.repo.isEmpty || !(await this.refs.tagExists(view.repoId, name))) return null;
    return (await this.refs.tags(view.repoId)).find((t) => t.name === name) ?? null;
  }

  /** Writes an annotated tag object (git mktag checks it) with the caller as the tagger. */
  private async annotate(
    view: RepoView,
    actor: Actor,
    name: string,
    commit: string,
    message: string,
  ): Promise<string> {
    const user = await this.directory.actorUser(actor);
    const tagger = `${gitName(user)} <${identityPart(user.email)}> ${Math.floor(Date.now() / 1000)} +0000`;
    const text = `object ${commit}\ntype commit\ntag ${name}\ntagger ${tagger}\n\n${message}`;
    return (await this.git.run(view.repoId, ['mktag'], { input: text })).stdout.toString().trim();
  }

  /** Gitea's order for tag writes: visible, code reader, sign-in, code writer, not archived. */
  private async writable(
    actor: Actor | null,
    owner: string,
    repo: string,
  ): Promise<{ view: RepoView; actor: Actor }> {
    const view = await codeReader(this.access, this.config, actor, owner, repo);
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!view.ctx.permission.canWrite('repo.code'))
      throw forbidden('user should have a permission to write to a repo');
    if (view.ctx.repo.isArchived) throw new ContractError('locked', 'repo is archived');
    return { view, actor };
  }
}
