import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { Lru } from '@gitforge/platform';
import { CatFilePool } from '../git/cat-file.pool.js';
import { GitService } from '../git/git.service.js';
import {
  languageStats,
  type FileVerdict,
  LINGUIST_ATTRIBUTES,
  parseCheckAttr,
  type LinguistAttributes,
  type TreeFile,
} from './language-stats.js';

/** The git side of language statistics: a commit's files with their sizes and linguist attributes. */
@Injectable()
export class LanguageStatsReader {
  /** Shared by every repository (forks share blobs): about 10 MB at most. */
  private readonly verdicts = new Lru<string, FileVerdict>(50_000);

  constructor(
    private readonly git: GitService,
    private readonly objects: CatFilePool,
  ) {}

  /** Bytes per language of the tree of `commit` (a full object id). */
  async compute(repoId: number, commit: string): Promise<Record<string, number>> {
    const files = await this.files(repoId, commit);
    const attributes = await this.attributes(repoId, commit, files);
    return languageStats(
      files,
      (path) => attributes.get(path) ?? {},
      async (file) => (await this.objects.read(repoId, file.oid))?.data ?? null,
      this.verdicts,
    );
  }

  /** Every blob of the tree (no symlinks or submodules), from `ls-tree -r -l`. */
  private async files(repoId: number, commit: string): Promise<TreeFile[]> {
    const out = (
      await this.git.run(repoId, ['ls-tree', '-r', '-l', '-z', '--full-tree', '--end-of-options', commit])
    ).stdout.toString('utf8');
    const files: TreeFile[] = [];
    for (const record of out.split('\0')) {
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, oid, size] = record.slice(0, tab).split(/ +/);
      if (type !== 'blob' || mode === '120000') continue;
      files.push({ path: record.slice(tab + 1), oid: oid!, size: Number(size) });
    }
    return files;
  }

  /**
   * The linguist attributes of each file as `.gitattributes` at that commit say. git 2.39 has
   * no `check-attr --source`, so the commit is read into a throwaway index (`--cached`), as
   * Gitea did before git 2.40. Trees without a `.gitattributes` skip all of it.
   */
  private async attributes(
    repoId: number,
    commit: string,
    files: TreeFile[],
  ): Promise<Map<string, LinguistAttributes>> {
    if (!files.some((f) => f.path === '.gitattributes' || f.path.endsWith('/.gitattributes')))
      return new Map();
    const dir = await mkdtemp(join(tmpdir(), 'gf-attr-'));
    try {
      const env = { GIT_INDEX_FILE: join(dir, 'index') };
      await this.git.run(repoId, ['read-tree', '--end-of-options', commit], { env });
      const out = await this.git.run(
        repoId,
        ['check-attr', '--cached', '-z', '--stdin', ...LINGUIST_ATTRIBUTES],
        {
          env,
          input: files.map((f) => `${f.path}\0`).join(''),
        },
      );
      return parseCheckAttr(out.stdout.toString('utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
