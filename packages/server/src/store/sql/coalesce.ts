/**
 * Runs concurrent calls of one statement together. While `maxInFlight` statements run, a
 * new call waits; when one finishes, every call waiting goes in the next statement, as one
 * batch. At light load a call runs at the end of the event loop's turn, alone or with the
 * calls of the same turn; under load the calls that arrive during a round trip share the next
 * one, so a burst of N calls costs a few statements (and a few commits) instead of N
 * (decision 0017).
 *
 * `run` gets the inputs of a batch in arrival order and answers one output per input, in
 * the same order. When a batch of several fails, each of its calls runs again alone, so
 * that one call's refusal (a value the database rejects) reaches that call only; `run` must
 * therefore be a single statement, atomic outside a transaction, which a failure left
 * without effect.
 */
export function coalescing<In, Out>(
  run: (inputs: In[]) => Promise<Out[]>,
  maxInFlight: number,
): (input: In) => Promise<Out> {
  interface Call {
    input: In;
    resolve: (output: Out) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Call[] = [];
  let inFlight = 0;

  async function runBatch(batch: Call[]): Promise<void> {
    inFlight += 1;
    try {
      await settle(batch);
    } finally {
      inFlight -= 1;
      // Everything that arrived meanwhile goes in one statement.
      if (waiting.length > 0) {
        const next = waiting;
        waiting = [];
        void runBatch(next);
      }
    }
  }

  async function settle(batch: Call[]): Promise<void> {
    let outputs: Out[];
    try {
      outputs = await run(batch.map((call) => call.input));
    } catch (error) {
      if (batch.length === 1) (batch[0] as Call).reject(error);
      // One at a time, each with its own answer or error.
      else for (const call of batch) await settle([call]);
      return;
    }
    batch.forEach((call, i) => call.resolve(outputs[i] as Out));
  }

  /** A start is scheduled for the calls of this turn of the event loop. */
  let starting = false;
  function start(): void {
    starting = false;
    if (waiting.length === 0 || inFlight >= maxInFlight) return;
    const batch = waiting;
    waiting = [];
    void runBatch(batch);
  }

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      // A free slot starts at the end of this turn, not at once: calls released together
      // (the requests a shared rate-limit count let through) then go in one statement,
      // instead of the first two alone and the rest after them.
      if (!starting && inFlight < maxInFlight) {
        starting = true;
        afterThisTurn(start);
      }
    });
}

/** Runs `work` once the current turn's callbacks (and the I/O that came with them) have run. */
const afterThisTurn: (work: () => void) => void =
  typeof setImmediate === 'function' ? (work) => setImmediate(work) : (work) => setTimeout(work, 0);
