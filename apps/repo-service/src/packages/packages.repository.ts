import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { containsPattern, Database } from '@gitforge/platform';
import { PackageBlobEntity, PackageEntity, PackageFileEntity, PackageTagEntity, PackageVersionEntity } from './package.entities.js';

/** A version with its package. */
export interface VersionRow {
  pkg: PackageEntity;
  version: PackageVersionEntity;
}

/** A file with its blob. */
export interface FileRow {
  file: PackageFileEntity;
  blob: PackageBlobEntity;
}

/** The package tables' queries. */
@Injectable()
export class PackagesRepository {
  constructor(private readonly db: Database) {}

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.db.manager;
  }

  findPackage(ownerId: number, type: string, name: string, m?: EntityManager): Promise<PackageEntity | null> {
    return this.db.findOneBy(PackageEntity, { ownerId, type, lowerName: name.toLowerCase() }, m);
  }

  findVersion(packageId: number, version: string, m?: EntityManager): Promise<PackageVersionEntity | null> {
    return this.db.findOneBy(PackageVersionEntity, { packageId, lowerVersion: version.toLowerCase() }, m);
  }

  versionsOf(packageId: number, m?: EntityManager): Promise<PackageVersionEntity[]> {
    return this.m(m).find(PackageVersionEntity, { where: { packageId }, order: { id: 'ASC' } });
  }

  /** The newest version (Gitea's SearchLatestVersions: the highest id). */
  latestVersion(packageId: number, m?: EntityManager): Promise<PackageVersionEntity | null> {
    return this.m(m).findOne(PackageVersionEntity, { where: { packageId }, order: { id: 'DESC' } });
  }

  filesOf(versionIds: number[], m?: EntityManager): Promise<FileRow[]> {
    if (versionIds.length === 0) return Promise.resolve([]);
    return this.m(m)
      .createQueryBuilder(PackageFileEntity, 'f')
      .innerJoinAndMapOne('f.blob', PackageBlobEntity, 'b', 'b.id = f.blob_id')
      .where('f.version_id IN (:...ids)', { ids: versionIds })
      .orderBy('f.id', 'ASC')
      .getMany()
      .then((rows) => rows.map((f) => ({ file: f, blob: (f as PackageFileEntity & { blob: PackageBlobEntity }).blob })));
  }

  findFile(versionId: number, name: string, m?: EntityManager): Promise<PackageFileEntity | null> {
    return this.db.findOneBy(PackageFileEntity, { versionId, lowerName: name.toLowerCase() }, m);
  }

  tagsOf(packageId: number, m?: EntityManager): Promise<PackageTagEntity[]> {
    return this.m(m).find(PackageTagEntity, { where: { packageId }, order: { tag: 'ASC' } });
  }

  async setTag(m: EntityManager, packageId: number, tag: string, versionId: number): Promise<void> {
    const row = await this.db.findOneBy(PackageTagEntity, { packageId, tag }, m);
    if (row) await m.update(PackageTagEntity, { id: row.id }, { versionId });
    else await m.insert(PackageTagEntity, { packageId, tag, versionId });
  }

  async deleteTag(m: EntityManager, packageId: number, tag: string): Promise<boolean> {
    return ((await m.delete(PackageTagEntity, { packageId, tag })).affected ?? 0) > 0;
  }

  /** Bytes the owner's package files hold (Gitea's quota counts each file, shared blobs included). */
  async ownerUsage(ownerId: number, m?: EntityManager): Promise<number> {
    const row = (await this.m(m)
      .createQueryBuilder(PackageFileEntity, 'f')
      .innerJoin(PackageBlobEntity, 'b', 'b.id = f.blob_id')
      .innerJoin(PackageVersionEntity, 'v', 'v.id = f.version_id')
      .innerJoin(PackageEntity, 'p', 'p.id = v.package_id')
      .where('p.owner_id = :ownerId', { ownerId })
      .select('COALESCE(SUM(b.size), 0)', 'total')
      .getRawOne()) as { total: string | number } | undefined;
    return Number(row?.total ?? 0);
  }

  /**
   * Versions of the owner's packages, newest first: of one package, or filtered by type (`all` is
   * every type, as in Gitea) and name; with `latestOnly`, each package's newest version alone
   * (Gitea's SearchLatestVersions: the highest id).
   */
  async searchVersions(
    ownerId: number,
    filter: { type?: string; q?: string; packageId?: number; latestOnly?: boolean },
    page: { offset: number; limit: number },
  ): Promise<{ rows: VersionRow[]; total: number }> {
    const qb = this.db.manager
      .createQueryBuilder(PackageVersionEntity, 'v')
      .innerJoinAndMapOne('v.pkg', PackageEntity, 'p', 'p.id = v.package_id')
      .where('p.owner_id = :ownerId', { ownerId });
    if (filter.packageId !== undefined) qb.andWhere('p.id = :packageId', { packageId: filter.packageId });
    if (filter.type && filter.type !== 'all') qb.andWhere('p.type = :type', { type: filter.type });
    if (filter.q) qb.andWhere("p.lower_name LIKE :q ESCAPE '\\'", { q: containsPattern(filter.q) });
    if (filter.latestOnly) qb.andWhere('v.id = (SELECT MAX(lv.id) FROM package_version lv WHERE lv.package_id = v.package_id)');
    const [rows, total] = await qb.orderBy('v.created_at', 'DESC').addOrderBy('v.id', 'DESC').skip(page.offset).take(page.limit).getManyAndCount();
    return { rows: rows.map((v) => ({ pkg: (v as PackageVersionEntity & { pkg: PackageEntity }).pkg, version: v })), total };
  }

  /** Removes versions with their files and tags; answers the blob ids their files pointed at. */
  async deleteVersions(m: EntityManager, versionIds: number[]): Promise<number[]> {
    if (versionIds.length === 0) return [];
    const files = await m.find(PackageFileEntity, { where: { versionId: In(versionIds) } });
    await m.delete(PackageFileEntity, { versionId: In(versionIds) });
    await m.delete(PackageTagEntity, { versionId: In(versionIds) });
    await m.delete(PackageVersionEntity, { id: In(versionIds) });
    return files.map((f) => f.blobId);
  }

  /** Drops a package that has no versions left (Gitea removes the package with its last version). */
  async deleteIfEmpty(m: EntityManager, packageId: number): Promise<boolean> {
    if ((await m.count(PackageVersionEntity, { where: { packageId } })) > 0) return false;
    await m.delete(PackageTagEntity, { packageId });
    await m.delete(PackageEntity, { id: packageId });
    return true;
  }
}
