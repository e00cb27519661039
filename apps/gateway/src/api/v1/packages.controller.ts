import { All, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PackageHttp, PackagePatterns, type Actor, type Package, type PackageFile, type Page } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';
import { Access, CurrentActor } from '../../auth/access-policy.js';
import { AttachmentProxy } from '../../http/attachment-proxy.js';
import { Paginated } from '../../http/paginated.js';

type PackageParams = { owner: string; type: string; name: string };
type VersionParams = PackageParams & { version: string };

/**
 * The package API (`/api/v1/packages/{owner}…`, token scope `package`): Gitea requires a token
 * on every route, public packages included; the package store answers from repo-service.
 */
@Controller('api/v1/packages/:owner')
@Access({ signIn: true, scope: 'package' })
export class PackagesController {
  constructor(private readonly rpc: RpcClient) {}

  /** `type` and `q` (name contains) filter; newest first. */
  @Get()
  @Paginated()
  list(@CurrentActor() actor: Actor | null, @Param() params: { owner: string }, @Query() query: Record<string, string>): Promise<Page<Package>> {
    return this.rpc.call(PackagePatterns.list, { actor, params, query });
  }

  /** Every version of one package, newest first. */
  @Get(':type/:name')
  @Paginated()
  versions(@CurrentActor() actor: Actor | null, @Param() params: PackageParams, @Query() query: Record<string, string>): Promise<Page<Package>> {
    return this.rpc.call(PackagePatterns.listVersions, { actor, params, query });
  }

  @Delete(':type/:name')
  @HttpCode(204)
  async deletePackage(@CurrentActor() actor: Actor | null, @Param() params: PackageParams): Promise<void> {
    await this.rpc.call(PackagePatterns.deletePackage, { actor, params });
  }

  @Get(':type/:name/-/latest')
  latest(@CurrentActor() actor: Actor | null, @Param() params: PackageParams): Promise<Package> {
    return this.rpc.call(PackagePatterns.latest, { actor, params });
  }

  @Post(':type/:name/-/link/:repo_name')
  @HttpCode(201)
  async link(@CurrentActor() actor: Actor | null, @Param() params: PackageParams & { repo_name: string }): Promise<void> {
    await this.rpc.call(PackagePatterns.link, { actor, params });
  }

  @Post(':type/:name/-/unlink')
  @HttpCode(204)
  async unlink(@CurrentActor() actor: Actor | null, @Param() params: PackageParams): Promise<void> {
    await this.rpc.call(PackagePatterns.unlink, { actor, params });
  }

  @Get(':type/:name/:version')
  get(@CurrentActor() actor: Actor | null, @Param() params: VersionParams): Promise<Package> {
    return this.rpc.call(PackagePatterns.get, { actor, params });
  }

  @Delete(':type/:name/:version')
  @HttpCode(204)
  async delete(@CurrentActor() actor: Actor | null, @Param() params: VersionParams): Promise<void> {
    await this.rpc.call(PackagePatterns.delete, { actor, params });
  }

  @Get(':type/:name/:version/files')
  files(@CurrentActor() actor: Actor | null, @Param() params: VersionParams): Promise<PackageFile[]> {
    return this.rpc.call(PackagePatterns.listFiles, { actor, params });
  }
}

/** The path after `/api/packages/`, still percent-encoded as the client sent it (npm's `@scope%2Fname` stays one segment). */
function registryPath(request: FastifyRequest): string {
  const path = request.url.split('?')[0]!;
  return path.replace(/^\/+api\/+packages\/+/, '');
}

/**
 * The package registries (`/api/packages/{owner}/{type}/…`, token scope `package`): package
 * managers (npm, curl for generic) talk to them with their own protocols. The gateway
 * authenticates (npm sends its `.npmrc` token as `Authorization: Bearer`) and streams the request
 * to repo-service's listener, which answers in each registry's own form.
 */
@Controller('api/packages')
@Access({ scope: 'package' })
export class PackageRegistryController {
  constructor(private readonly proxy: AttachmentProxy) {}

  @All('*')
  forward(@CurrentActor() actor: Actor | null, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    // Verbatim: a `..` in a package or file name must reach the registry, which refuses it in its own error form.
    this.proxy.forward(request, reply, actor, `${PackageHttp.prefix}/${registryPath(request)}`, 'repo', { verbatimPath: true });
  }
}
