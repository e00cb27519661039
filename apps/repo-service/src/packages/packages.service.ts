import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  AccessMode,
  ContractError,
  EventNames,
  forbidden,
  invalid,
  notFound,
  pageOf,
  type Actor,
  type ListOptions,
  type Package,
  type PackageFile,
  type Page,
  type Repository,
  type RetentionResult,
  type User,
} from '@gitforge/contracts';
import { BlobStore, contentDisposition, Database, DirectoryClient, isUniqueViolation, OutboxService, sendBlob, type ByteRange } from '@gitforge/platform';
import { RepoAccessService } from '../access/repo-access.service.js';
import { RepoServiceConfig } from '../repo.config.js';
import { toRepository } from '../repos/repo.mapper.js';
import { ReposRepository } from '../records/repos.repository.js';
import type { RepositoryEntity } from '../records/repository.entity.js';
import { PackageAccess, requireRead, requireWrite, type PackageOwner } from './package-access.js';
import { PackageBlobs, type HeldBlob } from './package-blobs.js';
import { packageBlobKey, PackageEntity, PackageFileEntity, PackageVersionEntity } from './package.entities.js';
import { toPackage, toPackageFile } from './package.mapper.js';
import { PackagesRepository, type FileRow, type VersionRow } from './packages.repository.js';
import { forgeRepository } from './repository-url.js';

/** Gitea's ghost user: what a deleted creator shows as. */
const GHOST_ID = -1;

/** A version published twice where a version is published once (npm): Gitea's ErrDuplicatePackageVersion, 409. */
const duplicateVersion = (): ContractError => new ContractError('conflict', 'package version already exists');

/** What a registry publishes: one file of one version of one package. */
export interface PublishRequest {
  type: string;
  name: string;
  version: string;
  /** The registry's own JSON about the version (stored with a new version; npm's manifest). */
  metadata?: unknown;
  filename: string;
  /** Whether the version may exist already (generic: files add up; npm: a version is published once). */
  addToExisting: boolean;
  /** Dist-tags pointed at the version when it is created. */
  tags?: string[];
}

/** A package file to serve: what it is, and its bytes (all, or a range) on demand. */
export interface ServedFile {
  name: string;
  size: number;
  sha256: string;
  createdAt: Date;
  open(range?: ByteRange): Promise<Readable>;
}

/**
 * The package store behind every registry and the package API: packages, versions and files of
 * an owner, their bytes in the BlobStore (PackageBlobs), events through the outbox. Registry
 * modules (generic, npm) turn their wire formats into these calls.
 */
@Injectable()
export class PackagesService {
  constructor(
    private readonly db: Database,
    private readonly config: RepoServiceConfig,
    private readonly rows: PackagesRepository,
    private readonly blobs: PackageBlobs,
    private readonly store: BlobStore,
    private readonly access: PackageAccess,
    private readonly repoAccess: RepoAccessService,
    private readonly repos: ReposRepository,
    private readonly directory: DirectoryClient,
    private readonly outbox: OutboxService,
  ) {}

  owner(actor: Actor | null, name: string): Promise<PackageOwner> {
    return this.access.owner(actor, name);
  }

  /** Refuses an upload before its bytes are read when the owner's quota is used up already (403); site admins have none (Gitea's CheckSizeQuotaExceeded). */
  async checkQuota(actor: Actor | null, owner: PackageOwner, incoming = 0): Promise<void> {
    const quota = this.config.packageOwnerQuotaBytes;
    if (quota === null || actor?.isAdmin) return;
    if ((await this.rows.ownerUsage(owner.owner.owner.id)) + incoming > quota) throw forbidden('package quota exceeded: the owner has used up its total size');
  }

  /**
   * Stores `source` as `req.filename` of the version (creating the package and the version as
   * needed): the bytes first, streaming while the quota and the owner's rows are checked (size
   * limit while they stream, 413), then the rows (the blob's with them) and the `package.created`
   * event in one transaction; a refused or failed upload leaves no file and no blob behind. A
   * file of that name in the version is 409.
   */
  async publish(actor: Actor | null, owner: PackageOwner, req: PublishRequest, source: Readable): Promise<VersionRow> {
    const creator = requireWrite(actor, owner);
    const { checked, staged } = await this.blobs.stage(source, this.config.packageMaxFileBytes, async () => {
      const [, existing, sender] = await Promise.all([this.checkQuota(creator, owner), this.rows.findPackage(owner.owner.owner.id, req.type, req.name), this.people([creator.id])]);
      return { sender: sender.get(creator.id)!, repository: existing ? await this.repositoryOf(null, existing) : null };
    });
    const { sender, repository } = checked;
    const attempt = (): Promise<{ row: VersionRow; held: HeldBlob }> =>
      this.db.transaction(async (m) => {
        const pkg = await this.packageRow(m, owner.owner.owner.id, req);
        let version = await this.rows.findVersion(pkg.id, req.version, m);
        const created = !version;
        if (version && !req.addToExisting) throw duplicateVersion();
        if (!version) {
          version = await m.save(
            m.create(PackageVersionEntity, {
              packageId: pkg.id,
              creatorId: creator.id,
              version: req.version,
              lowerVersion: req.version.toLowerCase(),
              metadata: JSON.stringify(req.metadata ?? {}),
              createdAt: new Date(),
            }),
          );
        } else if (await this.rows.findFile(version.id, req.filename, m)) throw new ContractError('conflict', 'package file already exists');
        const held = await this.blobs.hold(m, staged);
        await m.insert(PackageFileEntity, { versionId: version.id, blobId: held.blob.id, name: req.filename, lowerName: req.filename.toLowerCase(), createdAt: new Date() });
        const quota = creator.isAdmin ? null : this.config.packageOwnerQuotaBytes;
        if (quota !== null && (await this.rows.ownerUsage(owner.owner.owner.id, m)) > quota) throw forbidden('package quota exceeded: the owner has used up its total size');
        for (const tag of created ? (req.tags ?? []) : []) await this.rows.setTag(m, pkg.id, tag, version.id);
        const api = toPackage(pkg, version, owner.owner.ownerUser, sender, repository, this.config.rootUrl);
        if (created) await this.announce(m, 'created', api, owner, repository, pkg.repoId, sender, creator);
        return { row: { pkg, version }, held };
      });
    let held: HeldBlob | null = null;
    try {
      // A parallel upload created the package or the version a moment ago (PostgreSQL): once more, on its rows.
      const done = await attempt().catch((err: unknown) => {
        if (!isUniqueViolation(err)) throw err;
        return attempt();
      });
      held = done.held;
      return done.row;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A parallel publish of the same version (npm) or file (generic) won the unique index.
      throw req.addToExisting ? new ContractError('conflict', 'package file already exists') : duplicateVersion();
    } finally {
      await this.blobs.settle(staged, held);
    }
  }

  private async packageRow(m: EntityManager, ownerId: number, req: PublishRequest): Promise<PackageEntity> {
    const found = await this.rows.findPackage(ownerId, req.type, req.name, m);
    if (found) return found;
    return m.save(m.create(PackageEntity, { ownerId, repoId: 0, type: req.type, name: req.name, lowerName: req.name.toLowerCase(), createdAt: new Date() }));
  }

  /** The package `type`/`name` of the owner, or null. */
  findPackage(owner: PackageOwner, type: string, name: string): Promise<PackageEntity | null> {
    return this.rows.findPackage(owner.owner.owner.id, type, name);
  }

  /** The package `type`/`name` of the owner; 404 when there is none. */
  async package(owner: PackageOwner, type: string, name: string): Promise<PackageEntity> {
    const pkg = await this.findPackage(owner, type, name);
    if (!pkg) throw notFound('package does not exist');
    return pkg;
  }

  /** A version of a package; 404 when there is none. */
  async version(owner: PackageOwner, type: string, name: string, version: string): Promise<VersionRow> {
    const pkg = await this.package(owner, type, name);
    const row = await this.rows.findVersion(pkg.id, version);
    if (!row) throw notFound('package does not exist');
    return { pkg, version: row };
  }

  versions(pkg: PackageEntity): Promise<PackageVersionEntity[]> {
    return this.rows.versionsOf(pkg.id);
  }

  files(versions: PackageVersionEntity[]): Promise<FileRow[]> {
    return this.rows.filesOf(versions.map((v) => v.id));
  }

  /** The newest version of each package of one type of the owner whose name contains `q`, newest first (a registry's own search). */
  searchLatest(owner: PackageOwner, type: string, q: string, page: { offset: number; limit: number }): Promise<{ rows: VersionRow[]; total: number }> {
    return this.rows.searchVersions(owner.owner.owner.id, { type, q, latestOnly: true }, page);
  }

  tags(pkg: PackageEntity): Promise<Array<{ tag: string; versionId: number }>> {
    return this.rows.tagsOf(pkg.id);
  }

  /** A file of the version; 404 when it has no such file. */
  private async file(row: VersionRow, filename: string): Promise<ServedFile> {
    const found = (await this.rows.filesOf([row.version.id])).find((f) => f.file.lowerName === filename.toLowerCase());
    if (!found) throw notFound('package file does not exist');
    const { blob } = found;
    return {
      name: found.file.name,
      size: blob.size,
      sha256: blob.sha256,
      createdAt: found.file.createdAt,
      open: async (range) => {
        const content = await this.store.open(packageBlobKey(blob.uuid), range);
        if (!content) throw new ContractError('internal', `package blob ${blob.sha256} is missing from the store`);
        return content;
      },
    };
  }

  /**
   * Answers a GET or HEAD for a package file as Gitea's ServePackageFile does (Go's
   * http.ServeContent: ranges, 304 for a fresh copy), its headers those of Gitea's ServeSetHeaders.
   */
  async serve(req: IncomingMessage, res: ServerResponse, row: VersionRow, filename: string): Promise<void> {
    const file = await this.file(row, filename);
    await sendBlob(req, res, {
      size: file.size,
      lastModified: file.createdAt,
      etag: `"${file.sha256}"`,
      headers: {
        'Content-Type': 'application/octet-stream',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        'Content-Disposition': contentDisposition('attachment', file.name),
        'Access-Control-Expose-Headers': 'Content-Disposition',
        'Cache-Control': 'max-age=0, private, must-revalidate',
      },
      open: file.open,
    });
  }

  /** Deletes a version with its files (Gitea's RemovePackageVersion), and the package with its last version. */
  async deleteVersion(actor: Actor | null, owner: PackageOwner, row: VersionRow): Promise<void> {
    const doer = requireWrite(actor, owner);
    const [api, sender] = await Promise.all([this.toApi(null, owner, [row]).then((a) => a[0]!), this.people([doer.id])]);
    const keys = await this.db.transaction(async (m) => {
      const blobIds = await this.rows.deleteVersions(m, [row.version.id]);
      await this.rows.deleteIfEmpty(m, row.pkg.id);
      await this.announce(m, 'deleted', api, owner, api.repository, row.pkg.repoId, sender.get(doer.id)!, doer);
      return this.blobs.releaseUnreferenced(m, blobIds);
    });
    await this.blobs.drop(keys);
  }

  /** Deletes a package with every version (Gitea's RemovePackage): one `deleted` event per version, the package with its last. */
  async deletePackage(actor: Actor | null, owner: PackageOwner, pkg: PackageEntity): Promise<void> {
    requireWrite(actor, owner);
    for (const version of await this.versions(pkg)) await this.deleteVersion(actor, owner, { pkg, version });
  }

  /** Deletes one file; the version goes with its last file (Gitea's generic DeletePackageFile). */
  async deleteFile(actor: Actor | null, owner: PackageOwner, row: VersionRow, filename: string): Promise<void> {
    requireWrite(actor, owner);
    const file = await this.rows.findFile(row.version.id, filename);
    if (!file) throw notFound('package file does not exist');
    if ((await this.rows.filesOf([row.version.id])).length === 1) return this.deleteVersion(actor, owner, row);
    const keys = await this.db.transaction(async (m) => {
      await m.delete(PackageFileEntity, { id: file.id });
      return this.blobs.releaseUnreferenced(m, [file.blobId]);
    });
    await this.blobs.drop(keys);
  }

  /** Points a dist-tag at a version (write access). */
  async setTag(actor: Actor | null, owner: PackageOwner, row: VersionRow, tag: string): Promise<void> {
    requireWrite(actor, owner);
    await this.db.transaction((m) => this.rows.setTag(m, row.pkg.id, tag, row.version.id));
  }

  async deleteTag(actor: Actor | null, owner: PackageOwner, pkg: PackageEntity, tag: string): Promise<void> {
    requireWrite(actor, owner);
    await this.db.transaction((m) => this.rows.deleteTag(m, pkg.id, tag));
  }

  // The package API (`/api/v1/packages/{owner}…`).

  async list(actor: Actor | null, ownerName: string, filter: { type?: string; q?: string }, options: ListOptions): Promise<Page<Package>> {
    const owner = await this.owner(actor, ownerName);
    requireRead(owner, 'api');
    const { rows, total } = await this.rows.searchVersions(owner.owner.owner.id, filter, { offset: (options.page - 1) * options.limit, limit: options.limit });
    return pageOf(await this.toApi(actor, owner, rows), total, options);
  }

  /** Gitea's ListPackageVersions: the versions of one package (404 when there is none), newest first. */
  async listVersions(actor: Actor | null, ownerName: string, type: string, name: string, options: ListOptions): Promise<Page<Package>> {
    const owner = await this.owner(actor, ownerName);
    const pkg = await this.package(owner, type, name);
    requireRead(owner, 'api');
    const { rows, total } = await this.rows.searchVersions(owner.owner.owner.id, { packageId: pkg.id }, { offset: (options.page - 1) * options.limit, limit: options.limit });
    return pageOf(await this.toApi(actor, owner, rows), total, options);
  }

  async deleteAll(actor: Actor | null, ownerName: string, type: string, name: string): Promise<void> {
    const owner = await this.owner(actor, ownerName);
    const pkg = await this.package(owner, type, name);
    requireRead(owner, 'api');
    await this.deletePackage(actor, owner, pkg);
  }

  async get(actor: Actor | null, ownerName: string, type: string, name: string, version: string): Promise<Package> {
    const owner = await this.owner(actor, ownerName);
    const row = await this.version(owner, type, name, version);
    requireRead(owner, 'api');
    return (await this.toApi(actor, owner, [row]))[0]!;
  }

  async latest(actor: Actor | null, ownerName: string, type: string, name: string): Promise<Package> {
    const owner = await this.owner(actor, ownerName);
    const pkg = await this.package(owner, type, name);
    requireRead(owner, 'api');
    const version = await this.rows.latestVersion(pkg.id);
    if (!version) throw notFound('package does not exist');
    return (await this.toApi(actor, owner, [{ pkg, version }]))[0]!;
  }

  async listFiles(actor: Actor | null, ownerName: string, type: string, name: string, version: string): Promise<PackageFile[]> {
    const owner = await this.owner(actor, ownerName);
    const row = await this.version(owner, type, name, version);
    requireRead(owner, 'api');
    return (await this.rows.filesOf([row.version.id])).map(toPackageFile);
  }

  async delete(actor: Actor | null, ownerName: string, type: string, name: string, version: string): Promise<void> {
    const owner = await this.owner(actor, ownerName);
    const row = await this.version(owner, type, name, version);
    requireRead(owner, 'api');
    await this.deleteVersion(actor, owner, row);
  }

  /**
   * The repository of this forge that an npm package's `repository.url` names (Gitea's
   * UploadPackage): null for another URL or a repository the publisher cannot see; 403 when the
   * publisher, not its owner, may not write its packages. Checked before the upload is stored.
   */
  async publishTarget(publisher: Actor, url: string): Promise<RepositoryEntity | null> {
    const named = forgeRepository(url, { rootUrl: this.config.rootUrl, sshDomain: this.config.sshHost });
    if (!named) return null;
    const owner = await this.repoAccess.ownerAccess(publisher, { name: named.owner }).catch((err: unknown) => {
      if (err instanceof ContractError && err.code === 'not_found') return null;
      throw err;
    });
    const repo = owner && (await this.repos.findByOwnerAndName(owner.owner.id, named.repo));
    if (!owner || !repo) return null;
    if (repo.ownerId === publisher.id) return repo;
    const permission = await this.repoAccess.permissionFor(publisher, owner, repo);
    if (!permission.canSee) return null;
    if (permission.unitMode('repo.packages') < AccessMode.write) throw forbidden('no permission to upload this package');
    return repo;
  }

  /** Points the package at the repository (Gitea's SetRepositoryLink: the link route, an npm publish). */
  async setRepositoryLink(pkg: PackageEntity, repoId: number): Promise<void> {
    await this.db.transaction((m) => m.update(PackageEntity, { id: pkg.id }, { repoId }));
  }

  /**
   * Links a package to a repository of the same owner (Gitea's LinkToRepository): a package
   * linked already, to any repository, is 400; the caller must be able to write the repository's
   * packages, else 403 (a repository they cannot see included, as in Gitea).
   */
  async link(actor: Actor | null, ownerName: string, type: string, name: string, repoName: string): Promise<void> {
    const owner = await this.owner(actor, ownerName);
    const pkg = await this.package(owner, type, name);
    requireRead(owner, 'api');
    const doer = requireWrite(actor, owner);
    const repo = await this.repos.findByOwnerAndName(owner.owner.owner.id, repoName);
    if (!repo) throw notFound('repository does not exist');
    if (pkg.repoId !== 0) throw invalid('invalid argument');
    const permission = await this.repoAccess.permissionFor(doer, owner.owner, repo);
    if (permission.unitMode('repo.packages') < AccessMode.write) throw forbidden('permission denied');
    await this.setRepositoryLink(pkg, repo.id);
  }

  /**
   * Gitea's UnlinkFromRepository: a package linked to no repository is 400; the caller must be
   * able to write the linked repository's packages (when it still exists) and administer the
   * owner (the user themselves, an organization's admins, a site admin), else 403.
   */
  async unlink(actor: Actor | null, ownerName: string, type: string, name: string): Promise<void> {
    const owner = await this.owner(actor, ownerName);
    const pkg = await this.package(owner, type, name);
    requireRead(owner, 'api');
    const doer = requireWrite(actor, owner);
    if (pkg.repoId === 0) throw invalid('invalid argument');
    const repo = await this.repos.findById(pkg.repoId);
    if (repo && (await this.repoAccess.permissionFor(doer, owner.owner, repo)).unitMode('repo.packages') < AccessMode.write) throw forbidden('permission denied');
    if (owner.mode < AccessMode.admin) throw forbidden(`no permission to unlink package '${pkg.name}' from its repository, or packages are disabled`);
    await this.db.transaction((m) => m.update(PackageEntity, { id: pkg.id }, { repoId: 0 }));
  }

  /** cleanup_packages: blobs no file points at any more, older than the grace period. */
  async cleanup(olderThanMs: number): Promise<RetentionResult> {
    return { removed: await this.blobs.sweep(olderThanMs) };
  }

  /**
   * Versions as the package API shows them to `viewer`: creators and the owner as the viewer sees
   * them (Gitea's ToPackage passes the doer), in one call; repositories where the viewer may see them.
   */
  async toApi(viewer: Actor | null, owner: PackageOwner, rows: VersionRow[]): Promise<Package[]> {
    if (rows.length === 0) return [];
    const ownerId = owner.owner.owner.id;
    const users = await this.people([ownerId, ...rows.map((r) => r.version.creatorId)], viewer);
    const ownerUser = users.get(ownerId) ?? owner.owner.ownerUser;
    const repoIds = [...new Set(rows.map((r) => r.pkg.repoId).filter((id) => id > 0))];
    const repositories = new Map<number, Repository | null>();
    for (const repoId of repoIds) repositories.set(repoId, await this.repositoryById(viewer, owner, repoId));
    return rows.map((r) =>
      toPackage(r.pkg, r.version, ownerUser, users.get(r.version.creatorId) ?? users.get(GHOST_ID)!, repositories.get(r.pkg.repoId) ?? null, this.config.rootUrl),
    );
  }

  private async repositoryById(viewer: Actor | null, owner: PackageOwner, repoId: number): Promise<Repository | null> {
    const repo = await this.repos.findById(repoId);
    if (!repo) return null;
    const permission = await this.repoAccess.permissionFor(viewer, owner.owner, repo);
    return permission.canSee ? toRepository(repo, owner.owner.ownerUser, permission, this.config) : null;
  }

  /** The linked repository of a package as anyone sees it (event payloads), null when none or private. */
  private async repositoryOf(viewer: Actor | null, pkg: PackageEntity): Promise<Repository | null> {
    if (pkg.repoId === 0) return null;
    const repo = await this.repos.findById(pkg.repoId);
    if (!repo) return null;
    const owner = await this.repoAccess.ownerAccess(viewer, { id: repo.ownerId });
    return this.repositoryById(viewer, { owner, mode: AccessMode.read }, repo.id);
  }

  /** `repoId` is the linked repository's (0 for none): its hooks get the event even when it is private and `repository` null. */
  private async announce(
    m: EntityManager,
    action: 'created' | 'deleted',
    api: Package,
    owner: PackageOwner,
    repository: Repository | null,
    repoId: number,
    sender: User,
    actor: Actor,
  ): Promise<void> {
    const name = action === 'created' ? EventNames.packageCreated : EventNames.packageDeleted;
    await this.outbox.add(
      m,
      name,
      { action, package: api, repository, organization: owner.owner.organization, sender, ownerId: owner.owner.owner.id, repoId },
      { actor, repoId: repoId || null },
    );
  }

  /** Users as `viewer` sees them (none: as anyone does), with the ghost user for deleted ones, in one call (read before a transaction opens). */
  private async people(ids: number[], viewer: Actor | null = null): Promise<Map<number, User>> {
    const users = new Map<number, User>();
    for (const u of await this.directory.usersByIds(viewer, [...new Set(ids)])) users.set(u.id, u);
    if (ids.some((id) => !users.has(id))) for (const u of await this.directory.usersByIds(null, [GHOST_ID])) users.set(GHOST_ID, u);
    return users;
  }
}
