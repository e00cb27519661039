import { Injectable } from '@nestjs/common';
import { HookPatterns, type HookTarget } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

/** How long a hook's settings are reused: an edit (new URL, deactivation) reaches deliveries within this. */
const TTL_MS = 2_000;

/**
 * Hook settings for deliveries, asked of admin-service at most once per TTL per hook (the
 * fan-out primes it), so a burst of deliveries does not cost a transport call each.
 */
@Injectable()
export class HookTargetsCache {
  private readonly entries = new Map<number, { target: HookTarget | null; at: number }>();

  constructor(private readonly rpc: RpcClient) {}

  prime(targets: HookTarget[]): void {
    const at = Date.now();
    for (const t of targets) this.entries.set(t.id, { target: t, at });
  }

  forget(hookId: number): void {
    this.entries.delete(hookId);
  }

  async get(hookId: number): Promise<HookTarget | null> {
    const hit = this.entries.get(hookId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.target;
    const target = await this.rpc.call<HookTarget | null, Record<string, string>, { hookId: number }>(HookPatterns.target, {
      actor: null,
      body: { hookId },
    });
    this.entries.set(hookId, { target, at: Date.now() });
    if (this.entries.size > 10_000) this.entries.clear();
    return target;
  }
}
