/**
 * Group commit for one kind of database call: a call made while the previous batch is in flight
 * waits for it and then goes out together with every other call that waited, as one statement.
 * An idle batcher sends at once, so a lone call pays no delay; under load the number of round
 * trips (and, for writes, of WAL flushes) falls with the number of concurrent jobs. Each caller
 * still learns its own outcome only after its batch has finished, so a job never completes
 * before its write has committed.
 */
export class Batcher<In, Out> {
  private waiting: Array<{ input: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = [];
  private flushing = false;

  constructor(
    /** Answers one output per input, in input order. */
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    private readonly maxBatch: number,
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      // Calls made in the same tick go out together.
      queueMicrotask(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const outputs = await this.run(batch.map((b) => b.input));
        batch.forEach((b, i) => b.resolve(outputs[i]!));
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = false;
  }
}
