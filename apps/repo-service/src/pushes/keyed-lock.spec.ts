import { KeyedLock } from './keyed-lock.js';

describe(KeyedLock.name, () => {
  it('should run tasks of one key one after the other, even when one fails, and other keys alongside', async () => {
    const sut = new KeyedLock();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = sut.run(1, async () => {
      log.push('1a start');
      await gate;
      log.push('1a end');
      throw new Error('boom');
    });
    const second = sut.run(1, async () => {
      log.push('1b');
      return 'b';
    });
    const other = sut.run(2, async () => {
      log.push('2');
      return 'other';
    });
    expect(await other).toBe('other');
    release();
    await expect(first).rejects.toThrow('boom');
    expect(await second).toBe('b');
    expect(log).toEqual(['1a start', '2', '1a end', '1b']);
  });
});
