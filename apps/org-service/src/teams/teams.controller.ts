import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  TeamPatterns,
  type CreateTeamOption,
  type EditTeamOption,
  type Page,
  type Repository,
  type RepoTeamLink,
  type RepoTeamMove,
  type RepoTeamRequest,
  type RpcRequest,
  type Team,
  type User,
  type TeamRepoScope,
  idFrom,
} from '@gitforge/contracts';
import { TeamsService } from './teams.service.js';

type TeamParams = { id: string };

/** Gitea's FormBool (strconv.ParseBool); `include_desc` is true unless given and false. */
const includeDesc = (value: unknown): boolean =>
  value === undefined || value === '' || ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(String(value));

@Controller()
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @MessagePattern(TeamPatterns.create)
  create(@Payload() req: RpcRequest<{ org: string }, CreateTeamOption>): Promise<Team> {
    return this.teams.create(req.actor, req.params.org, req.body);
  }

  @MessagePattern(TeamPatterns.listForOrg)
  listForOrg(@Payload() req: RpcRequest<{ org: string }>): Promise<Page<Team>> {
    return this.teams.listForOrg(req.actor, req.params.org, normalizeListOptions(req.query));
  }

  @MessagePattern(TeamPatterns.search)
  search(@Payload() req: RpcRequest<{ org: string }, undefined, { q?: string; include_desc?: string; page?: string; limit?: string }>): Promise<Page<Team>> {
    return this.teams.search(
      req.actor,
      req.params.org,
      { q: typeof req.query.q === 'string' ? req.query.q : undefined, includeDesc: includeDesc(req.query.include_desc) },
      normalizeListOptions(req.query),
    );
  }

  @MessagePattern(TeamPatterns.listForActor)
  listForActor(@Payload() req: RpcRequest): Promise<Page<Team>> {
    return this.teams.listForActor(req.actor, normalizeListOptions(req.query));
  }

  @MessagePattern(TeamPatterns.get)
  get(@Payload() req: RpcRequest<TeamParams>): Promise<Team> {
    return this.teams.get(req.actor, idFrom(req.params.id));
  }

  @MessagePattern(TeamPatterns.edit)
  edit(@Payload() req: RpcRequest<TeamParams, EditTeamOption>): Promise<Team> {
    return this.teams.edit(req.actor, idFrom(req.params.id), req.body);
  }

  @MessagePattern(TeamPatterns.delete)
  delete(@Payload() req: RpcRequest<TeamParams>): Promise<void> {
    return this.teams.delete(req.actor, idFrom(req.params.id));
  }

  @MessagePattern(TeamPatterns.listMembers)
  listMembers(@Payload() req: RpcRequest<TeamParams>): Promise<Page<User>> {
    return this.teams.listMembers(req.actor, idFrom(req.params.id), normalizeListOptions(req.query));
  }

  @MessagePattern(TeamPatterns.getMember)
  getMember(@Payload() req: RpcRequest<TeamParams & { username: string }>): Promise<User> {
    return this.teams.getMember(req.actor, idFrom(req.params.id), req.params.username);
  }

  @MessagePattern(TeamPatterns.addMember)
  addMember(@Payload() req: RpcRequest<TeamParams & { username: string }>): Promise<void> {
    return this.teams.addMember(req.actor, idFrom(req.params.id), req.params.username);
  }

  @MessagePattern(TeamPatterns.removeMember)
  removeMember(@Payload() req: RpcRequest<TeamParams & { username: string }>): Promise<void> {
    return this.teams.removeMember(req.actor, idFrom(req.params.id), req.params.username);
  }

  @MessagePattern(TeamPatterns.listRepos)
  listRepos(@Payload() req: RpcRequest<TeamParams>): Promise<Page<Repository>> {
    return this.teams.listRepos(req.actor, idFrom(req.params.id), normalizeListOptions(req.query));
  }

  @MessagePattern(TeamPatterns.getRepo)
  getRepo(@Payload() req: RpcRequest<TeamParams & { repo: string }>): Promise<Repository> {
    return this.teams.getRepo(req.actor, idFrom(req.params.id), req.params.repo);
  }

  @MessagePattern(TeamPatterns.addRepo)
  addRepo(@Payload() req: RpcRequest<TeamParams & { repo: string }>): Promise<void> {
    return this.teams.addRepo(req.actor, idFrom(req.params.id), req.params.repo);
  }

  @MessagePattern(TeamPatterns.removeRepo)
  removeRepo(@Payload() req: RpcRequest<TeamParams & { repo: string }>): Promise<void> {
    return this.teams.removeRepo(req.actor, idFrom(req.params.id), req.params.repo);
  }

  @MessagePattern(TeamPatterns.listForRepo)
  listForRepo(@Payload() req: RpcRequest<Record<string, string>, RepoTeamRequest>): Promise<Team[]> {
    return this.teams.listForRepo(req.body.orgId, req.body.repoId);
  }

  @MessagePattern(TeamPatterns.getForRepo)
  getForRepo(@Payload() req: RpcRequest<Record<string, string>, RepoTeamRequest>): Promise<RepoTeamLink> {
    return this.teams.getForRepo(req.body.orgId, req.body.repoId, req.body.team ?? '');
  }

  @MessagePattern(TeamPatterns.linkRepo)
  linkRepo(@Payload() req: RpcRequest<Record<string, string>, RepoTeamRequest>): Promise<void> {
    return this.teams.linkRepo(req.body.orgId, req.body.repoId, req.body.team ?? '', req.body.link === true);
  }

  @MessagePattern(TeamPatterns.moveRepo)
  moveRepo(@Payload() req: RpcRequest<Record<string, string>, RepoTeamMove>): Promise<void> {
    return this.teams.moveRepo(req.body);
  }

  @MessagePattern(TeamPatterns.repoScope)
  repoScope(@Payload() req: RpcRequest<{ id: string }>): Promise<TeamRepoScope> {
    return this.teams.repoScope(req.actor, idFrom(req.params.id));
  }

  @MessagePattern(TeamPatterns.repoLinks)
  repoLinks(@Payload() req: RpcRequest<{ id: string }>): Promise<TeamRepoScope | null> {
    return this.teams.repoLinks(idFrom(req.params.id));
  }
}
