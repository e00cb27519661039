import { validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { CreateRepoOption, CreateUserOption } from '@gitforge/contracts';
import { validationMessage } from './validation.js';

async function messageFor<T extends object>(cls: new () => T, body: object): Promise<string> {
  return validationMessage(await validate(plainToInstance(cls, body)));
}

describe(validationMessage.name, () => {
  it("should name the field and Gitea's rule", async () => {
    await expect(messageFor(CreateRepoOption, {})).resolves.toBe('[Name]: Required');
    await expect(messageFor(CreateRepoOption, { name: 'a b' })).resolves.toBe('[Name]: AlphaDashDot');
    await expect(messageFor(CreateRepoOption, { name: 'x'.repeat(101) })).resolves.toBe('[Name]: MaxSize');
    await expect(messageFor(CreateRepoOption, { name: 'ok', default_branch: 'a..b' })).resolves.toBe('[DefaultBranch]: GitRefName');
    await expect(messageFor(CreateUserOption, { username: 'u', email: 'not-mail' })).resolves.toBe('[Email]: Email');
  });

  it('should report wrong JSON types', async () => {
    await expect(messageFor(CreateRepoOption, { name: 'ok', private: 'yes' })).resolves.toBe('[Private]: Bool');
  });
});
