import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { ContractError, notFound, PackageHttp } from '@gitforge/contracts';
import {
  createLogger,
  decodePathSegment,
  drainRequest,
  HttpStatusOfCode,
  internalSecret,
  requestHeader,
  SIGNED_ACTOR_HEADER,
  toErrorPayload,
  verifyActor,
} from '@gitforge/platform';
import { RepoServiceConfig } from '../repo.config.js';
import { requireRead, requireRegistryWrite } from './package-access.js';
import { PackagesService } from './packages.service.js';
import { GenericRegistry } from './registries/generic.registry.js';
import { NpmRegistry } from './registries/npm.registry.js';
import type { PackageRegistry } from './registries/registry.js';

const log = createLogger('package-http');

/** `/-/packages/{owner}/{type}/{rest}` as the gateway forwards `/api/packages/{owner}/{type}/{rest}`. */
const ROUTE = /^\/-\/packages\/([^/]+)\/([^/]+)\/(.*)$/;

/** Gitea's challenge on the package registries: clients retry with their credentials. */
const CHALLENGE = 'Basic realm="Gitea Package API"';

/**
 * The package registries on repo-service's own HTTP listener (beside smart HTTP and release
 * assets): the gateway authenticates and streams each request here, the caller signed into a
 * header. One registry module per package type; each answers errors in its own form.
 */
@Injectable()
export class PackageHttpHandler {
  private readonly secret: string;
  private readonly registries: Map<string, PackageRegistry>;

  constructor(
    config: RepoServiceConfig,
    private readonly packages: PackagesService,
    generic: GenericRegistry,
    npm: NpmRegistry,
  ) {
    this.secret = internalSecret(config);
    this.registries = new Map<string, PackageRegistry>([generic, npm].map((r) => [r.type, r]));
  }

  matches(req: IncomingMessage): boolean {
    return (req.url ?? '/').startsWith(`${PackageHttp.prefix}/`);
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The raw path, as the gateway signed it: URL parsing would resolve `..` segments before the registry could refuse them.
    const path = (req.url ?? '/').split('?')[0]!;
    const query = new URLSearchParams((req.url ?? '').includes('?') ? req.url!.slice(req.url!.indexOf('?') + 1) : '');
    const match = ROUTE.exec(path);
    const registry = match ? this.registries.get(decodePathSegment(match[2]!) ?? '') : undefined;
    try {
      const verified = verifyActor(this.secret, requestHeader(req, SIGNED_ACTOR_HEADER), `${req.method} ${path}`);
      if (!verified.ok) throw new ContractError('permission_denied', 'invalid internal signature');
      if (!match || !registry) throw notFound();
      const ownerName = decodePathSegment(match[1]!);
      if (!ownerName) throw notFound();
      const owner = await this.packages.owner(verified.actor, ownerName);
      requireRead(owner, 'registry');
      // Every registry route that is not a read writes (publish, upload, delete, dist-tags, unpublish).
      if (req.method !== 'GET' && req.method !== 'HEAD') requireRegistryWrite(verified.actor, owner);
      await registry.handle({
        req,
        res,
        actor: verified.actor,
        owner,
        ownerLogin: owner.owner.owner.login,
        method: req.method ?? 'GET',
        rawPath: match[3]!,
        query,
      });
    } catch (err) {
      this.fail(req, res, err, registry);
    }
  }

  /** The registry's error form (plain text for generic, `{"error"}` for npm) with the status the error's code implies. */
  private fail(req: IncomingMessage, res: ServerResponse, err: unknown, registry: PackageRegistry | undefined): void {
    const payload = toErrorPayload(err);
    if (payload.code === 'internal') log.error({ err, url: req.url }, 'package request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.once('finish', () => drainRequest(req));
    const status = payload.code === 'moved' ? 404 : HttpStatusOfCode[payload.code];
    const message = payload.code === 'moved' ? 'not found' : payload.message;
    const body = (registry ?? this.registries.get('generic')!).errorBody(message);
    res.writeHead(status, {
      'Content-Type': body.contentType,
      ...(status === 401 ? { 'WWW-Authenticate': CHALLENGE } : {}),
    });
    res.end(body.body);
  }
}
