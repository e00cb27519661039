import type { Server } from 'node:http';
import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { GitHttp } from '@gitforge/contracts';
import { closeInternalHttp, createInternalServer, createLogger, listenInternalHttp } from '@gitforge/platform';
import { PackageHttpHandler } from '../packages/package-http.handler.js';
import { LfsHttpHandler } from '../lfs/lfs-http.handler.js';
import { ReleaseHttpHandler } from '../releases/release-http.handler.js';
import { RepoServiceConfig } from '../repo.config.js';
import { SmartHttpHandler } from './smart-http.handler.js';

const log = createLogger('smart-http');


/**
 * repo-service's own HTTP listener for smart HTTP, release assets, archives and the package registries: clones, pushes
 * and files are byte streams and do not cross the message transport. The gateway is its only client.
 */
@Injectable()
export class GitHttpServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;

  constructor(
    private readonly config: RepoServiceConfig,
    private readonly handler: SmartHttpHandler,
    private readonly releases: ReleaseHttpHandler,
    private readonly packages: PackageHttpHandler,
    private readonly lfs: LfsHttpHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // `/repos/…` are release assets and archives, `/-/packages/…` the package registries, `/{owner}/{repo}/info/lfs/…` Git LFS; everything else is smart HTTP (`/{owner}/{repo}/…`).
    const server = createInternalServer((req, res) => {
      if (this.packages.matches(req)) void this.packages.handle(req, res);
      else if (this.releases.matches(req)) void this.releases.handle(req, res);
      else if (this.lfs.matches(req)) void this.lfs.handle(req, res);
      else void this.handler.handle(req, res);
    });
    // Clones of large repositories take long; idleness is watched per request instead.
    server.requestTimeout = 0;
    server.headersTimeout = 60_000;
    this.server = server;
    const url = await listenInternalHttp(GitHttp.listener, server, this.config, {
      host: this.config.GITFORGE_GIT_HTTP_HOST,
      port: this.config.GITFORGE_GIT_HTTP_PORT,
    });
    log.info({ url }, 'smart HTTP listener ready');
  }

  onApplicationShutdown(): Promise<void> {
    return closeInternalHttp(this.server);
  }
}
