import type { MigrationInterface, QueryRunner } from 'typeorm';
import { col } from '@gitforge/platform';

/** The version of the issue counts issue-service last sent (RepoIssueCounters). */
export class IssueCounters1763800000230 implements MigrationInterface {
  name = 'IssueCounters1763800000230';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('repository', col.column(col.int('issue_counters_version', { default: 0 })));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('repository', 'issue_counters_version');
  }
}
