import { Injectable } from '@nestjs/common';
import { HookPatterns, type HookTarget } from '@gitforge/contracts';
import { RpcClient } from '@gitforge/platform';

/** How long a hook's settings are reused: an edit (new URL, deactivation) reaches deliveries within this. */
const TTL_MS = 2_000;

/**
 * Hook settings for deliveries, asked of admin-service at most once per TTL per hook (the
 * fan-out primes it), so a burst of deliveries does not cost a transport call each: concurrent
 * misses of one hook (a backlog drained after a restart) share one call.
 */
@Injectable()
export class HookTargetsCache {
  private readonly entries = new Map<number, { target: HookTarget | null; at: number }>();
  private readonly loading = new Map<number, Promise<HookTarget | null>>();

  constructor(private readonly rpc: RpcClient) {}

  prime(targets: HookTarget[]): void {
    const at = Date.now();
    for (const t of targets) this.entries.set(t.id, { target: t, at });
  }

  forget(hookId: number): void {
    this.entries.delete(hookId);
    // A call under way answers its waiters but is not remembered: the next get asks again.
    this.loading.delete(hookId);
  }

  get(hookId: number): Promise<HookTarget | null> {
    const hit = this.entries.get(hookId);
    if (hit && Date.now() - hit.at < TTL_MS) return Promise.resolve(hit.target);
    const under = this.loading.get(hookId);
    if (under) return under;
    const load = this.rpc
      .call<HookTarget | null, Record<string, string>, { hookId: number }>(HookPatterns.target, { actor: null, body: { hookId } })
      .then((target) => {
        if (this.loading.get(hookId) === load) {
          this.entries.set(hookId, { target, at: Date.now() });
          if (this.entries.size > 10_000) this.entries.clear();
        }
        return target;
      })
      .finally(() => {
        if (this.loading.get(hookId) === load) this.loading.delete(hookId);
      });
    this.loading.set(hookId, load);
    return load;
  }
}
