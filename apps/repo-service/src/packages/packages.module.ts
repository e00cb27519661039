import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepoRecordsModule } from '../records/repo-records.module.js';
import { PackageAccess } from './package-access.js';
import { PackageBlobs } from './package-blobs.js';
import { PackageHttpHandler } from './package-http.handler.js';
import { PackagesController } from './packages.controller.js';
import { PackagesRepository } from './packages.repository.js';
import { PackagesService } from './packages.service.js';
import { GenericRegistry } from './registries/generic.registry.js';
import { NpmRegistry } from './registries/npm.registry.js';

/**
 * The package registry: packages of users and organizations, their files in the BlobStore, the
 * package API on the transport, and one registry module per package type on the HTTP listener.
 */
@Module({
  imports: [RepoRecordsModule, AccessModule],
  controllers: [PackagesController],
  providers: [PackagesRepository, PackageBlobs, PackageAccess, PackagesService, GenericRegistry, NpmRegistry, PackageHttpHandler],
  exports: [PackageHttpHandler],
})
export class PackagesModule {}
