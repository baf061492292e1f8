/**
 * The connect page on the Node listener: a link from the API opens over HTTP with no API key
 * and outside every rate-limit budget, the form's POST redirects (303, not followed here),
 * HEAD has no body, and each answer is logged with its request ID like the API's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LogEntry } from '../../src/http/logger.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const total = 3;
let server: RunningServer;
let apiKey: string;
const lines: LogEntry[] = [];

beforeAll(async () => {
  const store = createMemoryStore();
  ({ apiKey } = await seedDemoOrganization(store));
  server = await serve({
    store,
    port: 0,
    host: '127.0.0.1',
    rateLimits: { total },
    logger: { log: (entry) => lines.push(entry) },
  });
});
afterAll(async () => {
  await server?.close();
});

async function newLink(body: Record<string, unknown>): Promise<string> {
  const answer = await fetch(`${server.url}/v1/accounts/connect-link`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { url: string }).url;
}

it('serves a link it made at the URL it answered, and redirects the form to redirect_url', async () => {
  const url = await newLink({ platform: 'linkedin', redirect_url: 'https://app.example.com/senders' });
  expect(url.startsWith(`${server.url}/connect/cl_`)).toBe(true);
  for (let visit = 0; visit < total + 1; visit++) {
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('ratelimit-remaining')).toBeNull();
    expect(await page.text()).toContain('<form method="post"');
  }
  const head = await fetch(url, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');

  const done = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'label=Ada+Lovelace&platform_username=ada-lovelace',
    redirect: 'manual',
  });
  expect(done.status).toBe(303);
  expect(done.headers.get('location')).toMatch(/^https:\/\/app\.example\.com\/senders\?account_id=acc_li_\w{12}$/);
  // Visited again within its hour (a reload): the same redirect, naming the same account.
  const again = await fetch(url, { redirect: 'manual' });
  expect(again.status).toBe(303);
  expect(again.headers.get('location')).toBe(done.headers.get('location'));
  // Not the page's route (a trailing slash or a word a mail client added): the API's 404.
  for (const near of [`${url}/`, `${url}/x`]) expect((await fetch(near)).status).toBe(404);

  // The token is the link's credential: its first characters only are logged, routed or not.
  const token = new URL(url).pathname.split('/').pop() ?? '';
  expect(lines.some((line) => JSON.stringify(line).includes(token))).toBe(false);
  const shown = `/connect/${token.slice(0, 7)}…`;
  const logged = lines.filter((line) => line.message === 'request' && String(line.path).startsWith(shown));
  expect(logged.map((line) => line.status)).toEqual([...Array<number>(total + 1).fill(200), 200, 303, 303, 404, 404]);
  // What a caller added after the token is theirs: redacted, past a trailing slash.
  expect(logged.slice(-2).map((line) => line.path)).toEqual([`${shown}/`, `${shown}/[redacted]`]);
  expect(logged.every((line) => line.operation_id === null && typeof line.request_id === 'string')).toBe(true);
  const connected = lines.find((line) => line.message === 'account connected');
  expect(connected).toMatchObject({ platform: 'linkedin', account_id: expect.stringMatching(/^acc_li_/) });
  // The API's budget is untouched by the page.
  const api = await fetch(`${server.url}/v1/accounts`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(api.headers.get('ratelimit-remaining')).toBe(String(total - 2));
});
