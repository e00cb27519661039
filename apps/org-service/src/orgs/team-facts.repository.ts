import { Injectable } from '@nestjs/common';
import { Database } from '@gitforge/platform';
import { TeamEntity } from './org.entities.js';

@Injectable()
export class TeamFactsRepository {
  constructor(private readonly db: Database) {}

  findTeam(id: number): Promise<TeamEntity | null> {
    return this.db.manager.findOne(TeamEntity, { where: { id } });
  }
}
