import { Batcher, oneByOneOnFailure } from './batcher.js';

describe(Batcher.name, () => {
  it('should send calls that arrive while a batch is in flight together, each caller getting its own answer', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sut = new Batcher<number, number>(async (inputs) => {
      batches.push(inputs);
      if (batches.length === 1) await gate;
      return inputs.map((i) => i * 10);
    }, 100);
    const first = sut.submit(1);
    // The first batch goes out on the event loop's next turn.
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [sut.submit(2), sut.submit(3), sut.submit(4)];
    release();
    await expect(Promise.all([first, ...rest])).resolves.toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('should send together calls made a few promise steps apart before the event loop turns', async () => {
    const batches: number[][] = [];
    const sut = new Batcher<number, number>(async (inputs) => (batches.push(inputs), inputs), 100);
    const calls = [sut.submit(1)];
    await Promise.resolve();
    await Promise.resolve();
    calls.push(sut.submit(2));
    await Promise.all(calls);
    expect(batches).toEqual([[1, 2]]);
  });

  it('should split what waits into batches of at most the maximum', async () => {
    const batches: number[][] = [];
    const sut = new Batcher<number, number>(async (inputs) => {
      batches.push(inputs);
      return inputs;
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((i) => sut.submit(i)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('should fail every caller of a failed batch and go on with the next one', async () => {
    let calls = 0;
    const sut = new Batcher<number, number>(async (inputs) => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return inputs;
    }, 100);
    const failed = [sut.submit(1), sut.submit(2)];
    await expect(Promise.all(failed)).rejects.toThrow('database gone');
    await expect(Promise.allSettled(failed)).resolves.toEqual([
      { status: 'rejected', reason: expect.any(Error) },
      { status: 'rejected', reason: expect.any(Error) },
    ]);
    await expect(sut.submit(3)).resolves.toBe(3);
  });

  it('should run each input alone after its batch failed, failing only the callers whose input fails alone', async () => {
    const batches: number[][] = [];
    const sut = new Batcher<number, number>(
      oneByOneOnFailure(async (inputs) => {
        batches.push(inputs);
        if (inputs.includes(2)) throw new Error(`refused ${inputs.join(',')}`);
        return inputs.map((i) => i * 10);
      }),
      100,
    );
    const settled = await Promise.allSettled([sut.submit(1), sut.submit(2), sut.submit(3)]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('refused 2') },
      { status: 'fulfilled', value: 30 },
    ]);
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
