import { TeamFactPatterns, type Actor, type TeamFeedScope, type User, type Visibility } from '@gitforge/contracts';
import { DirectoryClient, type RpcClient } from '@gitforge/platform';
import type { FeedsRepository } from './feeds.repository.js';
import { actorVisible, dayRange, FeedsService } from './feeds.service.js';

const actor = (id: number, isAdmin = false): Actor => ({ id, login: `u${id}`, isAdmin, scopes: null });

describe(FeedsService.name, () => {
  let scope: TeamFeedScope;
  let sut: FeedsService;

  beforeEach(() => {
    scope = { teamId: 3, orgId: 10, orgLogin: 'Acme', includesAllRepositories: false, repoIds: [5], isOrgOwner: false, isOrgMember: false, isTeamMember: false };
    const rpc = {
      call: async (pattern: string) => {
        if (pattern === TeamFactPatterns.feedScope) return scope;
        return [];
      },
    } as unknown as RpcClient;
    const feeds = { involved: async () => ({ repoIds: [], actUserIds: [] }) } as unknown as FeedsRepository;
    sut = new FeedsService(rpc, feeds, new DirectoryClient(rpc));
  });

  const team = (a: Actor | null, org?: string) => sut.teamFeed(a, '3', org, { options: { page: 1, limit: 30 } });

  it.each([
    ['a team member', { isTeamMember: true, isOrgMember: true }, actor(1)],
    ['an organization owner', { isOrgOwner: true, isOrgMember: true }, actor(1)],
    ['a site admin', {}, actor(1, true)],
  ])("should show a team's feed to %s", async (_who, relation, a) => {
    Object.assign(scope, relation);
    await expect(team(a)).resolves.toMatchObject({ items: [], total: 0 });
  });

  it('should refuse other organization members with 403 and outsiders with 404', async () => {
    scope.isOrgMember = true;
    await expect(team(actor(1))).rejects.toMatchObject({ code: 'permission_denied', message: 'Must be a team member' });
    scope.isOrgMember = false;
    await expect(team(actor(1))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('should answer 404 for a team of another organization than the route names', async () => {
    scope.isTeamMember = true;
    await expect(team(actor(1), 'acme')).resolves.toBeDefined();
    await expect(team(actor(1), 'other')).rejects.toMatchObject({ code: 'not_found' });
  });

  it("should read Gitea's date filter as one local day and ignore what does not parse", () => {
    const [from, to] = dayRange('2024-03-05')!;
    expect(new Date(from)).toEqual(new Date(2024, 2, 5));
    expect(to - from).toBe(86_400_000);
    expect(dayRange('2024-02-30')).toBeUndefined();
    expect(dayRange('yesterday')).toBeUndefined();
    expect(dayRange(undefined)).toBeUndefined();
  });

  describe(actorVisible.name, () => {
    const who = (visibility: Visibility, hideActivity: boolean) => ({ user: { id: 7, visibility } as User, hideActivity });

    it.each([
      ['anonymous', null, 'public', false, true],
      ['anonymous', null, 'public', true, false],
      ['anonymous', null, 'limited', false, false],
      ['a signed-in viewer', actor(1), 'limited', false, true],
      ['a signed-in viewer', actor(1), 'public', true, false],
      ['a signed-in viewer', actor(1), 'private', false, false],
      ['the user themself', actor(7), 'private', true, true],
      ['a site admin', actor(1, true), 'public', true, true],
    ] as const)('should let %s see a %s user hiding activity=%s: %s', (_who, viewer, visibility, hide, expected) => {
      expect(actorVisible(viewer, who(visibility, hide))).toBe(expected);
    });
  });
});
