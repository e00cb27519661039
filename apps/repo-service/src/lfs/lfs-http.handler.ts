import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { Injectable } from '@nestjs/common';
import {
  formatTime,
  GitHttp,
  isLfsOid,
  isLfsPointer,
  LfsMediaType,
  parseLfsBatchRequest,
  parseLfsLockCreate,
  type Actor,
  type LfsBatchResponse,
  type LfsLock,
  type LfsObjectResponse,
} from '@gitforge/contracts';
import {
  actorOf,
  BlobMismatchError,
  BlobStore,
  BlobTooLargeError,
  createLogger,
  decodePathSegment,
  DirectoryClient,
  drainRequest,
  internalSecret,
  requestHeader,
  sendBlob,
  SIGNED_ACTOR_HEADER,
  verifyActor,
} from '@gitforge/platform';
import type { RepoContext } from '../access/repo-access.service.js';
import { DeployKeysRepository } from '../keys/deploy-keys.repository.js';
import { RepoServiceConfig } from '../repo.config.js';
import { GitAccess } from '../smart-http/git-access.js';
import { lfsBlobKey, type LfsLockEntity } from './lfs.entities.js';
import { LfsRepository } from './lfs.repository.js';
import { LFS_TOKEN_TTL_MS, signLfsToken, verifyLfsToken } from './lfs-token.js';

const log = createLogger('lfs');

const ROUTE = /^\/([^/]+)\/([^/]+)\/info\/lfs\/(.+)$/;
/** JSON bodies of the LFS API are small; anything longer is refused. */
const MAX_JSON_BYTES = 1024 * 1024;
const LOCKS_PAGE = 100;

/** An answer that ends the request: status, Gitea's `{"message"}` body and extra headers. */
class LfsAnswer extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
};
const answer = (
  status: number,
  message = STATUS_TEXT[status] ?? 'Error',
  headers: Record<string, string> = {},
): LfsAnswer => new LfsAnswer(status, message, headers);
/** Gitea's requireAuth: git-lfs then asks its credential helper. */
const unauthorized = (): LfsAnswer =>
  answer(401, 'Unauthorized', {
    'LFS-Authenticate': 'Basic realm="gitea-lfs"',
    'WWW-Authenticate': 'Basic realm="gitea-lfs"',
  });

/** Who calls, on which repository, with what right. */
interface LfsCaller {
  ctx: RepoContext;
  /** The user (the repository's owner for a deploy key's token), null when anonymous. */
  actor: Actor | null;
  /** A deploy key's token: no user of its own. */
  deployKey: boolean;
  /** The Authorization header to hand back in the batch's actions (git-lfs sends it with each transfer). */
  authorization?: string;
  canWrite: boolean;
  isAdmin: boolean;
}

/**
 * Git LFS on repo-service's listener (the gateway authenticates and streams here as for smart
 * HTTP): the batch API with basic transfers, object upload (sha256 and size checked before the
 * object becomes visible), download and verify, and the locking API, as Gitea's services/lfs
 * serves them. Bytes are in the BlobStore once per oid; a repository serves an object only if it
 * references it (lfs_meta_object).
 */
@Injectable()
export class LfsHttpHandler {
  private readonly secret: string;

  constructor(
    private readonly config: RepoServiceConfig,
    private readonly gitAccess: GitAccess,
    private readonly lfs: LfsRepository,
    private readonly blobs: BlobStore,
    private readonly directory: DirectoryClient,
    private readonly deployKeys: DeployKeysRepository,
  ) {
    this.secret = internalSecret(config);
  }

  matches(req: IncomingMessage): boolean {
    return ROUTE.test((req.url ?? '/').split('?')[0]!);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res);
    } catch (err) {
      if (!(err instanceof LfsAnswer)) log.error({ err, url: req.url }, 'LFS request failed');
      const a = err instanceof LfsAnswer ? err : answer(500, 'Internal Server Error');
      if (res.headersSent) return void res.destroy();
      // A refusal before the body was read (credentials, size) is answered at once and the rest of
      // the body read and dropped (the gateway asks for a kept-alive connection): closing it on
      // unread data would reset it, and the client would see a broken pipe instead of the answer.
      res.once('finish', () => drainRequest(req));
      res
        .writeHead(a.status, { 'Content-Type': LfsMediaType, ...a.headers })
        .end(`${JSON.stringify({ message: a.message })}\n`);
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://repo-service');
    const m = ROUTE.exec(url.pathname)!;
    const verified = verifyActor(
      this.secret,
      requestHeader(req, SIGNED_ACTOR_HEADER),
      `${req.method} ${url.pathname}`,
    );
    if (!verified.ok) throw answer(403, 'Forbidden');
    const owner = decodePathSegment(m[1]!);
    const repo = decodePathSegment(m[2]!)?.replace(/\.git$/, '');
    if (!owner || !repo) throw answer(404);
    const rest = m[3]!;
    const method = req.method ?? 'GET';
    const who = { actor: verified.actor, owner, repo, authorization: requestHeader(req, 'authorization') };

    if (method === 'POST' && rest === 'objects/batch') return this.batch(req, res, who);
    const object = /^objects\/([^/]+)(?:\/([^/]+))?$/.exec(rest);
    if (object && method === 'PUT') return this.upload(req, res, who, object[1]!, object[2]);
    if (object && (method === 'GET' || method === 'HEAD')) return this.download(req, res, who, object[1]!);
    if (method === 'POST' && rest === 'verify') return this.verify(req, res, who);
    if (rest === 'locks' && method === 'GET') return this.listLocks(req, res, who, url.searchParams);
    if (rest === 'locks' && method === 'POST') return this.createLock(req, res, who);
    if (rest === 'locks/verify' && method === 'POST') return this.verifyLocks(req, res, who);
    const unlock = /^locks\/([^/]+)\/unlock$/.exec(rest);
    if (unlock && method === 'POST') return this.unlock(req, res, who, unlock[1]!);
    throw answer(404);
  }

  // ---- batch and basic transfers -------------------------------------------------------------

  private async batch(req: IncomingMessage, res: ServerResponse, who: Who): Promise<void> {
    acceptsLfs(req);
    const body = parseLfsBatchRequest(await readJson(req, 400));
    if (typeof body === 'string') throw answer(400, body);
    if (body.transfers && body.transfers.length > 0 && !body.transfers.includes('basic'))
      throw answer(422, 'only the basic transfer adapter is supported');
    const upload = body.operation === 'upload';
    const caller = await this.caller(who, upload);
    const base = `${this.config.rootUrl}${encodeURIComponent(caller.ctx.owner.owner.login)}/${encodeURIComponent(caller.ctx.repo.name)}.git/info/lfs`;
    const header = this.transferHeader(caller, body.operation);
    const max = this.config.GITFORGE_LFS_MAX_FILE_SIZE;
    const objects: LfsObjectResponse[] = [];
    for (const p of body.objects) {
      if (!isLfsPointer(p)) {
        objects.push({
          oid: String((p as { oid?: unknown }).oid ?? ''),
          size: Number((p as { size?: unknown }).size ?? 0),
          error: { code: 422, message: 'Oid or size are invalid' },
        });
        continue;
      }
      const [meta, stored] = await Promise.all([
        this.lfs.findMeta(caller.ctx.repo.id, p.oid),
        this.blobs.exists(lfsBlobKey(p.oid)),
      ]);
      if (meta && meta.size !== p.size) {
        objects.push({
          ...pointer(p),
          error: { code: 422, message: `Object ${p.oid} is not ${p.size} bytes` },
        });
      } else if (!upload) {
        objects.push(
          meta && stored
            ? {
                ...pointer(p),
                authenticated: true,
                actions: { download: { href: `${base}/objects/${p.oid}`, ...(header ? { header } : {}) } },
              }
            : { ...pointer(p), error: { code: 404, message: 'Not Found' } },
        );
      } else if (meta && stored) {
        // Already here: no action, git-lfs skips it.
        objects.push({ ...pointer(p), authenticated: true });
      } else if (max > 0 && p.size > max) {
        objects.push({
          ...pointer(p),
          error: { code: 422, message: `Size must be less than or equal to ${max}` },
        });
      } else {
        // An object stored for another repository is uploaded again all the same: its bytes prove
        // that the caller has it, and they are checked against the oid before anything is linked.
        objects.push({
          ...pointer(p),
          authenticated: true,
          actions: {
            upload: { href: `${base}/objects/${p.oid}/${p.size}`, ...(header ? { header } : {}) },
            verify: { href: `${base}/verify`, header: { ...(header ?? {}), Accept: LfsMediaType } },
          },
        });
      }
    }
    const out: LfsBatchResponse = { transfer: 'basic', objects, hash_algo: 'sha256' };
    json(res, 200, out);
  }

  /** `PUT objects/{oid}/{size}`: the object's bytes, stored only when they hash to the oid and have the size. */
  private async upload(
    req: IncomingMessage,
    res: ServerResponse,
    who: Who,
    oid: string,
    rawSize: string | undefined,
  ): Promise<void> {
    const declared = requestHeader(req, 'content-length');
    const size = rawSize !== undefined ? Number(rawSize) : declared !== undefined ? Number(declared) : NaN;
    if (!isLfsPointer({ oid, size })) throw answer(422, 'Oid or size are invalid');
    const caller = await this.caller(who, true);
    const max = this.config.GITFORGE_LFS_MAX_FILE_SIZE;
    if (max > 0 && size > max) throw answer(413, `Size must be less than or equal to ${max}`);
    if (declared !== undefined && Number(declared) !== size)
      throw answer(422, 'the object is not the expected size');
    try {
      await this.blobs.put(lfsBlobKey(oid), req, { maxBytes: size, expect: { size, sha256: oid } });
    } catch (err) {
      if (err instanceof BlobMismatchError) throw answer(422, err.message);
      if (err instanceof BlobTooLargeError) throw answer(422, 'the object is not the expected size');
      if (req.destroyed || !req.complete) throw answer(400, 'the upload was cut off');
      throw err;
    }
    await this.lfs.addMeta(caller.ctx.repo.id, oid, size);
    log.info({ repoId: caller.ctx.repo.id, oid, size }, 'LFS object stored');
    json(res, 200, { message: 'OK' });
  }

  private async download(req: IncomingMessage, res: ServerResponse, who: Who, oid: string): Promise<void> {
    if (!isLfsOid(oid)) throw answer(404);
    const caller = await this.caller(who, false);
    const meta = await this.lfs.findMeta(caller.ctx.repo.id, oid);
    if (!meta || !(await this.blobs.exists(lfsBlobKey(oid)))) throw answer(404);
    // A range resumes a broken download (Gitea's DownloadHandler serves one).
    await sendBlob(req, res, {
      size: meta.size,
      headers: { 'Content-Type': 'application/octet-stream' },
      open: async (range) => {
        const stream = await this.blobs.open(lfsBlobKey(oid), range);
        if (!stream) throw answer(404);
        return stream;
      },
    }).catch((err: unknown) => {
      if (!res.headersSent) throw err;
      res.destroy();
    });
  }

  /** `POST verify`: 200 once the object is stored and referenced by this repository, else 404 (Gitea's VerifyHandler). */
  private async verify(req: IncomingMessage, res: ServerResponse, who: Who): Promise<void> {
    acceptsLfs(req);
    const p = await readJson(req, 422);
    if (!isLfsPointer(p)) throw answer(422, 'Oid or size are invalid');
    const caller = await this.caller(who, true);
    const meta = await this.lfs.findMeta(caller.ctx.repo.id, p.oid);
    if (!meta || meta.size !== p.size || !(await this.blobs.exists(lfsBlobKey(p.oid)))) throw answer(404);
    json(res, 200, { message: 'OK' });
  }

  /**
   * What git-lfs sends with each transfer: the LFS token it came with, or for a signed-in user a
   * fresh one for this repository and operation (Gitea hands the client's own Authorization header
   * back; a short-lived token keeps passwords out of the answer). Nothing for anonymous readers.
   */
  private transferHeader(caller: LfsCaller, op: 'upload' | 'download'): Record<string, string> | undefined {
    if (caller.authorization) return { Authorization: caller.authorization };
    if (!caller.actor || caller.deployKey) return undefined;
    const token = signLfsToken(this.secret, {
      repoId: caller.ctx.repo.id,
      op,
      userId: caller.actor.id,
      exp: Date.now() + LFS_TOKEN_TTL_MS,
    });
    return { Authorization: `Bearer ${token}` };
  }

  // ---- locks -------------------------------------------------------------------------------

  private async listLocks(
    req: IncomingMessage,
    res: ServerResponse,
    who: Who,
    query: URLSearchParams,
  ): Promise<void> {
    acceptsLfs(req);
    const caller = await this.caller(who, false, true);
    const id = query.get('id');
    const path = query.get('path');
    const cursor = Number(query.get('cursor') ?? 0);
    const limit = Math.min(Math.max(Number(query.get('limit') ?? LOCKS_PAGE) || LOCKS_PAGE, 1), LOCKS_PAGE);
    if (id !== null && !/^\d+$/.test(id)) throw answer(400, 'invalid lock id');
    if (!Number.isSafeInteger(cursor) || cursor < 0) throw answer(400, 'invalid cursor');
    const rows = await this.lfs.listLocks(
      caller.ctx.repo.id,
      { ...(id !== null ? { id: Number(id) } : {}), ...(path !== null ? { path: cleanLockPath(path) } : {}) },
      cursor,
      limit + 1,
    );
    const page = rows.slice(0, limit);
    json(res, 200, {
      locks: await this.views(page),
      ...(rows.length > limit ? { next_cursor: String(page.at(-1)!.id) } : {}),
    });
  }

  private async createLock(req: IncomingMessage, res: ServerResponse, who: Who): Promise<void> {
    acceptsLfs(req);
    const body = parseLfsLockCreate(await readJson(req, 400));
    if (typeof body === 'string') throw answer(400, body);
    const caller = await this.caller(who, true, true);
    const path = cleanLockPath(body.path);
    const created = await this.lfs.createLock(caller.ctx.repo.id, caller.actor!.id, path);
    if (!created) {
      const existing = await this.lfs.findLockByPath(caller.ctx.repo.id, path);
      json(res, 409, {
        ...(existing ? { lock: (await this.views([existing]))[0] } : {}),
        message: 'already created lock',
      });
      return;
    }
    json(res, 201, { lock: (await this.views([created]))[0] });
  }

  private async verifyLocks(req: IncomingMessage, res: ServerResponse, who: Who): Promise<void> {
    acceptsLfs(req);
    const body = (await readJson(req, 400)) as { cursor?: unknown; limit?: unknown } | null;
    const caller = await this.caller(who, true, true);
    const cursor = Number(body?.cursor ?? 0);
    if (!Number.isSafeInteger(cursor) || cursor < 0) throw answer(400, 'invalid cursor');
    const limit = Math.min(Math.max(Number(body?.limit ?? LOCKS_PAGE) || LOCKS_PAGE, 1), LOCKS_PAGE);
    const rows = await this.lfs.listLocks(caller.ctx.repo.id, {}, cursor, limit + 1);
    const page = rows.slice(0, limit);
    const views = await this.views(page);
    json(res, 200, {
      ours: views.filter((_, i) => page[i]!.ownerId === caller.actor!.id),
      theirs: views.filter((_, i) => page[i]!.ownerId !== caller.actor!.id),
      ...(rows.length > limit ? { next_cursor: String(page.at(-1)!.id) } : {}),
    });
  }

  /** Gitea's UnLockHandler: the owner unlocks; anyone else only with `force`, which needs admin rights on the repository. */
  private async unlock(req: IncomingMessage, res: ServerResponse, who: Who, rawId: string): Promise<void> {
    acceptsLfs(req);
    const body = (await readJson(req, 400)) as { force?: unknown } | null;
    const caller = await this.caller(who, true, true);
    const lock = /^\d+$/.test(rawId) ? await this.lfs.findLock(caller.ctx.repo.id, Number(rawId)) : null;
    if (!lock) throw answer(404, 'lock not found');
    const force = body?.force === true;
    if (lock.ownerId !== caller.actor!.id || caller.deployKey) {
      if (!force) throw answer(403, "user doesn't own lock and force flag is not set");
      if (!caller.isAdmin)
        throw answer(403, "You must be a repository administrator to force-unlock another user's lock");
    }
    const [view] = await this.views([lock]);
    await this.lfs.deleteLock(lock.id);
    json(res, 200, { lock: view });
  }

  private async views(locks: LfsLockEntity[]): Promise<LfsLock[]> {
    const owners = new Map(
      (await this.directory.accountsByIds(null, [...new Set(locks.map((l) => l.ownerId))])).map((a) => [
        a.id,
        a.login,
      ]),
    );
    return locks.map((l) => ({
      id: String(l.id),
      path: l.path,
      locked_at: formatTime(l.createdAt),
      owner: { name: owners.get(l.ownerId) ?? '' },
    }));
  }

  // ---- who may do what ---------------------------------------------------------------------

  /**
   * The caller's repository and rights: an LFS token from `git-lfs-authenticate` (SSH), else the
   * user the gateway signed in (Basic, token) or anonymous; GitAccess decides as for git itself.
   * `signed`: the locking API needs a user (Gitea's requireSigned).
   */
  private async caller(who: Who, write: boolean, signed = false): Promise<LfsCaller> {
    const token = lfsToken(who.authorization);
    if (token !== undefined) return this.tokenCaller(who, token, write, signed);
    const actor = who.actor;
    if (signed && !actor) throw unauthorized();
    const verdict = await this.gitAccess.check(
      actor,
      who.owner,
      who.repo,
      write ? 'receive-pack' : 'upload-pack',
    );
    if (!verdict.ok) {
      if (verdict.status === 401) throw unauthorized();
      throw verdict.status === 307
        ? answer(404, 'Repository not found')
        : answer(verdict.status, verdict.message);
    }
    const canWrite = verdict.ctx.permission.canWrite('repo.code');
    if (write && !canWrite)
      throw actor ? answer(403, 'You must have write access to this repository') : unauthorized();
    return {
      ctx: verdict.ctx,
      actor,
      deployKey: false,
      // An Actions task's token (the gateway forwards it): an LFS token would carry the Actions user
      // without the task's grant, and outlive the task; the client's own header goes back, as Gitea's.
      ...(actor?.actionsTask && who.authorization ? { authorization: who.authorization } : {}),
      canWrite,
      isAdmin: verdict.ctx.permission.isAdmin || !!actor?.isAdmin,
    };
  }

  private async tokenCaller(who: Who, token: string, write: boolean, signed: boolean): Promise<LfsCaller> {
    const claims = verifyLfsToken(this.secret, token);
    if (!claims || (write && claims.op !== 'upload')) throw unauthorized();
    const authorization = who.authorization;
    if (claims.deployKeyId !== undefined) {
      if (signed && write) {
        // Locks need a user: a deploy key has none (Gitea's deploy keys cannot lock either).
        throw answer(403, 'a deploy key cannot lock files');
      }
      const key = await this.deployKeys.findInRepo(claims.repoId, claims.deployKeyId);
      if (!key) throw unauthorized();
      const uses = [{ deployKeyId: key.id, repoId: key.repoId, readOnly: key.readOnly }];
      const verdict = await this.gitAccess.checkDeployKey(
        uses,
        who.owner,
        who.repo,
        write ? 'receive-pack' : 'upload-pack',
      );
      if (!verdict.ok) throw verdict.status === 404 ? answer(404, verdict.message) : unauthorized();
      return {
        ctx: verdict.ctx,
        actor: verdict.actor,
        deployKey: true,
        authorization,
        canWrite: !key.readOnly,
        isAdmin: false,
      };
    }
    const [account] =
      claims.userId !== undefined ? await this.directory.accountsByIds(null, [claims.userId]) : [];
    if (!account || !account.isActive) throw unauthorized();
    const actor = actorOf(account);
    const verdict = await this.gitAccess.check(
      actor,
      who.owner,
      who.repo,
      write ? 'receive-pack' : 'upload-pack',
    );
    if (!verdict.ok || verdict.ctx.repo.id !== claims.repoId) throw unauthorized();
    const canWrite = verdict.ctx.permission.canWrite('repo.code');
    if (write && !canWrite) throw answer(403, 'You must have write access to this repository');
    return {
      ctx: verdict.ctx,
      actor,
      deployKey: false,
      authorization,
      canWrite,
      isAdmin: verdict.ctx.permission.isAdmin || actor.isAdmin,
    };
  }
}

interface Who {
  actor: Actor | null;
  owner: string;
  repo: string;
  authorization?: string;
}

/** The LFS token in an Authorization header (`Bearer gflfs.…`), if that is what it holds. */
function lfsToken(authorization: string | undefined): string | undefined {
  const m = /^(?:bearer|token)\s+(\S+)$/i.exec(authorization ?? '');
  return m && m[1]!.startsWith(GitHttp.lfsTokenPrefix) ? m[1] : undefined;
}

/** Gitea's CheckAcceptMediaType. */
function acceptsLfs(req: IncomingMessage): void {
  if ((requestHeader(req, 'accept') ?? '').split(';')[0]!.trim() !== LfsMediaType) throw answer(415);
}

async function readJson(req: IncomingMessage, badStatus: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) throw answer(413);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw answer(badStatus, 'invalid JSON body');
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': LfsMediaType }).end(`${JSON.stringify(body)}\n`);
}

const pointer = (p: { oid: string; size: number }): { oid: string; size: number } => ({
  oid: p.oid,
  size: p.size,
});

/** A lock's path as Gitea keeps it: cleaned, relative, never above the repository root. */
export function cleanLockPath(raw: string): string {
  const cleaned = posix.normalize(`/${raw.replace(/\\/g, '/')}`).slice(1);
  if (cleaned === '' || cleaned.includes('\0')) throw answer(400, 'invalid path');
  return cleaned;
}
