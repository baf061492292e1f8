/**
 * The connect page in real Chromium, under its own Content-Security-Policy: the stylesheet
 * its hash allows is applied, nothing is refused, and the form, filled in and sent, connects
 * the account and lands on `redirect_url` (another origin, which `form-action` must allow on
 * the redirect) with `account_id`, sending no `Referer` that would carry the token.
 * Screenshots go to packages/server/test-results/ (git-ignored).
 *
 * Debian's Chromium through playwright-core (one line saying what to install when it is
 * missing; `CHROMIUM_PATH` overrides the path).
 */
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../../scripts/test-support/chromium.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { seedDemoOrganization } from '../../src/seed/demo.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const results = join(import.meta.dirname, '..', '..', 'test-results');

let browser: Browser;
let server: RunningServer;
let apiKey: string;
/** The integrator's page `redirect_url` points at: another origin (its own port). */
let integrator: Server;
let integratorOrigin: string;
const arrivals: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  const executablePath = requireChromium();
  mkdirSync(results, { recursive: true });
  const store = createMemoryStore();
  ({ apiKey } = await seedDemoOrganization(store));
  server = await serve({ store, port: 0, host: '127.0.0.1', quiet: true });
  integrator = createServer((request, response) => {
    arrivals.push({ url: request.url ?? '', headers: request.headers });
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<h1>Back in the app</h1>');
  });
  await new Promise<void>((resolve) => integrator.listen(0, '127.0.0.1', resolve));
  integratorOrigin = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await new Promise((resolve) => integrator?.close(resolve));
});

it('connects a LinkedIn account from the page and lands on redirect_url with account_id', async () => {
  const created = await fetch(`${server.url}/v1/accounts/connect-link`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ platform: 'linkedin', redirect_url: `${integratorOrigin}/settings/senders?tab=li` }),
  });
  const { url } = (await created.json()) as { url: string };
  const page = await browser.newPage();
  const refused: string[] = [];
  page.on('console', (message) => {
    // The 400 of the form sent with a mistake is logged too: only the policy's refusals count.
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  try {
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Connect a LinkedIn account');
    // The stylesheet applied: the policy's hash is the stylesheet's.
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(244, 246, 248)');

    // A username that is not one: the form comes back, with what was typed and why.
    await page.fill('#label', 'Ada Lovelace');
    await page.fill('#platform_username', 'not a username');
    await page.click('button[type=submit]');
    await page.waitForSelector('#platform_username-problem');
    expect(await page.locator('#platform_username').inputValue()).toBe('not a username');
    await page.screenshot({ path: join(results, 'connect-page-problem.png') });

    await page.fill('#platform_username', 'ada-lovelace');
    await Promise.all([page.waitForURL(`${integratorOrigin}/**`), page.click('button[type=submit]')]);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/settings/senders');
    expect(landed.searchParams.get('tab')).toBe('li');
    const accountId = landed.searchParams.get('account_id') ?? '';
    expect(accountId).toMatch(/^acc_li_\w{12}$/);
    const arrival = arrivals.find((a) => a.url.startsWith('/settings/senders'));
    expect(arrival?.headers).toBeDefined();
    expect(arrival?.headers.referer).toBeUndefined();
    expect(refused).toEqual([]);

    const listed = await fetch(`${server.url}/v1/accounts?platform=linkedin`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    const { accounts } = (await listed.json()) as { accounts: Array<{ id: string; status: string }> };
    expect(accounts.find((a) => a.id === accountId)?.status).toBe('connected');
  } finally {
    await page.close();
  }
}, 120_000);
