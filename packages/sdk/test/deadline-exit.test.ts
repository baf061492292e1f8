/**
 * A pending call keeps its process alive until its deadline, and nothing else does: in a
 * Node process of its own, with a fetch that runs in the process (MSW, a mock's `fetch`)
 * and so holds no socket that would keep the event loop running. Only outcomes are
 * checked (what the script printed, how it exited), within a generous bound.
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const index = new URL('../src/index.ts', import.meta.url).href;

/** Runs an ES module that imports the SDK's sources as `sdk`, through tsx. */
function run(body: string): Promise<{ code: number | null; stdout: string }> {
  const code = `import * as sdk from ${JSON.stringify(index)};\n${body}`;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code],
      { timeout: 15_000 },
      (_error, stdout) => resolve({ code: child.exitCode, stdout }),
    );
  });
}

describe('the deadline in a process with nothing else to do', () => {
  it('fires for a fetch that holds no socket and never answers: OcsTimeoutError, and the process exits', async () => {
    const { code, stdout } = await run(`
// As MSW's fetch with a handler that never answers: no socket, only the signal ends it.
const fetch = (_url, init) =>
  new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
const hangs = sdk.createClient({ apiKey: 'ocs_test_0123456789', fetch });
await sdk.getCampaign(hangs, { campaign_id: 'x' }, { timeoutMs: 100 }).then(
  () => console.log('resolved'),
  (error) => console.log(error.name),
);`);
    expect(stdout.trim()).toBe('OcsTimeoutError');
    expect(code).toBe(0);
  });

  it('fires for a fetch that ignores the signal and never settles (as a mock may)', async () => {
    const { code, stdout } = await run(`
const deaf = sdk.createClient({ apiKey: 'ocs_test_0123456789', fetch: () => new Promise(() => {}) });
await sdk.getCampaign(deaf, { campaign_id: 'x' }, { timeoutMs: 100 }).then(
  () => console.log('resolved'),
  (error) => console.log(error.name),
);`);
    expect(stdout.trim()).toBe('OcsTimeoutError');
    expect(code).toBe(0);
  });

  it('lets the process exit once its calls are done, long before their deadline', async () => {
    const { code, stdout } = await run(`
const fetch = async () => Response.json({ success: true, campaign: {} });
const answered = sdk.createClient({ apiKey: 'ocs_test_0123456789', fetch });
await sdk.getCampaign(answered, { campaign_id: 'x' }, { timeoutMs: 600_000 });
console.log('done');`);
    expect(stdout.trim()).toBe('done');
    expect(code).toBe(0);
  });
});
