import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { createLogger, SecretBox } from '@gitforge/platform';
import { HooksRepository } from './hooks.repository.js';
import type { WebhookEntity } from './webhook.entity.js';

const log = createLogger('hook-secrets');

/**
 * A hook's signing secret and authorization header, kept sealed at rest: the worker needs them in
 * clear to sign and send, the API never shows them. The empty value (none) stays empty.
 */
@Injectable()
export class HookSecrets implements OnApplicationBootstrap {
  constructor(
    private readonly box: SecretBox,
    private readonly hooks: HooksRepository,
  ) {}

  /** What a row stores of a value. */
  seal(plain: string): string {
    return plain === '' ? '' : this.box.seal(plain);
  }

  /**
   * The row's secret and authorization header in clear; throws when a sealed value does not open
   * (another key, a damaged value), which the caller reports for that hook alone.
   */
  open(w: Pick<WebhookEntity, 'secret' | 'authorizationHeader' | 'secretsSealed'>): { secret: string; authorizationHeader: string } {
    if (!w.secretsSealed) return { secret: w.secret, authorizationHeader: w.authorizationHeader };
    return { secret: w.secret && this.box.open(w.secret), authorizationHeader: w.authorizationHeader && this.box.open(w.authorizationHeader) };
  }

  /** A row's secret and header sealed, whatever its state: for a copy of it (a default hook copied into a repository) or an edit of it. */
  sealedCopy(w: Pick<WebhookEntity, 'secret' | 'authorizationHeader' | 'secretsSealed'>): Pick<WebhookEntity, 'secret' | 'authorizationHeader' | 'secretsSealed'> {
    if (w.secretsSealed) return { secret: w.secret, authorizationHeader: w.authorizationHeader, secretsSealed: true };
    return { secret: this.seal(w.secret), authorizationHeader: this.seal(w.authorizationHeader), secretsSealed: true };
  }

  /** Seals what rows written before sealing hold in clear; each row once, whichever replica gets there first. */
  async onApplicationBootstrap(): Promise<void> {
    const rows = await this.hooks.findUnsealed();
    for (const r of rows) await this.hooks.storeSealed(r.id, { secret: this.seal(r.secret), authorizationHeader: this.seal(r.authorizationHeader) });
    if (rows.length > 0) log.info({ hooks: rows.length }, 'sealed the secrets of hooks stored in clear');
  }
}
