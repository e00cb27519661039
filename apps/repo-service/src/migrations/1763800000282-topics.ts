import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** Topics in use with their repository counts, filled from the repositories' own topic lists. */
export class Topics1763800000282 implements MigrationInterface {
  name = 'Topics1763800000282';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'topic',
        columns: [
          col.id(),
          col.varchar('name', 50),
          col.int('repo_count', { default: 0 }),
          col.timestamp('created_at'),
          col.timestamp('updated_at'),
        ],
      }),
    );
    await q.createIndex(
      'topic',
      new TableIndex({ name: 'uq_topic_name', columnNames: ['name'], isUnique: true }),
    );
    const counts = new Map<string, number>();
    for (const row of (await q.query('SELECT topics FROM repository')) as { topics: string }[]) {
      for (const topic of JSON.parse(row.topics || '[]') as string[])
        counts.set(topic, (counts.get(topic) ?? 0) + 1);
    }
    const now = Date.now();
    for (const [name, count] of counts) {
      await q.manager
        .createQueryBuilder()
        .insert()
        .into('topic')
        .values({ name, repo_count: count, created_at: now, updated_at: now })
        .execute();
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('topic');
  }
}
