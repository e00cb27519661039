import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Package blobs are looked up by the uuid of their key too: cleanup_packages asks which stored
 * bytes no row names, a batch of uuids at a time, and an upload's settling asks whether a row
 * names its staged bytes. Unique, as each upload stages under a fresh random uuid.
 */
export class PackageBlobUuid1763800000880 implements MigrationInterface {
  name = 'PackageBlobUuid1763800000880';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('package_blob', new TableIndex({ name: 'uq_package_blob_uuid', columnNames: ['uuid'], isUnique: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('package_blob', 'uq_package_blob_uuid');
  }
}
