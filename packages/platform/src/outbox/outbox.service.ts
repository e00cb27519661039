import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  CURRENT_EVENT_VERSION,
  type Actor,
  type EventEnvelope,
  type EventName,
  type EventPayloads,
} from '@gitforge/contracts';
import { Database } from '../database/database.js';
import { OutboxEventEntity } from '../database/platform.entities.js';
import { OutboxRelay } from './outbox.relay.js';

/**
 * Writes domain events in the caller's transaction. Nothing is published until the transaction
 * commits; then the relay is woken so the event leaves within milliseconds.
 */
@Injectable()
export class OutboxService {
  constructor(
    private readonly db: Database,
    private readonly relay: OutboxRelay,
  ) {}

  async add<N extends EventName>(
    manager: EntityManager,
    name: N,
    payload: EventPayloads[N],
    meta: { actor: Actor | null; repoId?: number | null },
  ): Promise<EventEnvelope<N>> {
    const envelope: EventEnvelope<N> = {
      id: randomUUID(),
      name,
      version: CURRENT_EVENT_VERSION,
      occurredAt: new Date().toISOString(),
      actor: meta.actor ? { id: meta.actor.id, login: meta.actor.login } : null,
      repoId: meta.repoId ?? null,
      payload,
    };
    await manager.insert(OutboxEventEntity, {
      eventId: envelope.id,
      name,
      envelope: JSON.stringify(envelope),
      createdAt: new Date(),
      attempts: 0,
    });
    this.db.onCommit(manager, () => this.relay.kick());
    return envelope;
  }
}
