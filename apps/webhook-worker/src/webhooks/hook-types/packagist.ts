import type { HookMeta } from '@gitforge/contracts';

export interface PackagistPayload {
  repository: { url: string };
}

/**
 * Gitea's packagist format (services/webhook/packagist.go): a push asks Packagist to update the
 * package; every other event sends the same body without a package URL, as Gitea does.
 */
export function packagistPayload(event: string, meta: HookMeta): PackagistPayload {
  return { repository: { url: event === 'push' ? (meta.package_url ?? '') : '' } };
}
