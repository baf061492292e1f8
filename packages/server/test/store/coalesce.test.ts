/** `coalescing`: the calls of one turn go together, the ones that wait for a slot too, a failed batch is split. */
import { describe, expect, it } from 'vitest';
import { coalescing } from '../../src/store/sql/coalesce.ts';

/** A `run` that records its batches and finishes each when the test says. */
function controlledRun() {
  const batches: number[][] = [];
  const finish: Array<() => void> = [];
  let running = 0;
  let mostRunning = 0;
  const run = async (inputs: number[]) => {
    batches.push(inputs);
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    await new Promise<void>((resolve) => finish.push(resolve));
    running -= 1;
    if (inputs.includes(-1)) throw new Error('refused -1');
    return inputs.map((n) => n * 10);
  };
  return { run, batches, finish, mostRunning: () => mostRunning };
}

/** The end of the event loop's turn, after the starts it scheduled. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('coalescing', () => {
  it('runs the calls of one turn together, and the calls that wait for a slot in one batch', async () => {
    const { run, batches, finish, mostRunning } = controlledRun();
    const call = coalescing(run, 2);
    const answers = [call(1), call(2)];
    await settled();
    expect(batches).toEqual([[1, 2]]);
    // A later turn, a slot free: a statement of its own.
    answers.push(call(3));
    await settled();
    expect(batches).toEqual([[1, 2], [3]]);
    // Both slots busy: 4 and 5 wait, then go together.
    answers.push(call(4), call(5));
    await settled();
    expect(batches).toEqual([[1, 2], [3]]);
    finish.shift()?.();
    await settled();
    expect(batches).toEqual([[1, 2], [3], [4, 5]]);
    while (finish.length > 0) {
      finish.shift()?.();
      await settled();
    }
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50]);
    expect(mostRunning()).toBe(2);
  });

  it('runs each call of a failed batch alone, so that only the refused call fails', async () => {
    const { run, batches, finish } = controlledRun();
    const call = coalescing(run, 1);
    const first = call(1);
    await settled();
    const rest = [2, -1, 3].map((n) => call(n).catch((error: Error) => error.message));
    await settled();
    for (let i = 0; i < 5 && finish.length > 0; i++) {
      finish.shift()?.();
      await settled();
    }
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 'refused -1', 30]);
    expect(batches).toEqual([[1], [2, -1, 3], [2], [-1], [3]]);
  });

  it('takes new calls after a failure', async () => {
    const call = coalescing(async (inputs: number[]) => {
      if (inputs.includes(-1)) throw new Error('refused');
      return inputs;
    }, 1);
    await expect(call(-1)).rejects.toThrow('refused');
    expect(await Promise.all([call(1), call(2)])).toEqual([1, 2]);
  });
});
