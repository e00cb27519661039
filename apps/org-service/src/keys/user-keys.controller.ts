import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  normalizeListOptions,
  UserKeyPatterns,
  type CreateKeyOption,
  type KeyFingerprints,
  type Page,
  type PublicKey,
  type RpcRequest,
  type SshKeyOwner,
} from '@gitforge/contracts';
import { UserKeysService } from './user-keys.service.js';

type UserParams = { username?: string };

@Controller()
export class UserKeysController {
  constructor(private readonly keys: UserKeysService) {}

  @MessagePattern(UserKeyPatterns.list)
  list(@Payload() req: RpcRequest<UserParams>): Promise<Page<PublicKey>> {
    const fingerprint = typeof req.query?.fingerprint === 'string' ? req.query.fingerprint : undefined;
    return this.keys.list(req.actor, req.params?.username, fingerprint, normalizeListOptions(req.query));
  }

  @MessagePattern(UserKeyPatterns.get)
  get(@Payload() req: RpcRequest<{ id: string }>): Promise<PublicKey> {
    return this.keys.get(req.actor, req.params.id);
  }

  @MessagePattern(UserKeyPatterns.create)
  create(@Payload() req: RpcRequest<UserParams, CreateKeyOption>): Promise<PublicKey> {
    return this.keys.create(req.actor, req.params?.username, req.body);
  }

  @MessagePattern(UserKeyPatterns.delete)
  delete(@Payload() req: RpcRequest<UserParams & { id: string }>): Promise<void> {
    return this.keys.delete(req.actor, req.params.username, req.params.id);
  }

  @MessagePattern(UserKeyPatterns.findByFingerprints)
  findByFingerprints(
    @Payload() req: RpcRequest<Record<string, string>, KeyFingerprints>,
  ): Promise<SshKeyOwner[]> {
    return this.keys.findByFingerprints(req.body?.fingerprints ?? []);
  }

  @MessagePattern(UserKeyPatterns.owner)
  owner(
    @Payload() req: RpcRequest<Record<string, string>, { fingerprint: string }>,
  ): Promise<SshKeyOwner | null> {
    return this.keys.owner(req.actor, req.body?.fingerprint ?? '');
  }
}
