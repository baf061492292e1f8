/**
 * Connect links work on the mock as on the reference server: the URL `POST
 * /accounts/connect-link` answers is served by the mock that made it, in process (its MSW
 * handlers, `mock.fetch`) and standalone (`startMockServer`), and using it connects the
 * account the next `GET /accounts` lists.
 */
import { setupServer } from 'msw/node';
import { afterAll, expect, it } from 'vitest';
import { createOcsMock, startMockServer } from '../src/node/index.ts';

interface Account {
  id: string;
  email: string | null;
  status: string;
}

const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

it('serves its connect links in process, through its handlers and mock.fetch, with a mapped base path', async () => {
  const mock = await createOcsMock({ baseUrl: 'https://api.northwind.test/ocs/v1' });
  const auth = { Authorization: `Bearer ${mock.apiKey}`, 'Content-Type': 'application/json' };
  const created = await mock.fetch(`${mock.baseUrl}/accounts/connect-link`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ platform: 'email' }),
  });
  const { url } = (await created.json()) as { url: string };
  expect(url).toMatch(/^https:\/\/api\.northwind\.test\/connect\/cl_\w{24}$/);

  const page = await mock.fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<h1>Connect a mailbox</h1>');
  const done = await mock.fetch(url, { method: 'POST', headers: form, body: 'email=ada%40northwind.test' });
  expect(done.status).toBe(200);
  const list = await mock.fetch(`${mock.baseUrl}/accounts?platform=email`, { headers: auth });
  const { accounts } = (await list.json()) as { accounts: Account[] };
  expect(accounts.find((a) => a.email === 'ada@northwind.test')).toMatchObject({ status: 'connected' });

  // The same through MSW, as a test's fetch reaches it.
  const server = setupServer(...mock.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    // Used, within its hour: the page naming the account it connected.
    const again = await fetch(url);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('<h1>Account connected</h1>');
    expect(again.headers.get('cache-control')).toBe('no-store');
  } finally {
    server.close();
  }
});

let standalone: Awaited<ReturnType<typeof startMockServer>> | undefined;
afterAll(() => standalone?.close());

it('serves its connect links standalone: a reconnect, then the browser sent to redirect_url', async () => {
  standalone = await startMockServer({ port: 0 });
  const auth = { Authorization: `Bearer ${standalone.apiKey}`, 'Content-Type': 'application/json' };
  const disconnected = standalone.data.accounts.find((a) => a.status === 'disconnected');
  expect(disconnected).toBeDefined();
  const created = await fetch(`${standalone.url}/accounts/connect-link`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      platform: disconnected?.platform,
      account_id: disconnected?.id,
      redirect_url: 'https://app.northwind.test/senders',
    }),
  });
  const { url } = (await created.json()) as { url: string };
  expect(url.startsWith(`${new URL(standalone.url).origin}/connect/`)).toBe(true);
  expect((await fetch(url)).status).toBe(200);
  const done = await fetch(url, { method: 'POST', headers: form, body: '', redirect: 'manual' });
  expect(done.status).toBe(303);
  expect(done.headers.get('location')).toBe(`https://app.northwind.test/senders?account_id=${disconnected?.id}`);
  const list = await fetch(`${standalone.url}/accounts?status=disconnected`, { headers: auth });
  expect(((await list.json()) as { accounts: Account[] }).accounts).toEqual([]);
});
