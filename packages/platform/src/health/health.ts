import { Controller, type Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { healthPattern, type ServiceName } from '@gitforge/contracts';
import { Database } from '../database/database.js';

export interface HealthReport {
  service: ServiceName;
  status: 'pass' | 'fail';
  database: 'pass' | 'fail';
}

/** Answers `<service>.health` with a database ping, for the gateway's `/api/healthz`. */
export function createHealthController(service: ServiceName): Type<unknown> {
  @Controller()
  class HealthController {
    constructor(private readonly db: Database) {}

    @MessagePattern(healthPattern(service))
    async check(): Promise<HealthReport> {
      try {
        await this.db.manager.query('SELECT 1');
        return { service, status: 'pass', database: 'pass' };
      } catch {
        return { service, status: 'fail', database: 'fail' };
      }
    }
  }
  return HealthController;
}
