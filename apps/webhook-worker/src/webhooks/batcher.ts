/**
 * Group commit for one kind of database call: a call made while the previous batch is in flight
 * waits for it and then goes out together with every other call that waited, as one statement.
 * An idle batcher sends on the event loop's next turn (waiting for nothing but the calls made
 * before it), so a lone call pays no delay worth the name; under load the number of round
 * trips (and, for writes, of WAL flushes) falls with the number of concurrent jobs. Each caller
 * still learns its own outcome only after its batch has finished, so a job never completes
 * before its write has committed.
 */
/** An output of a batch that fails only its own caller (see {@link oneByOneOnFailure}). */
export class Failed {
  constructor(readonly error: unknown) {}
}

/**
 * A batch run that, when the batch as a whole fails, runs each input alone: one input the
 * database refuses fails only its own caller, not its neighbours'.
 */
export function oneByOneOnFailure<In, Out>(run: (inputs: In[]) => Promise<Out[]>): (inputs: In[]) => Promise<Array<Out | Failed>> {
  return async (inputs) => {
    try {
      return await run(inputs);
    } catch (err) {
      if (inputs.length === 1) return [new Failed(err)];
      return Promise.all(inputs.map((input) => run([input]).then((out) => out[0]!, (one: unknown) => new Failed(one))));
    }
  };
}

export class Batcher<In, Out> {
  private waiting: Array<{ input: In; resolve: (out: Out) => void; reject: (err: unknown) => void }> = [];
  private flushing = false;

  constructor(
    /** Answers one output per input, in input order; a {@link Failed} output fails its caller alone. */
    private readonly run: (inputs: In[]) => Promise<Array<Out | Failed>>,
    private readonly maxBatch: number,
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (this.flushing) return;
      this.flushing = true;
      // Calls made before the event loop turns go out together: the jobs it just started, each
      // of which makes its calls a few promise steps in.
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const outputs = await this.run(batch.map((b) => b.input));
        batch.forEach((b, i) => {
          const out = outputs[i]!;
          if (out instanceof Failed) b.reject(out.error);
          else b.resolve(out);
        });
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = false;
  }
}
