import { LabelTemplates } from '@gitforge/contracts';
import { PlatformConfig } from '@gitforge/platform';
import { LabelsRepository } from '../src/labels/labels.repository.js';
import { LabelsService } from '../src/labels/labels.service.js';
import type { OrgGate } from '../src/access/org-gate.js';
import type { RepoGate } from '../src/access/repo-gate.js';
import { openIssueTestDatabase, type IssueTestDatabase } from './support/database.js';

describe.each(['sqlite', 'postgres'] as const)('a new repository labelled from a template, on %s', (engine) => {
  let store: IssueTestDatabase;
  let labels: LabelsRepository;
  let sut: LabelsService;

  beforeAll(async () => {
    store = await openIssueTestDatabase(engine, 'label-templates');
    labels = new LabelsRepository(store.db);
    // The internal initialisation checks no access: repo-service asks for a repository it just created.
    sut = new LabelsService(store.db, {} as RepoGate, {} as OrgGate, labels, Object.assign(new PlatformConfig(), { GITFORGE_ROOT_URL: 'http://localhost/' }));
  });

  afterAll(() => store?.close());

  it('should add every label of the template once, keeping names the repository has already', async () => {
    const template = LabelTemplates.Default!;
    await store.db.transaction((m) => labels.insert(m, { repoId: 41 }, { name: 'bug', color: '#000000', description: 'mine', exclusive: false, archivedAt: null, createdAt: new Date(), updatedAt: new Date() }));
    expect(await sut.initializeForRepo(41, 'Default')).toBe(template.length - 1);
    // A repeated call (a retried request) adds nothing.
    expect(await sut.initializeForRepo(41, 'Default')).toBe(0);
    const names = await store.db.transaction((m) => labels.namesOwned(m, { repoId: 41 }));
    expect([...names].sort()).toEqual(template.map((l) => l.name).sort());
    expect((await labels.findOwned({ repoId: 41 }, { name: 'bug' }))?.description).toBe('mine');
    expect(await labels.findOwned({ repoId: 41 }, { name: 'help wanted' })).toMatchObject({ color: '#128a0c', exclusive: false });
  });

  it('should refuse an unknown template with 422 and add nothing', async () => {
    await expect(sut.initializeForRepo(42, 'Nope')).rejects.toMatchObject({ code: 'unprocessable' });
    expect((await store.db.transaction((m) => labels.namesOwned(m, { repoId: 42 }))).size).toBe(0);
  });
});
