import { isAbsolute, join, relative, resolve } from 'node:path';
import { Injectable } from '@nestjs/common';
import { GitService } from '../git/git.service.js';
import { PushPolicy, type PushContext } from '../protections/push-policy.js';
import { PushesService } from '../pushes/pushes.service.js';
import { HOOK_DECLINED } from './pkt-line.js';
import { PushHooks, type HookAnswer } from './push-hooks.js';

const QUARANTINE_KEYS = [
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_QUARANTINE_PATH',
] as const;

/** One running receive-pack's hook registration. */
export interface PushSession {
  /** The environment and hooks directory receive-pack runs with. */
  env: Record<string, string>;
  hooksPath: string;
  /** Refused refs and the reason that replaces git's "pre-receive hook declined" in the report (ReportStatusRewriter). */
  rejections: Map<string, string>;
  close: () => void;
}

/**
 * The push path every transport shares (smart HTTP and SSH): PushPolicy decides each ref update
 * in git's pre-receive hook before anything is written, PushesService records the accepted ones
 * (events, housekeeping) in post-receive.
 */
@Injectable()
export class PushSessions {
  constructor(
    private readonly git: GitService,
    private readonly hooks: PushHooks,
    private readonly policy: PushPolicy,
    private readonly pushes: PushesService,
  ) {}

  /** Registers the push's hook callbacks: PushPolicy before the refs move, PushesService after. */
  async open(ctx: PushContext): Promise<PushSession> {
    const rejections = new Map<string, string>();
    const session = await this.hooks.open({
      preReceive: async (updates, objects): Promise<HookAnswer> => {
        const decisions = await this.policy.checkRefUpdates(
          ctx,
          updates,
          this.quarantine(ctx.repo.id, objects),
        );
        const messages: string[] = [];
        for (const d of decisions) {
          if (d.allowed) continue;
          // As Gitea: the sentence on a `remote: Gitea: …` line, and git's own "pre-receive hook
          // declined" in that ref's report, here followed by the same sentence.
          rejections.set(d.ref, `${HOOK_DECLINED}: ${d.message}`);
          messages.push(`Gitea: ${d.message}`);
        }
        return { ok: messages.length === 0, messages };
      },
      postReceive: async (updates): Promise<HookAnswer> => {
        await this.pushes.afterRefUpdates(ctx, updates);
        return { ok: true, messages: [] };
      },
    });
    return { ...session, hooksPath: this.hooks.hooksPath, rejections };
  }

  /** The quarantine variables git gave the hook, kept only if they point into this repository's objects. */
  private quarantine(repoId: number, given: Record<string, string>): Record<string, string> {
    const objects = join(this.git.repoPath(repoId), 'objects');
    const inside = (p: string): boolean => {
      const rel = relative(objects, resolve(p));
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    };
    const env: Record<string, string> = {};
    for (const key of QUARANTINE_KEYS) {
      const value = given[key];
      if (value && value.split(':').every(inside)) env[key] = value;
    }
    return env;
  }
}
