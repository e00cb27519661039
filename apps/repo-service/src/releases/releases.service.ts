import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import {
  AccessMode,
  ContractError,
  isUuid,
  EventNames,
  forbidden,
  idFrom,
  notFound,
  pageOf,
  unprocessable,
  type Actor,
  type Attachment,
  type CreateReleaseOption,
  type EditAttachmentOptions,
  type EditReleaseOption,
  type ListOptions,
  type Page,
  type Release,
  type User,
} from '@gitforge/contracts';
import { BlobStore, BlobTooLargeError, createLogger, Database, DirectoryClient, OutboxService } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { enabledUnitModes } from '../access/repo-permission.js';
import { repoView, type RepoView } from '../contents/repo-view.js';
import { Refs } from '../git/refs.js';
import { PushPolicy } from '../protections/push-policy.js';
import { RepoServiceConfig } from '../repo.config.js';
import { toRepository } from '../repos/repo.mapper.js';
import { ReposRepository } from '../records/repos.repository.js';
import { TagsService } from '../tags/tags.service.js';
import { releaseAssetBlobKey, ReleaseAssetEntity, ReleaseEntity } from './release.entity.js';
import { assetDownloadUrl, toRelease, toReleaseAsset, toReleaseAssets } from './release.mapper.js';

const log = createLogger('releases');

/** Gitea's ghost user: what a deleted publisher shows as. */
const GHOST_ID = -1;

/** A release's context: the repository view and whether the caller may write releases. */
interface ReleaseScope {
  view: RepoView;
  writer: boolean;
}

/** A `true`/`false` query flag (Gitea's FormOptionalBool); anything else is no filter. */
function optionalBool(raw: unknown): boolean | undefined {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  return undefined;
}

/**
 * An asset's file name: a name git forges show as one path segment. Names that could walk out of
 * a download path (`../`, slashes, backslashes) or carry control characters are refused (422).
 */
export function assetNameProblem(name: string): string | null {
  if (name.length === 0) return '[Name]: Required';
  if (name.length > 255) return '[Name]: MaxSize';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (name === '.' || name === '..' || /[/\\\x00-\x1f\x7f]/.test(name)) return `invalid attachment name: ${JSON.stringify(name)}`;
  return null;
}

/**
 * Releases (Gitea's release service and API handlers): rows here, tags in git. A published
 * release has a tag: created at `target_commitish` when it does not exist (tag protection
 * applies, and the tag is recorded as a push), or taken over when it does. Drafts have none until
 * published. Deleting a release leaves its tag. Assets are files in the BlobStore.
 */
@Injectable()
export class ReleasesService {
  constructor(
    private readonly db: Database,
    private readonly access: RepoAccessService,
    private readonly refs: Refs,
    private readonly tags: TagsService,
    private readonly policy: PushPolicy,
    private readonly directory: DirectoryClient,
    private readonly outbox: OutboxService,
    private readonly blobs: BlobStore,
    private readonly repos: ReposRepository,
    private readonly config: RepoServiceConfig,
  ) {}

  // Reading.

  async list(actor: Actor | null, owner: string, repo: string, query: Record<string, unknown>, options: ListOptions): Promise<Page<Release>> {
    const scope = await this.reader(actor, owner, repo);
    const qb = this.db.manager.createQueryBuilder(ReleaseEntity, 'r').where('r.repoId = :repoId', { repoId: scope.view.repoId });
    const draft = optionalBool(query.draft);
    const pre = optionalBool(query['pre-release']);
    if (!scope.writer) qb.andWhere('r.isDraft = :no', { no: false });
    if (draft !== undefined) qb.andWhere('r.isDraft = :draft', { draft });
    if (pre !== undefined) qb.andWhere('r.isPrerelease = :pre', { pre });
    const total = await qb.getCount();
    const rows = await qb
      .orderBy('r.createdAt', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .skip((options.page - 1) * options.limit)
      .take(options.limit)
      .getMany();
    return pageOf(await this.toApi(scope, rows), total, options);
  }

  async get(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<Release> {
    const scope = await this.reader(actor, owner, repo);
    return this.one(scope, await this.byId(scope, rawId));
  }

  async getByTag(actor: Actor | null, owner: string, repo: string, tag: string): Promise<Release> {
    const scope = await this.reader(actor, owner, repo);
    return this.one(scope, await this.byTag(scope, tag));
  }

  /** Gitea's GetLatestRelease: the newest release that is neither a draft nor a prerelease. */
  async latest(actor: Actor | null, owner: string, repo: string): Promise<Release> {
    const scope = await this.reader(actor, owner, repo);
    const row = await this.db.manager.findOne(ReleaseEntity, {
      where: { repoId: scope.view.repoId, isDraft: false, isPrerelease: false },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    if (!row) throw notFound();
    return this.one(scope, row);
  }

  // Writing.

  /**
   * `POST …/releases` (201): Gitea's CreateRelease. An existing release of the tag is 409; an
   * existing tag without one becomes the release's tag; otherwise the tag is made at the target
   * unless the release is a draft.
   */
  async create(actor: Actor | null, owner: string, repo: string, body: CreateReleaseOption): Promise<Release> {
    const { scope, actor: a } = await this.writable(actor, owner, repo);
    const { view } = scope;
    if (view.ctx.repo.isEmpty) throw unprocessable('repo is empty');
    const tagName = body.tag_name;
    // Gitea's CreateRelease finds the tag's release row and, as it is no bare tag, answers these words.
    if (await this.findByTag(view.repoId, tagName)) throw new ContractError('conflict', 'Release is has no Tag');
    // A tag that exists already is released as it is, with the target given (Gitea's tag-only
    // release, whose target is the form's, empty when none); a new tag goes at the default branch.
    const tagged = (await this.refs.tagCommit(view.repoId, tagName)) !== null;
    const target = body.target_commitish || (tagged ? '' : view.ctx.repo.defaultBranch);
    const draft = body.draft ?? false;
    const sha = draft ? '' : await this.ensureTag(view, a, tagName, target, body.tag_message ?? '');
    const now = new Date();
    const users = await this.people([a.id]);
    const id = await this.db.transaction(async (m) => {
      const row = await m.save(
        m.create(ReleaseEntity, {
          repoId: view.repoId,
          publisherId: a.id,
          tagName,
          lowerTagName: tagName.toLowerCase(),
          target,
          title: body.name ?? '',
          note: body.body ?? '',
          sha,
          isDraft: draft,
          isPrerelease: body.prerelease ?? false,
          createdAt: now,
        }),
      );
      await this.recount(m, view.repoId);
      if (!draft) await this.announce(m, scope, a, users, row, 'published');
      return row.id;
    });
    return this.one(scope, (await this.db.manager.findOneBy(ReleaseEntity, { id }))!);
  }

  /**
   * `PATCH …/releases/{id}`: Gitea's EditRelease. Empty strings change nothing; a draft that is
   * published gets its tag (made if missing) and a `published` event, a published release an
   * `updated` one.
   */
  async edit(actor: Actor | null, owner: string, repo: string, rawId: string, body: EditReleaseOption): Promise<Release> {
    const { scope, actor: a } = await this.writable(actor, owner, repo);
    const { view } = scope;
    const row = await this.byId(scope, rawId);
    const next: ReleaseEntity = { ...row };
    if (body.tag_name) {
      next.tagName = body.tag_name;
      next.lowerTagName = body.tag_name.toLowerCase();
    }
    if (body.target_commitish) next.target = body.target_commitish;
    if (body.name) next.title = body.name;
    if (body.body) next.note = body.body;
    if (body.draft !== undefined) next.isDraft = body.draft;
    if (body.prerelease !== undefined) next.isPrerelease = body.prerelease;
    if (next.lowerTagName !== row.lowerTagName) {
      const other = await this.findByTag(view.repoId, next.tagName);
      if (other && other.id !== row.id) throw new ContractError('conflict', `release tag already exist [tag_name: ${next.tagName}]`);
    }
    const publishing = row.isDraft && !next.isDraft;
    if (!next.isDraft && (publishing || next.lowerTagName !== row.lowerTagName)) {
      next.sha = await this.ensureTag(view, a, next.tagName, next.target, '');
    }
    // Gitea keeps one time (CreatedUnix), which its createTag sets again on every edit of a draft
    // and when publishing one makes its tag; lists sort by it.
    if (next.isDraft || publishing) next.createdAt = new Date();
    const users = await this.people([a.id, row.publisherId]);
    await this.db.transaction(async (m) => {
      const { id, ...changes } = next;
      await m.update(ReleaseEntity, { id }, changes);
      await this.recount(m, view.repoId);
      if (!next.isDraft) await this.announce(m, scope, a, users, next, publishing ? 'published' : 'updated');
      return null;
    });
    return this.one(scope, (await this.db.manager.findOneBy(ReleaseEntity, { id: row.id }))!);
  }

  /** `DELETE …/releases/{id}` (204): the release and its files go, its tag stays. */
  async delete(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<void> {
    const { scope, actor: a } = await this.writable(actor, owner, repo);
    await this.remove(scope, a, await this.byId(scope, rawId));
  }

  /** `DELETE …/releases/tags/{tag}` (204): the same, found by its tag. */
  async deleteByTag(actor: Actor | null, owner: string, repo: string, tag: string): Promise<void> {
    const { scope, actor: a } = await this.writable(actor, owner, repo);
    await this.remove(scope, a, await this.byTag(scope, tag));
  }

  // Assets.

  async listAssets(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<Attachment[]> {
    const scope = await this.reader(actor, owner, repo);
    const release = await this.byId(scope, rawId);
    const rows = await this.assetsOf([release.id]);
    return toReleaseAssets(rows, release.tagName, scope.view.urls, this.config.rootUrl);
  }

  async getAsset(actor: Actor | null, owner: string, repo: string, rawId: string, rawAssetId: string): Promise<Attachment> {
    const scope = await this.reader(actor, owner, repo);
    const release = await this.byId(scope, rawId);
    const asset = await this.assetOf(release, rawAssetId);
    return toReleaseAsset(asset, assetDownloadUrl(this.config.rootUrl, asset.uuid));
  }

  /** `PATCH …/assets/{attachment_id}` (201): only the name changes; an empty one changes nothing. */
  async editAsset(actor: Actor | null, owner: string, repo: string, rawId: string, rawAssetId: string, body: EditAttachmentOptions): Promise<Attachment> {
    const { scope } = await this.writable(actor, owner, repo);
    const release = await this.byId(scope, rawId);
    const asset = await this.assetOf(release, rawAssetId);
    const name = body.name || asset.name;
    const problem = assetNameProblem(name);
    if (problem) throw unprocessable(problem);
    if (name !== asset.name) await this.db.transaction((m) => m.update(ReleaseAssetEntity, { id: asset.id }, { name }).then(() => null));
    return toReleaseAsset({ ...asset, name }, assetDownloadUrl(this.config.rootUrl, asset.uuid));
  }

  async deleteAsset(actor: Actor | null, owner: string, repo: string, rawId: string, rawAssetId: string): Promise<void> {
    const { scope } = await this.writable(actor, owner, repo);
    const release = await this.byId(scope, rawId);
    const asset = await this.assetOf(release, rawAssetId);
    await this.db.transaction((m) => m.delete(ReleaseAssetEntity, { id: asset.id }).then(() => null));
    await this.dropBlobs([asset.uuid]);
  }

  /** `POST …/releases/{id}/assets`: every check that needs no bytes, before the upload is read. */
  async uploadTarget(actor: Actor | null, owner: string, repo: string, rawId: string): Promise<{ scope: ReleaseScope; actor: Actor; release: ReleaseEntity }> {
    const { scope, actor: a } = await this.writable(actor, owner, repo);
    return { scope, actor: a, release: await this.byId(scope, rawId) };
  }

  /**
   * Stores an upload as an asset of the release: its size is checked while it streams (413),
   * the file is in place before its row is written, and goes again if the row cannot be.
   */
  async upload(target: { scope: ReleaseScope; actor: Actor; release: ReleaseEntity }, file: Readable, name: string): Promise<Attachment> {
    const problem = assetNameProblem(name);
    if (problem) {
      file.resume();
      throw unprocessable(problem);
    }
    const uuid = randomUUID();
    const key = releaseAssetBlobKey(uuid);
    const max = this.config.attachmentMaxBytes;
    let size: number;
    try {
      size = (await this.blobs.put(key, file, { maxBytes: max })).size;
    } catch (err) {
      if (err instanceof BlobTooLargeError) throw new ContractError('payload_too_large', `attachment exceeds limit ${max}`);
      throw err;
    }
    try {
      const id = await this.db.transaction(async (m) => {
        const row = await m.save(
          m.create(ReleaseAssetEntity, {
            uuid,
            releaseId: target.release.id,
            repoId: target.release.repoId,
            uploaderId: target.actor.id,
            name,
            size,
            downloadCount: 0,
            createdAt: new Date(),
          }),
        );
        return row.id;
      });
      const row = (await this.db.manager.findOneBy(ReleaseAssetEntity, { id }))!;
      return toReleaseAsset(row, assetDownloadUrl(this.config.rootUrl, row.uuid));
    } catch (err) {
      await this.dropBlobs([uuid]);
      throw err;
    }
  }

  /**
   * `GET /{owner}/{repo}/releases/download/{tag}/{name}` (Gitea's RedirectDownload, served here):
   * the asset's bytes, counted as a download. A draft's files are hidden from readers.
   */
  async download(actor: Actor | null, owner: string, repo: string, tag: string, name: string): Promise<{ asset: ReleaseAssetEntity; content: Readable }> {
    const scope = await this.reader(actor, owner, repo);
    const release = await this.byTag(scope, tag);
    const asset = name.includes('\u0000') ? null : await this.db.manager.findOne(ReleaseAssetEntity, { where: { releaseId: release.id, name }, order: { id: 'ASC' } });
    if (!asset) throw notFound();
    return this.served(asset);
  }

  /** Whether a release asset has this uuid. */
  async isAsset(uuid: string): Promise<boolean> {
    return isUuid(uuid) && (await this.db.manager.count(ReleaseAssetEntity, { where: { uuid } })) > 0;
  }

  /**
   * `GET /attachments/{uuid}` of a release's file (Gitea's Attachment.DownloadURL): as a download
   * by tag and name, to those who may read the release (a draft's to its writers).
   */
  async downloadByUuid(actor: Actor | null, uuid: string): Promise<{ asset: ReleaseAssetEntity; content: Readable }> {
    const asset = isUuid(uuid) ? await this.db.manager.findOneBy(ReleaseAssetEntity, { uuid }) : null;
    const release = asset ? await this.db.manager.findOneBy(ReleaseEntity, { id: asset.releaseId }) : null;
    if (!asset || !release) throw notFound();
    const ctx = await this.access.contextById(actor, release.repoId);
    if (!ctx.permission.canSee) throw notFound();
    // Gitea's ServeAttachment answers 404 to whoever may not read the release, not 403.
    const scope = await this.reader(actor, ctx.owner.owner.login, ctx.repo.name).catch((err: unknown) => {
      throw err instanceof ContractError && err.code === 'permission_denied' ? notFound() : err;
    });
    if (release.isDraft && !scope.writer) throw notFound();
    return this.served(asset);
  }

  /** An asset's bytes, counted as a download. */
  private async served(asset: ReleaseAssetEntity): Promise<{ asset: ReleaseAssetEntity; content: Readable }> {
    const content = await this.blobs.open(releaseAssetBlobKey(asset.uuid));
    if (!content) {
      log.error({ uuid: asset.uuid }, 'the file of a release asset is missing');
      throw notFound();
    }
    await this.db.manager.increment(ReleaseAssetEntity, { id: asset.id }, 'downloadCount', 1);
    return { asset, content };
  }

  // Helpers.

  /** Gitea's reqRepoReader(releases): 404 when hidden, 403 when visible without the unit. */
  private async reader(actor: Actor | null, owner: string, repo: string): Promise<ReleaseScope> {
    const ctx = await this.access.assign(actor, owner, repo);
    // Gitea's reqRepoReader and reqRepoWriter of the releases unit: with the unit switched off, only
    // the repository's and the site's admins get past them.
    const mode = enabledUnitModes(ctx.permission, ctx.repo.settings)['repo.releases'];
    if (mode < AccessMode.read && !ctx.permission.isAdmin) throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    return { view: repoView(ctx, this.config), writer: mode >= AccessMode.write || ctx.permission.isAdmin };
  }

  /** Reader, then signed in (401), writer of releases (403), not archived (423). */
  private async writable(actor: Actor | null, owner: string, repo: string): Promise<{ scope: ReleaseScope; actor: Actor }> {
    const scope = await this.reader(actor, owner, repo);
    if (!actor) throw new ContractError('unauthenticated', 'token is required');
    if (!scope.writer) throw forbidden('user should have a permission to write to a repo');
    if (scope.view.ctx.repo.isArchived) throw new ContractError('locked', 'repo is archived');
    return { scope, actor };
  }

  private async byId(scope: ReleaseScope, rawId: string): Promise<ReleaseEntity> {
    const id = idFrom(rawId);
    const row = id ? await this.db.manager.findOneBy(ReleaseEntity, { id, repoId: scope.view.repoId }) : null;
    if (!row || (row.isDraft && !scope.writer)) throw notFound();
    return row;
  }

  private async byTag(scope: ReleaseScope, tag: string): Promise<ReleaseEntity> {
    const row = await this.findByTag(scope.view.repoId, tag);
    if (!row || (row.isDraft && !scope.writer)) throw notFound();
    return row;
  }

  private findByTag(repoId: number, tag: string): Promise<ReleaseEntity | null> {
    // A NUL names no tag (and PostgreSQL refuses to compare text holding one).
    if (tag.includes('\u0000')) return Promise.resolve(null);
    return this.db.manager.findOneBy(ReleaseEntity, { repoId, lowerTagName: tag.toLowerCase() });
  }

  private async assetOf(release: ReleaseEntity, rawAssetId: string): Promise<ReleaseAssetEntity> {
    const id = idFrom(rawAssetId);
    const row = id ? await this.db.manager.findOneBy(ReleaseAssetEntity, { id }) : null;
    if (!row || row.releaseId !== release.id) throw notFound();
    return row;
  }

  private assetsOf(releaseIds: number[]): Promise<ReleaseAssetEntity[]> {
    if (releaseIds.length === 0) return Promise.resolve([]);
    return this.db.manager.find(ReleaseAssetEntity, { where: { releaseId: In(releaseIds) }, order: { name: 'ASC', id: 'ASC' } });
  }

  /**
   * The commit of the release's tag: the tag's own when it exists, else a new tag at `target`
   * (a branch, tag or commit id; 404 when none), if tag protection lets the caller (422).
   */
  private async ensureTag(view: RepoView, actor: Actor, tagName: string, target: string, message: string): Promise<string> {
    const existing = await this.refs.tagCommit(view.repoId, tagName);
    if (existing) return existing;
    const commit = await this.refs.anyCommit(view.repoId, target);
    if (!commit) throw notFound('target not found');
    if (!(await this.policy.mayControlTag({ ...view.ctx, actor }, tagName))) throw unprocessable(`release tag name is protected [tag_name: ${tagName}]`);
    await this.tags.writeTag(view, actor, tagName, commit.sha, message);
    return commit.sha;
  }

  private async remove(scope: ReleaseScope, actor: Actor, row: ReleaseEntity): Promise<void> {
    const assets = await this.assetsOf([row.id]);
    const event = row.isDraft ? null : await this.one(scope, row);
    const users = await this.people([actor.id]);
    await this.db.transaction(async (m) => {
      await m.delete(ReleaseAssetEntity, { releaseId: row.id });
      await m.delete(ReleaseEntity, { id: row.id });
      await this.recount(m, scope.view.repoId);
      if (event) await this.announce(m, scope, actor, users, row, 'deleted', event);
      return null;
    });
    await this.dropBlobs(assets.map((a) => a.uuid));
  }

  private async dropBlobs(uuids: string[]): Promise<void> {
    for (const uuid of uuids) {
      await this.blobs.delete(releaseAssetBlobKey(uuid)).catch((err: unknown) => log.warn({ err, uuid }, 'could not remove the file of a release asset'));
    }
  }

  /** The repository's `release_counter`: its published releases. */
  private async recount(m: EntityManager, repoId: number): Promise<void> {
    const n = await m.countBy(ReleaseEntity, { repoId, isDraft: false });
    await this.repos.update(m, repoId, { numReleases: n });
  }

  /**
   * Gitea's release notification (webhook `release`, feed publish_release): the release as the API
   * shows it, the repository as the sender sees it, the sender as anyone does.
   */
  private async announce(
    m: EntityManager,
    scope: ReleaseScope,
    actor: Actor,
    users: Map<number, User>,
    row: ReleaseEntity,
    action: 'published' | 'updated' | 'deleted',
    known?: Release,
  ): Promise<void> {
    // Gitea's NewRelease notifies as the release's publisher; updates and deletions as the doer.
    const sender = users.get(action === 'published' ? row.publisherId : actor.id) ?? users.get(GHOST_ID);
    if (!sender) return;
    const release = known ?? (await this.one(scope, row, m, users));
    const name = action === 'published' ? EventNames.releasePublished : action === 'updated' ? EventNames.releaseUpdated : EventNames.releaseDeleted;
    const { ctx } = scope.view;
    const fresh = (await this.repos.findById(ctx.repo.id, m)) ?? ctx.repo;
    const repository = toRepository(fresh, ctx.owner.ownerUser, ctx.permission, this.config);
    await this.outbox.add(m, name, { action, release, repository, sender }, { actor, repoId: ctx.repo.id });
  }

  private async one(scope: ReleaseScope, row: ReleaseEntity, m?: EntityManager, known?: Map<number, User>): Promise<Release> {
    const [release] = await this.toApi(scope, [row], m, known);
    return release!;
  }

  /**
   * Users as anyone sees them (Gitea's ToUser without a viewer), with the ghost user for deleted
   * ones, in one call: read before a transaction opens, so no transaction waits on another service.
   */
  private async people(ids: number[], known?: Map<number, User>): Promise<Map<number, User>> {
    const users = new Map(known);
    const missing = [...new Set(ids)].filter((id) => !users.has(id));
    for (const u of await this.directory.usersByIds(null, missing)) users.set(u.id, u);
    if (ids.some((id) => !users.has(id)) && !users.has(GHOST_ID)) for (const u of await this.directory.usersByIds(null, [GHOST_ID])) users.set(GHOST_ID, u);
    return users;
  }

  /** Releases as the API shows them: authors in one call, assets in one query. */
  private async toApi(scope: ReleaseScope, rows: ReleaseEntity[], m?: EntityManager, known?: Map<number, User>): Promise<Release[]> {
    if (rows.length === 0) return [];
    const users = await this.people(
      rows.map((r) => r.publisherId),
      known,
    );
    const manager = m ?? this.db.manager;
    const assets = await manager.find(ReleaseAssetEntity, { where: { releaseId: In(rows.map((r) => r.id)) }, order: { name: 'ASC', id: 'ASC' } });
    return rows.map((r) => {
      const author: User = users.get(r.publisherId) ?? users.get(GHOST_ID)!;
      return toRelease(
        r,
        author,
        assets.filter((a) => a.releaseId === r.id),
        scope.view.urls,
        this.config.rootUrl,
      );
    });
  }
}
