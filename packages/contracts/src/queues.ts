/**
 * Queue names: one per consumer of domain events. They are persistent identifiers;
 * renaming one strands the jobs queued under the old name, so treat a rename as a migration.
 */
export const QueueNames = {
  webhooks: 'gitforge-webhooks',
  feeds: 'gitforge-feeds',
  /** The webhook worker's own second stage: one job per hook task (not an event consumer). */
  webhookDeliveries: 'gitforge-webhook-deliveries',
} as const;
export type QueueName = (typeof QueueNames)[keyof typeof QueueNames];

/** Every domain event is relayed to each of these queues (the consumers ignore what they don't handle). */
export const EventConsumerQueues: readonly QueueName[] = [QueueNames.webhooks, QueueNames.feeds];
