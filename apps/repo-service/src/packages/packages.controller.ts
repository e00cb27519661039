import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { normalizeListOptions, PackagePatterns, type Package, type PackageFile, type Page, type RetentionRequest, type RetentionResult, type RpcRequest } from '@gitforge/contracts';
import { PackagesService } from './packages.service.js';

type PackageParams = { owner: string; type: string; name: string };
type VersionParams = PackageParams & { version: string };

/** Least age of a blob no file points at before cleanup_packages drops it: a younger one may belong to an upload in flight. */
const MIN_ORPHAN_AGE_MS = 10 * 60 * 1000;

@Controller()
export class PackagesController {
  constructor(private readonly packages: PackagesService) {}

  @MessagePattern(PackagePatterns.list)
  list(@Payload() req: RpcRequest<{ owner: string }>): Promise<Page<Package>> {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const text = (key: string): string | undefined => (typeof query[key] === 'string' && (query[key] as string).trim() !== '' ? (query[key] as string).trim() : undefined);
    return this.packages.list(req.actor, req.params.owner, { type: text('type'), q: text('q') }, normalizeListOptions(query));
  }

  @MessagePattern(PackagePatterns.listVersions)
  listVersions(@Payload() req: RpcRequest<PackageParams>): Promise<Page<Package>> {
    const p = req.params;
    return this.packages.listVersions(req.actor, p.owner, p.type, p.name, normalizeListOptions((req.query ?? {}) as Record<string, unknown>));
  }

  @MessagePattern(PackagePatterns.deletePackage)
  async deletePackage(@Payload() req: RpcRequest<PackageParams>): Promise<null> {
    const p = req.params;
    await this.packages.deleteAll(req.actor, p.owner, p.type, p.name);
    return null;
  }

  @MessagePattern(PackagePatterns.get)
  get(@Payload() req: RpcRequest<VersionParams>): Promise<Package> {
    const p = req.params;
    return this.packages.get(req.actor, p.owner, p.type, p.name, p.version);
  }

  @MessagePattern(PackagePatterns.latest)
  latest(@Payload() req: RpcRequest<PackageParams>): Promise<Package> {
    const p = req.params;
    return this.packages.latest(req.actor, p.owner, p.type, p.name);
  }

  @MessagePattern(PackagePatterns.listFiles)
  listFiles(@Payload() req: RpcRequest<VersionParams>): Promise<PackageFile[]> {
    const p = req.params;
    return this.packages.listFiles(req.actor, p.owner, p.type, p.name, p.version);
  }

  @MessagePattern(PackagePatterns.delete)
  async delete(@Payload() req: RpcRequest<VersionParams>): Promise<null> {
    const p = req.params;
    await this.packages.delete(req.actor, p.owner, p.type, p.name, p.version);
    return null;
  }

  @MessagePattern(PackagePatterns.link)
  async link(@Payload() req: RpcRequest<PackageParams & { repo_name: string }>): Promise<null> {
    const p = req.params;
    await this.packages.link(req.actor, p.owner, p.type, p.name, p.repo_name);
    return null;
  }

  @MessagePattern(PackagePatterns.unlink)
  async unlink(@Payload() req: RpcRequest<PackageParams>): Promise<null> {
    const p = req.params;
    await this.packages.unlink(req.actor, p.owner, p.type, p.name);
    return null;
  }

  /** The cron task's handler (admin-service's scheduler calls it with `actor: null`). */
  @MessagePattern(PackagePatterns.cleanup)
  cleanup(@Payload() req: { body?: Partial<RetentionRequest> }): Promise<RetentionResult> {
    const age = req.body?.olderThanMs;
    return this.packages.cleanup(typeof age === 'number' && Number.isFinite(age) ? Math.max(age, MIN_ORPHAN_AGE_MS) : MIN_ORPHAN_AGE_MS);
  }
}
