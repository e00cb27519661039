import { Injectable } from '@nestjs/common';
import { AccessMode, notFound, type Actor, type TeamFeedScope, idFrom } from '@gitforge/contracts';
import { UsersRepository } from '../users/users.repository.js';
import { OrgsRepository } from './orgs.repository.js';
import { TeamFactsRepository } from './team-facts.repository.js';

/** What a team reaches and how the caller relates to it, for the team activity feed. */
@Injectable()
export class TeamFactsService {
  constructor(
    private readonly teams: TeamFactsRepository,
    private readonly orgs: OrgsRepository,
    private readonly users: UsersRepository,
  ) {}

  async feedScope(actor: Actor | null, teamId: number): Promise<TeamFeedScope> {
    const team = idFrom(teamId) ? await this.teams.findTeam(teamId) : null;
    const org = team ? await this.users.findById(team.orgId) : null;
    if (!team || !org) throw notFound();
    const actorTeams = actor ? await this.orgs.teamsOfUser(org.id, actor.id) : [];
    const links = team.includesAllRepositories ? [] : await this.orgs.repoLinksOfTeams([team.id]);
    return {
      teamId: team.id,
      orgId: org.id,
      orgLogin: org.name,
      includesAllRepositories: team.includesAllRepositories,
      repoIds: links.map((l) => l.repoId),
      isOrgOwner: actorTeams.some((t) => t.accessMode >= AccessMode.owner),
      isOrgMember: actorTeams.length > 0 || (actor ? await this.orgs.isMember(org.id, actor.id) : false),
      isTeamMember: actorTeams.some((t) => t.id === team.id),
    };
  }
}
