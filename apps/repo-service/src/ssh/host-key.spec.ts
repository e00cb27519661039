import ssh2 from 'ssh2';
import { generateHostKey } from './host-key.js';

describe('generateHostKey', () => {
  it('should only hand out keys ssh2 can read back (its generator writes a malformed one now and then)', () => {
    for (let i = 0; i < 3000; i++) expect(ssh2.utils.parseKey(generateHostKey().private)).not.toBeInstanceOf(Error);
  });
});
