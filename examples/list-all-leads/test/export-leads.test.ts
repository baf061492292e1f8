/**
 * The example against a local stateful fake of the service (250 leads): the function, then
 * the command itself, as an integrator would run it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient, OcsAbortError } from '@ocs/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportLeads } from '../src/export-leads.ts';
import { apiKey, campaignId, startFake, type Fake } from './fake-service.ts';

let fake: Fake;
beforeAll(async () => {
  fake = await startFake();
});
afterEach(() => void (fake.requests.length = 0));
afterAll(() => fake.close());

describe('exportLeads', () => {
  it('writes every lead once, 100 per request, paging by offset', async () => {
    const lines: string[] = [];
    const progress: number[] = [];
    const client = createClient({ apiKey, baseUrl: fake.url });
    const count = await exportLeads(client, (line) => lines.push(line), {
      onPage: ({ written, total, requestId }) => {
        expect(total).toBe(250);
        expect(requestId).toMatch(/^req_fake_\d+$/);
        progress.push(written);
      },
    });
    expect(count).toBe(250);
    expect(lines[0]).toBe('id,email,first_name,last_name,company,title,created_at');
    expect(lines).toHaveLength(251);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0])).size).toBe(250);
    expect(lines[1]).toMatch(/^00000000-0000-4000-8000-000000000250,lead250@example\.com,First250,"O""Brien, Jr\.",/);
    expect(progress).toEqual([100, 200, 250]);
    expect(fake.requests).toEqual([
      { offset: '0', limit: '100', authorization: `Bearer ${apiKey}` },
      { offset: '100', limit: '100', authorization: `Bearer ${apiKey}` },
      { offset: '200', limit: '100', authorization: `Bearer ${apiKey}` },
    ]);
  });

  it('rides out a 429 on the way: the SDK waits Retry-After and asks again', async () => {
    fake.rateLimitOnceAt(100);
    const count = await exportLeads(createClient({ apiKey, baseUrl: fake.url }), () => {});
    expect(count).toBe(250);
    expect(fake.requests.map((request) => request.offset)).toEqual(['0', '100', '100', '200']);
  });

  it('exports one campaign', async () => {
    const count = await exportLeads(createClient({ apiKey, baseUrl: fake.url }), () => {}, { campaignId });
    expect(count).toBe(125);
    expect(fake.requests).toHaveLength(2);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const client = createClient({ apiKey, baseUrl: fake.url });
    const run = exportLeads(client, () => {}, { signal: controller.signal, onPage: () => controller.abort() });
    await expect(run).rejects.toBeInstanceOf(OcsAbortError);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('npm start', () => {
  const main = join(import.meta.dirname, '..', 'src', 'main.ts');
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });

  it('prints the CSV on stdout and the progress on stderr', async () => {
    const { stdout, stderr } = await run({ OCS_API_KEY: apiKey, OCS_BASE_URL: fake.url });
    expect(stdout.trimEnd().split('\n')).toHaveLength(251);
    expect(stderr).toMatch(
      /^100\/250 leads \(request req_fake_\d+\)\n200\/250 .*\n250\/250 .*\nExported 250 leads\.\n$/,
    );
  }, 30_000);

  it('says what to do with a wrong key, and exits 1', async () => {
    const failure = await run({ OCS_API_KEY: 'ocs_wrong', OCS_BASE_URL: fake.url }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(
      /^OcsAuthenticationError: Missing or invalid API key\. Send Authorization: Bearer <API_KEY>\. \(UNAUTHORIZED, HTTP 401, request req_fake_\d+\)\n$/,
    );
  }, 30_000);
});
