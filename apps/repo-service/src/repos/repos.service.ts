import { Injectable } from '@nestjs/common';
import {
  AccessMode,
  ContractError,
  EventNames,
  forbidden,
  invalid,
  isPublicOnly,
  isUsableOwnerName,
  isUsableRepoName,
  labelTemplate,
  notFound,
  renderGitignore,
  renderLicense,
  unknownGitignore,
  pageOf,
  repoNameCharsProblem,
  repoNameProblem,
  unprocessable,
  requireActor,
  requireSiteAdmin,
  type Actor,
  type CreateForkOption,
  type CreateRepoOption,
  type EditRepoOption,
  type FindReposRequest,
  type ListOptions,
  type OwnerAccess,
  type User,
  type Page,
  type Repository,
  type RepoTransfer,
} from '@gitforge/contracts';
import { BlobStore, createLogger, Database, DirectoryClient, OutboxService, PlatformConfig, RpcClient } from '@gitforge/platform';
import { RepoAccessService, type RepoContext } from '../access/repo-access.service.js';
import { RepoPermission, resolveRepoPermission } from '../access/repo-permission.js';
import { GitService } from '../git/git.service.js';
import { gitName } from '../git/git-identity.js';
import { lfsBlobKey } from '../lfs/lfs.entities.js';
import { LicensesService } from '../licenses/licenses.service.js';
import { dropReleaseFiles, releaseAssetUuids } from '../releases/release-files.js';
import { adoptedDefaultBranch } from './adoption.js';
import { copyDefaultHooks, initializeLabels } from './default-hooks.js';
import { RepoStaging } from './repo-staging.js';
import { DEFAULT_REPO_SETTINGS, trackerSettings, type RepoSettings, type RepositoryEntity } from '../records/repository.entity.js';
import { toRepository } from './repo.mapper.js';
import { ReposRepository, type RepoListFilter } from '../records/repos.repository.js';
import { TransfersRepository } from '../records/transfers.repository.js';
import { StarCounts } from '../stars/star-counts.js';
import { StarsRepository } from '../stars/stars.repository.js';
import { WatchesRepository } from '../watches/watches.repository.js';
import type { EntityManager } from 'typeorm';

const log = createLogger('repos');

const SETTING_KEYS = Object.keys(DEFAULT_REPO_SETTINGS) as Array<keyof RepoSettings>;

/** Gitea's README templates (options/readme) and what `auto_init` uses when none is named. */
const README_TEMPLATES = ['Default'];
const DEFAULT_README_TEMPLATE = 'Default';

/** Gitea's checkTokenPublicOnly for an owner named in the path: public-only tokens reach public owners only. */
function rejectPublicOnlyOwner(actor: Actor | null, owner: OwnerAccess): void {
  if (!actor || !isPublicOnly(actor.scopes) || owner.owner.visibility === 'public') return;
  throw forbidden(owner.owner.kind === 'organization' ? 'token scope is limited to public orgs' : 'token scope is limited to public users');
}

/**
 * The files of an `auto_init` commit, as Gitea's prepareRepoCommit writes them: README.md, then
 * `.gitignore` from the templates `gitignores` names and LICENSE from `license` with its
 * placeholders filled. An unknown template is 422, with the message Gitea's error carries.
 */
function initialFiles(body: CreateRepoOption, ownerLogin: string, email: string): Array<{ name: string; content: string }> {
  const files = [{ name: 'README.md', content: `# ${body.name}\n\n${body.description ?? ''}` }];
  if (body.gitignores) {
    const unknown = unknownGitignore(body.gitignores);
    if (unknown !== undefined) throw unprocessable(`initRepository: prepareRepoCommit: GetRepoInitFile[${unknown}]: file does not exist`);
    files.push({ name: '.gitignore', content: renderGitignore(body.gitignores) });
  }
  if (body.license) {
    const content = renderLicense(body.license, { owner: ownerLogin, email, repo: body.name, year: String(new Date().getFullYear()) });
    if (content === undefined) {
      throw unprocessable(`initRepository: prepareRepoCommit: getLicense[${body.license}]: GetRepoInitFile[${body.license}]: file does not exist`);
    }
    files.push({ name: 'LICENSE', content });
  }
  return files;
}

/** A repository's parent from {@link ReposService.parentViews}, null for a non-fork or a parent out of sight. */
function parentOf(repo: RepositoryEntity, parents: Map<number, Repository>): Repository | null {
  return repo.isFork && repo.forkId ? (parents.get(repo.forkId) ?? null) : null;
}

@Injectable()
export class ReposService {
  constructor(
    private readonly db: Database,
    private readonly repos: ReposRepository,
    private readonly access: RepoAccessService,
    private readonly git: GitService,
    private readonly outbox: OutboxService,
    private readonly rpc: RpcClient,
    private readonly directory: DirectoryClient,
    private readonly config: PlatformConfig,
    private readonly staging: RepoStaging,
    private readonly transfers: TransfersRepository,
    private readonly watches: WatchesRepository,
    private readonly stars: StarsRepository,
    private readonly starCounts: StarCounts,
    private readonly blobs: BlobStore,
    private readonly licenses: LicensesService,
  ) {}

  /** One repository as the actor sees it, with its parent (null when the actor may not see that). */
  async toApi(actor: Actor | null, ctx: RepoContext): Promise<Repository> {
    const [parents, transfers] = await Promise.all([this.parentViews(actor, [ctx.repo]), this.transferViews([ctx.repo])]);
    return toRepository(ctx.repo, ctx.owner.ownerUser, ctx.permission, this.config, parentOf(ctx.repo, parents), transfers.get(ctx.repo.id) ?? null);
  }

  /**
   * The pending transfers of some repositories as Gitea's RepoTransfer (doer, recipient, the
   * recipient organization's teams), by repository id: one read, one user lookup for all.
   */
  async transferViews(repos: RepositoryEntity[]): Promise<Map<number, RepoTransfer>> {
    const rows = await this.transfers.pendingOf(repos);
    const views = new Map<number, RepoTransfer>();
    if (rows.length === 0) return views;
    // As anyone sees them, whoever asks (Gitea's ToRepoTransfer: ToUser with no doer).
    const users = await this.directory.usersByIds(null, [...new Set(rows.flatMap((t) => [t.doerId, t.recipientId]))]);
    for (const t of rows) {
      const doer = users.find((u) => u.id === t.doerId);
      const recipient = users.find((u) => u.id === t.recipientId);
      if (!doer || !recipient) continue;
      const teams = t.teamIds.length > 0 ? (await this.directory.teams(t.recipientId, { ids: t.teamIds })).map((r) => r.team) : [];
      views.set(t.repoId, { doer, recipient, teams });
    }
    return views;
  }

  /**
   * The parents of some repositories as the actor sees them, by id: one read of the rows, one owner
   * lookup and one collaboration read for all of them. A parent the actor may not see is left out
   * (Gitea shows it regardless, with the child's permission; we do not leak a private parent).
   */
  async parentViews(actor: Actor | null, rows: RepositoryEntity[]): Promise<Map<number, Repository>> {
    const ids = [...new Set(rows.filter((r) => r.isFork && r.forkId).map((r) => r.forkId!))];
    const parents = await this.repos.findByIds(ids);
    if (parents.length === 0) return new Map();
    const [owners, collaborations] = await Promise.all([this.ownersOf(actor, parents), actor ? this.access.collaborationsOf(actor.id) : []]);
    const views = new Map<number, Repository>();
    for (const repo of parents) {
      const owner = owners.find((o) => o.owner.id === repo.ownerId);
      if (!owner) continue;
      const mode = collaborations.find((c) => c.repoId === repo.id)?.mode ?? AccessMode.none;
      const permission = resolveRepoPermission(actor, owner, repo, mode);
      if (!permission.canSee || (repo.isPrivate && actor && isPublicOnly(actor.scopes))) continue;
      views.set(repo.id, toRepository(repo, owner.ownerUser, permission, this.config));
    }
    return views;
  }

  private async ownersOf(actor: Actor | null, rows: RepositoryEntity[], known: OwnerAccess[] = []): Promise<OwnerAccess[]> {
    const missing = [...new Set(rows.map((r) => r.ownerId))].filter((id) => !known.some((o) => o.owner.id === id));
    if (missing.length === 0) return known;
    const fetched = await this.directory.ownersAccess(actor, missing);
    return [...known, ...fetched];
  }

  /** `POST /user/repos`; public-only tokens may not create repositories (Gitea's rejectPublicOnly). */
  async createForActor(actor: Actor | null, body: CreateRepoOption): Promise<Repository> {
    const a = requireActor(actor);
    if (isPublicOnly(a.scopes)) throw forbidden('this endpoint is not available for public-only tokens');
    return this.create(a, await this.access.ownerAccess(a, { id: a.id }), body);
  }

  /** `POST /admin/users/{username}/repos`: a site administrator creates a repository for any account. */
  async createForUser(actor: Actor | null, username: string, body: CreateRepoOption): Promise<Repository> {
    const a = requireSiteAdmin(actor);
    return this.create(a, await this.access.ownerAccess(a, { name: username }), body);
  }

  async createForOrg(actor: Actor | null, org: string, body: CreateRepoOption): Promise<Repository> {
    const a = requireActor(actor);
    const owner = await this.access.ownerAccess(a, { name: org });
    if (owner.owner.kind !== 'organization') throw notFound();
    rejectPublicOnlyOwner(a, owner);
    if (!owner.visible) throw notFound();
    if (!a.isAdmin && !owner.canCreateRepo) throw forbidden('User is not allowed to create repositories in this organization.');
    return this.create(a, owner, body);
  }

  /**
   * Gitea's CreateUserRepo and CreateRepositoryByExample: the README template is checked first
   * (400), then the name (422, 409), the label template (422), and with `auto_init` the gitignore
   * and license templates (422; Gitea fails these with a 500 after creating the row, and rolls it
   * back). A creator who is not already an administrator of a new organization repository (a
   * member whose team may create repositories) becomes an admin collaborator, and the answer
   * shows the owner's permissions whoever asked.
   */
  private async create(actor: Actor, owner: OwnerAccess, body: CreateRepoOption): Promise<Repository> {
    const readme = body.auto_init ? body.readme || DEFAULT_README_TEMPLATE : '';
    if (readme && !README_TEMPLATES.includes(readme)) {
      throw invalid(`readme template does not exist, available templates: [${README_TEMPLATES.join(' ')}]`);
    }
    const problem = repoNameProblem(body.name);
    if (problem) throw unprocessable(problem);
    const [identity, sender] = await Promise.all([this.directory.actorUser(actor), this.directory.publicUser(actor.id)]);
    const branch = body.default_branch || 'main';
    const objectFormat = body.object_format_name === 'sha256' ? 'sha256' : 'sha1';
    const id = await this.createStaged(async (m, stage) => {
      if (await this.repos.findByOwnerAndName(owner.owner.id, body.name, m)) {
        throw new ContractError('conflict', 'The repository with the same name already exists.');
      }
      if (body.issue_labels && !labelTemplate(body.issue_labels)) {
        throw unprocessable(`failed to load label template file "${body.issue_labels}": label template does not exist`);
      }
      const files = body.auto_init ? initialFiles(body, owner.owner.login, identity.email) : [];
      const { repo } = await this.insertCreated(m, actor, owner, {
        name: body.name,
        description: body.description ?? '',
        defaultBranch: branch,
        isPrivate: body.private ?? false,
        isTemplate: body.template ?? false,
        isEmpty: true,
        objectFormat,
      });
      await stage(repo.id);
      const dir = await this.git.initStaged(repo.id, branch, objectFormat);
      if (body.auto_init) {
        const author = { name: gitName(identity), email: identity.email };
        const { blobs } = await this.git.createInitialCommit(repo.id, { branch, files, message: 'Initial commit', author }, dir);
        // Gitea records the license it was asked for rather than detecting it; the blob id keeps
        // later pushes from reading the file again until it changes.
        const facts: Partial<RepositoryEntity> = {
          isEmpty: false,
          numBranches: 1,
          sizeKib: await this.git.sizeKiB(repo.id, dir),
          ...(body.license ? { licenses: [body.license], licenseBlob: blobs.get('LICENSE')! } : {}),
        };
        Object.assign(repo, facts);
        await this.repos.update(m, repo.id, facts);
      }
      await this.addCreated(m, actor, owner, repo, sender);
      return repo.id;
    });
    if (body.issue_labels) await initializeLabels(this.rpc, id, body.issue_labels);
    const repo = (await this.repos.findById(id))!;
    return toRepository(repo, owner.ownerUser, new RepoPermission(AccessMode.owner), this.config);
  }

  /**
   * `POST /admin/unadopted/{owner}/{repo}` (Gitea's AdoptRepository, site admins): the directory an
   * operator dropped at `<owner>/<name>.git` becomes a private repository of the owner, created as
   * {@link create} creates one but from the repository it holds: its object format, its branches
   * (`empty` without any), its size, and a default branch of `main`, `master`, the branch HEAD
   * names, or the first by name, in that order (HEAD is set to it). Tags stay refs, as a push
   * leaves them. 404 when the owner is unknown, a repository of that name exists, or nothing
   * was dropped there; 422 when what was dropped is no git repository.
   */
  async adopt(actor: Actor | null, ownerName: string, name: string): Promise<void> {
    const a = requireSiteAdmin(actor);
    // Checked before any lookup: only such names ever become a path.
    if (!isUsableOwnerName(ownerName) || !isUsableRepoName(name)) throw notFound();
    const owner = await this.access.ownerAccess(a, { name: ownerName });
    const sender = await this.directory.publicUser(a.id);
    const login = owner.owner.login;
    const id = await this.createStaged(async (m, stage) => {
      if (await this.repos.findByOwnerAndName(owner.owner.id, name, m)) throw notFound();
      if (!(await this.git.isUnadopted(login, name))) throw notFound();
      const { repo } = await this.insertCreated(m, a, owner, { name, description: '', defaultBranch: 'main', isPrivate: true, isEmpty: true });
      await stage(repo.id);
      const dir = await this.git.adoptStaged(repo.id, login, name);
      if (dir === null) throw notFound();
      const branches = await this.git.branchNames(repo.id, dir);
      const facts: Partial<RepositoryEntity> = {
        objectFormat: await this.git.objectFormat(repo.id, dir),
        defaultBranch: adoptedDefaultBranch(branches, await this.git.headBranch(repo.id, dir)) ?? 'main',
        isEmpty: branches.length === 0,
        numBranches: branches.length,
        sizeKib: await this.git.sizeKiB(repo.id, dir),
      };
      await this.git.setHead(repo.id, facts.defaultBranch!, dir);
      Object.assign(repo, facts);
      await this.repos.update(m, repo.id, facts);
      await this.addCreated(m, a, owner, repo, sender);
      return repo.id;
    });
    await this.settleLicenses(id);
  }

  /**
   * Queues a look at a repository's license file after its default branch changed without a push
   * (an adoption, an edit), as Gitea queues its license updater then. The repository stands
   * whatever becomes of it; a failure is logged and the next push or sync_repo_licenses tries again.
   */
  private async settleLicenses(repoId: number): Promise<void> {
    await this.licenses.requestRefresh(repoId).catch((err: unknown) => log.warn({ err, repoId }, 'could not queue a look at the repository licenses'));
  }

  /**
   * A creation (a new repository, a fork, an adoption): `work` writes the row in one transaction
   * and builds the repository in the staging area under the id's creation mark, which `stage`
   * takes. Once the row commits the repository is moved into place and the site's default hooks
   * are copied; a crash in between leaves a staged directory that the staging sweep settles.
   */
  private async createStaged(work: (m: EntityManager, stage: (repoId: number) => Promise<void>) => Promise<number>): Promise<number> {
    let staged: number | undefined;
    const id = await this.db
      .transaction((m) =>
        work(m, async (repoId) => {
          await this.repos.holdCreation(m, repoId);
          staged = repoId;
        }),
      )
      .catch(async (err: unknown) => {
        // Rolled back, or unknown if the commit itself failed: the sweep decides under the creation mark.
        const repoId = staged;
        if (repoId !== undefined) {
          await this.staging.settle(repoId).catch((e: unknown) => log.warn({ err: e, repoId }, 'could not settle a staged repository; the staging sweep retries'));
        }
        throw err;
      });
    // A retried request whose first attempt committed answers that attempt's id: its repository
    // may still be staged (the first replica died before moving it), and is moved here.
    await this.git.promote(id);
    if (staged !== undefined && staged !== id) await this.staging.settle(staged);
    await copyDefaultHooks(this.rpc, id);
    return id;
  }

  /**
   * A new repository's row as every creation writes it: the name is a repository's again, so an
   * old name that led elsewhere ends here (Gitea's DeleteRedirect); a creator who is not an
   * administrator of a new organization repository becomes an admin collaborator (the mode given
   * is answered); and the creator watches it (Gitea's AutoWatchNewRepos, on by default).
   */
  private async insertCreated(
    m: EntityManager,
    actor: Actor,
    owner: OwnerAccess,
    fields: Partial<RepositoryEntity> & { name: string },
  ): Promise<{ repo: RepositoryEntity; collaboration: number }> {
    await this.transfers.deleteRedirect(m, owner.owner.id, fields.name);
    const now = new Date();
    const repo = await this.repos.insert(m, {
      ownerId: owner.owner.id,
      ownerName: owner.owner.login,
      lowerName: fields.name.toLowerCase(),
      settings: { ...DEFAULT_REPO_SETTINGS },
      topics: [],
      // Set here, not left to the column defaults: the repo.created event shows this object.
      licenses: [],
      licenseBlob: '',
      createdAt: now,
      updatedAt: now,
      ...fields,
    });
    let collaboration: number = AccessMode.none;
    if (owner.owner.kind === 'organization' && !resolveRepoPermission(actor, owner, repo, AccessMode.none).isAdmin) {
      collaboration = AccessMode.admin;
      await this.repos.addCollaboration(m, repo.id, actor.id, collaboration);
    }
    await this.watches.add(m, actor.id, repo.id);
    repo.numWatches = 1;
    return { repo, collaboration };
  }

  /** The `repo.created` event of a new (or adopted) repository, as its owner sees it. */
  private async addCreated(m: EntityManager, actor: Actor, owner: OwnerAccess, repo: RepositoryEntity, sender: User): Promise<void> {
    await this.outbox.add(
      m,
      EventNames.repoCreated,
      {
        repository: toRepository(repo, owner.ownerUser, new RepoPermission(AccessMode.owner), this.config),
        organization: owner.organization,
        sender,
      },
      { actor, repoId: repo.id },
    );
  }

  /**
   * `POST /repos/{owner}/{repo}/forks` (Gitea's CreateFork and ForkRepository): a fork for the
   * caller, or for an organization where the caller may create repositories, named like the source
   * unless `name` says otherwise. It keeps the source's description, default branch and object
   * format, and is private when the source is or when the source's owner is private. It is built in
   * the staging area like a new repository, so a failed fork leaves nothing behind.
   */
  async fork(actor: Actor | null, ownerName: string, repoName: string, body: CreateForkOption | undefined): Promise<Repository> {
    const a = requireActor(actor);
    const source = await this.access.assign(a, ownerName, repoName);
    if (!source.permission.canRead('repo.code')) {
      throw forbidden('user should have specific read permission or be a repo admin or a site admin');
    }
    const target = body?.organization !== undefined ? await this.forkOrganization(a, body.organization) : await this.access.ownerAccess(a, { id: a.id });
    const name = body?.name ?? source.repo.name;
    const problem = repoNameProblem(name);
    if (problem) throw unprocessable(problem);
    const base = source.repo;
    const sender = await this.directory.publicUser(a.id);
    // The source as the forker sees it, counting this fork (the events show it so).
    const baseView = toRepository({ ...base, numForks: base.numForks + 1 }, source.owner.ownerUser, source.permission, this.config);
    const id = await this.createStaged(async (m, stage) => {
      const existing = await this.repos.findForkOf(base.id, target.owner.id, m);
      if (existing) {
        throw new ContractError(
          'conflict',
          `repository is already forked by user [uname: ${target.owner.login}, repo path: ${source.owner.owner.login}/${base.name}, fork path: ${target.owner.login}/${existing.name}]`,
        );
      }
      if (await this.repos.findByOwnerAndName(target.owner.id, name, m)) {
        throw new ContractError('conflict', `repository already exists [uname: ${target.owner.login}, name: ${name}]`);
      }
      const { repo, collaboration } = await this.insertCreated(m, a, target, {
        name,
        description: base.description,
        defaultBranch: base.defaultBranch,
        isPrivate: base.isPrivate || source.owner.owner.visibility === 'private',
        isEmpty: base.isEmpty,
        isFork: true,
        forkId: base.id,
        objectFormat: base.objectFormat,
        // The fork starts at the source's default branch, license file included (Gitea copies the rows too).
        licenses: base.licenses,
        licenseBlob: base.licenseBlob,
      });
      await this.repos.addForks(m, base.id, 1);
      await this.repos.copyLfsObjects(m, base.id, repo.id);
      await stage(repo.id);
      const dir = await this.git.cloneStaged(base.id, repo.id, base.defaultBranch, base.objectFormat);
      repo.numBranches = await this.git.branchCount(repo.id, dir);
      repo.sizeKib = await this.git.sizeKiB(repo.id, dir);
      await this.repos.update(m, repo.id, { numBranches: repo.numBranches, sizeKib: repo.sizeKib });
      // Gitea's fork notifies as a creation too: the create_repo feed entry, the owner's default
      // hooks, and (for an organization's fork only) the repository webhook; the webhook worker
      // tells a fork's repo.created apart by `fork` and `organization`.
      await this.outbox.add(
        m,
        EventNames.repoCreated,
        {
          repository: toRepository(repo, target.ownerUser, new RepoPermission(AccessMode.owner), this.config, baseView),
          organization: target.organization,
          sender,
        },
        { actor: a, repoId: repo.id },
      );
      await this.outbox.add(
        m,
        EventNames.repoForked,
        {
          forkee: toRepository(repo, target.ownerUser, resolveRepoPermission(a, target, repo, collaboration), this.config, baseView),
          repository: baseView,
          sender,
        },
        { actor: a, repoId: base.id },
      );
      return repo.id;
    });
    const repo = (await this.repos.findById(id))!;
    return this.toApi(a, { repo, owner: target, permission: new RepoPermission(AccessMode.owner) });
  }

  /** Gitea's prepareDoerCreateRepoInOrg: an unknown or invisible organization is 404, one the caller may not create in 403. */
  private async forkOrganization(actor: Actor, name: string): Promise<OwnerAccess> {
    const owner = await this.access.ownerAccess(actor, { name }).catch((err: unknown) => {
      throw (err as { code?: string }).code === 'not_found' ? notFound() : err;
    });
    if (owner.owner.kind !== 'organization' || !owner.visible) throw notFound();
    if (!actor.isAdmin && !owner.canCreateRepo) throw forbidden('User is not allowed to create repositories in this organization.');
    return owner;
  }

  async get(actor: Actor | null, owner: string, name: string): Promise<Repository> {
    return this.toApi(actor, await this.access.assign(actor, owner, name));
  }

  /**
   * `GET /repositories/{id}` (Gitea's GetByID): 404 for an unknown id or one the actor may not see;
   * a public-only token does not reach private repositories here either.
   */
  async getById(actor: Actor | null, id: number): Promise<Repository> {
    const ctx = await this.access.contextById(actor, id);
    if (!ctx.permission.canSee || (ctx.repo.isPrivate && actor && isPublicOnly(actor.scopes))) throw notFound();
    return this.toApi(actor, ctx);
  }

  async edit(actor: Actor | null, ownerName: string, name: string, body: EditRepoOption): Promise<Repository> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, ownerName, name);
    if (!ctx.permission.isAdmin) {
      throw forbidden('user should be an owner or a collaborator with admin write of a repository');
    }
    const repo = ctx.repo;
    const changes: Partial<RepositoryEntity> = {};
    if (body.name !== undefined && body.name !== repo.name) {
      const problem = repoNameProblem(body.name);
      // Gitea's EditRepo passes the reserved-name errors on as they are, and prefixes the others.
      if (problem) throw unprocessable(repoNameCharsProblem(body.name) ? `ChangeRepositoryName: ${problem}` : problem);
      changes.name = body.name;
      changes.lowerName = body.name.toLowerCase();
    }
    if (body.description !== undefined) changes.description = body.description;
    if (body.website !== undefined) changes.website = body.website;
    if (body.private !== undefined) changes.isPrivate = body.private;
    if (body.template !== undefined) changes.isTemplate = body.template;
    if (body.archived !== undefined && body.archived !== repo.isArchived) {
      changes.isArchived = body.archived;
      changes.archivedAt = body.archived ? new Date() : null;
    }
    // Like Gitea: a default branch that does not exist (in a non-empty repository) is ignored.
    if (
      body.default_branch &&
      body.default_branch !== repo.defaultBranch &&
      (repo.isEmpty || (await this.git.branchExists(repo.id, body.default_branch)))
    ) {
      changes.defaultBranch = body.default_branch;
    }
    const settings = { ...repo.settings };
    let settingsChanged = false;
    for (const key of SETTING_KEYS) {
      const value = (body as Record<string, unknown>)[key];
      if (value !== undefined && value !== settings[key]) {
        (settings as unknown as Record<string, unknown>)[key] = value;
        settingsChanged = true;
      }
    }
    if (body.internal_tracker) {
      for (const [key, value] of Object.entries(body.internal_tracker) as Array<[keyof typeof body.internal_tracker, boolean | undefined]>) {
        if (value !== undefined && value !== trackerSettings(settings)[key]) {
          settings[key] = value;
          settingsChanged = true;
        }
      }
    }
    if (settingsChanged) changes.settings = settings;
    if (Object.keys(changes).length > 0) {
      const oldName = repo.name;
      const sender = changes.name ? await this.directory.publicUser(a.id) : null;
      await this.db.transaction(async (m) => {
        await this.requireStillOwned(m, repo);
        if (changes.lowerName && changes.lowerName !== repo.lowerName) {
          const clash = await this.repos.findByOwnerAndName(repo.ownerId, changes.lowerName, m);
          if (clash) throw unprocessable(`repository already exists [uname: ${ctx.owner.owner.login}, name: ${body.name}]`);
        }
        await this.repos.update(m, repo.id, { ...changes, updatedAt: new Date() });
        // The old name keeps answering, as a redirect (Gitea's ChangeRepositoryName and NewRedirect).
        if (changes.name) await this.transfers.addRedirect(m, repo.id, { ownerId: repo.ownerId, name: oldName }, { ownerId: repo.ownerId, name: changes.name });
        // HEAD follows in an empty repository too, so the first clone after the first push checks it out.
        if (changes.defaultBranch) await this.git.setHead(repo.id, changes.defaultBranch);
        if (sender) {
          const updated = { ...repo, ...changes } as RepositoryEntity;
          await this.outbox.add(
            m,
            EventNames.repoRenamed,
            {
              repository: toRepository(updated, ctx.owner.ownerUser, ctx.permission, this.config),
              oldName,
              sender,
            },
            { actor: a, repoId: repo.id },
          );
        }
      });
      if (changes.defaultBranch) await this.settleLicenses(repo.id);
    }
    const fresh = (await this.repos.findById(repo.id))!;
    return this.toApi(a, { repo: fresh, owner: ctx.owner, permission: await this.access.permissionFor(a, ctx.owner, fresh) });
  }

  async delete(actor: Actor | null, ownerName: string, name: string): Promise<void> {
    const a = requireActor(actor);
    const ctx = await this.access.assign(a, ownerName, name);
    if (!ctx.permission.isOwner) throw forbidden('user should be the owner of the repo');
    await this.remove(a, ctx.owner, ctx.repo, await this.directory.publicUser(a.id));
  }

  /**
   * For org-service's user purge (`DELETE /admin/users/{username}?purge=true`) and the deletion of
   * organizations it leaves ownerless: every repository of the owner goes, each with its
   * `repo.deleted` event, as Gitea's DeleteUser deletes them one at a time. Site admins only.
   */
  async deleteAllOfOwner(actor: Actor | null, ownerId: number): Promise<void> {
    const a = requireSiteAdmin(actor);
    const owner = await this.access.ownerAccess(a, { id: ownerId });
    const sender = await this.directory.publicUser(a.id);
    for (const repo of await this.repos.allOfOwner(ownerId)) await this.remove(a, owner, repo, sender);
  }

  /**
   * Locks the repository's row for the caller's transaction; 404 when a transfer (or a deletion)
   * committed since the request looked it up, so nothing is done to it on its old owner's say.
   */
  private async requireStillOwned(m: EntityManager, repo: RepositoryEntity): Promise<void> {
    const current = await this.repos.lockById(m, repo.id);
    if (!current || current.ownerId !== repo.ownerId) throw notFound();
  }

  /** One repository's row and its `repo.deleted` event (the repository as its owner sees it, as Gitea's notifier shows it), then its git directory. */
  private async remove(actor: Actor, owner: OwnerAccess, repo: RepositoryEntity, sender: User): Promise<void> {
    const snapshot = toRepository(repo, owner.ownerUser, new RepoPermission(AccessMode.owner), this.config);
    let assets: string[] = [];
    let lfsOids: string[] = [];
    const starCounts = await this.db.transaction(async (m) => {
      await this.requireStillOwned(m, repo);
      assets = await releaseAssetUuids(m, repo.id);
      lfsOids = await this.repos.lfsOids(m, repo.id);
      await this.repos.delete(m, repo.id);
      const counts = await this.stars.removeAllOfRepo(m, repo.id);
      // As Gitea: the parent counts one fork less, and the forks of a deleted parent become standalone.
      if (repo.isFork && repo.forkId) await this.repos.addForks(m, repo.forkId, -1);
      await this.repos.detachForks(m, repo.id);
      await this.outbox.add(m, EventNames.repoDeleted, { repository: snapshot, organization: owner.organization, sender }, { actor, repoId: repo.id });
      return counts;
    });
    await this.starCounts.publish(starCounts);
    await this.git.remove(repo.id);
    await dropReleaseFiles(this.blobs, this.config.GITFORGE_DATA_DIR, repo.id, assets);
    await this.dropLfsObjects(lfsOids);
  }

  /** After a repository's rows are gone: the LFS objects no repository references any more (as Gitea). Failures are logged, not thrown. */
  private async dropLfsObjects(oids: string[]): Promise<void> {
    if (oids.length === 0) return;
    for (const oid of await this.repos.unreferencedLfsOids(oids)) {
      await this.blobs.delete(lfsBlobKey(oid)).catch((err: unknown) => log.warn({ err, oid }, 'could not remove an LFS object'));
    }
  }

  /**
   * `GET /user/repos`: owned, collaborated, and reached through organization teams, by name (Gitea's
   * ListMyRepos searches with the default alphabetical order). Public-only tokens see public ones.
   */
  async listForActor(actor: Actor | null, options: ListOptions): Promise<Page<Repository>> {
    const a = requireActor(actor);
    const [reach, collaborations] = await Promise.all([
      this.directory.reachableRepos(a),
      this.access.collaborationsOf(a.id),
    ]);
    return this.listPage(
      a,
      {
        ownerIds: [a.id, ...reach.orgIds],
        alsoIds: [...reach.repoIds, ...collaborations.map((c) => c.repoId)],
        privateVisible: isPublicOnly(a.scopes) ? 'none' : 'all',
        orderBy: 'name',
      },
      options,
    );
  }

  /**
   * `GET /users/{username}/repos` and `GET /orgs/{org}/repos`: what the actor may see of one owner.
   * Public-only tokens stop at non-public owners (403) and see public repositories only.
   */
  async listForOwner(actor: Actor | null, ownerName: string, options: ListOptions, kind: 'user' | 'organization' | 'any'): Promise<Page<Repository>> {
    const owner = await this.access.ownerInPath(actor, ownerName);
    if (kind !== 'any' && owner.owner.kind !== kind) throw notFound();
    rejectPublicOnlyOwner(actor, owner);
    if (!owner.visible) throw notFound();
    let privateVisible: RepoListFilter['privateVisible'] = 'none';
    if (actor && isPublicOnly(actor.scopes)) {
      privateVisible = 'none';
    } else if (actor && (actor.isAdmin || actor.id === owner.owner.id || owner.isOrgOwner || owner.teamAccess.all)) {
      privateVisible = 'all';
    } else if (actor) {
      const collaborations = await this.access.collaborationsOf(actor.id);
      privateVisible = [...Object.keys(owner.teamAccess.repos).map(Number), ...collaborations.map((c) => c.repoId)];
    }
    return this.listPage(actor, { ownerIds: [owner.owner.id], privateVisible, orderBy: 'id' }, options, [owner]);
  }

  private async listPage(
    actor: Actor | null,
    filter: RepoListFilter,
    options: ListOptions,
    known: OwnerAccess[] = [],
  ): Promise<Page<Repository>> {
    const [rows, total] = await this.repos.list(filter, options);
    return pageOf(await this.toApiMany(actor, rows, known), total, options);
  }

  /** Repositories as the actor sees them: one owner lookup for the whole page, never one per row. */
  async toApiMany(actor: Actor | null, rows: RepositoryEntity[], known: OwnerAccess[] = []): Promise<Repository[]> {
    const [owners, collaborations, parents, transfers] = await Promise.all([
      this.ownersOf(actor, rows, known),
      actor ? this.access.collaborationsOf(actor.id) : [],
      this.parentViews(actor, rows),
      this.transferViews(rows),
    ]);
    return rows.map((repo) => {
      const owner = owners.find((o) => o.owner.id === repo.ownerId)!;
      const mode = collaborations.find((c) => c.repoId === repo.id)?.mode ?? AccessMode.none;
      const permission = resolveRepoPermission(actor, owner, repo, mode);
      return toRepository(repo, owner.ownerUser, permission, this.config, parentOf(repo, parents), transfers.get(repo.id) ?? null);
    });
  }

  /**
   * `repos.findMany` (team repositories in org-service): one owner's repositories with the actor's
   * permissions, by name. Visibility is not filtered here: the caller decides who may list them.
   */
  async findMany(actor: Actor | null, request: FindReposRequest, options: ListOptions): Promise<Page<Repository>> {
    const [rows, total] = await this.repos.findForOwner(
      { ownerId: request.ownerId, ids: request.ids, lowerNames: request.names?.map((n) => n.toLowerCase()) },
      options,
    );
    return pageOf(await this.toApiMany(actor, rows), total, options);
  }

  countForOwner(ownerId: number): Promise<number> {
    return this.repos.countForOwner(ownerId);
  }
}
