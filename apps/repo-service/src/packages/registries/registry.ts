import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor } from '@gitforge/contracts';
import type { PackageOwner } from '../package-access.js';

/** One request to a registry, past the owner and type: `/api/packages/{owner}/{type}/{path…}`. */
export interface RegistryRequest {
  req: IncomingMessage;
  res: ServerResponse;
  actor: Actor | null;
  owner: PackageOwner;
  /** The owner's login as it is now (URLs the registry hands out). */
  ownerLogin: string;
  method: string;
  /** The raw (still percent-encoded) path after `{type}/`, without a leading slash. */
  rawPath: string;
  query: URLSearchParams;
}

/**
 * A package manager's registry: one module per package type, all over the one package store.
 * Errors are thrown (ContractError) and rendered in the registry's own error form.
 */
export interface PackageRegistry {
  readonly type: string;
  handle(request: RegistryRequest): Promise<void>;
  /** The registry's error body for a failed request (generic: plain text; npm: `{"error": …}`). */
  errorBody(message: string): { contentType: string; body: string };
}
