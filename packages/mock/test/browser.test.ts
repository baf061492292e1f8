/**
 * @ocs/mock/browser in real Chromium, through MSW's service worker: a page bundled with
 * esbuild (the package's browser entry, @ocs/sdk, msw/browser) creates a campaign, lists,
 * gets an error, verifies a triggered webhook, runs the sandbox (clock, a reply delivered
 * to a receiver mocked in the page), reads the request journal, and meets a connection reset
 * and a cut body; Playwright reads the results.
 *
 * Debian's Chromium, driven by playwright-core (no browser download). CI installs it
 * (`.ci/run`); without it this test fails on purpose, with one line saying what to install:
 * a browser test that skips itself would prove nothing. `CHROMIUM_PATH` overrides the path
 * (scripts/test-support/chromium.ts).
 */
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../scripts/test-support/chromium.ts';
import { closeServer } from '../../../scripts/test-support/close-server.ts';
import type { PageResult } from './browser/page.ts';
import { servePage } from './support/page-server.ts';

let browser: Browser;
let server: Server | undefined;
let pageUrl: string;

beforeAll(async () => {
  const executablePath = requireChromium();
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'browser', 'index.js'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/mock` (its test script builds first).');
  }
  // As an integrator's bundler does: the published entries, with the `browser` conditions.
  const page = await servePage(join(import.meta.dirname, 'browser', 'page.ts'));
  server = page.server;
  pageUrl = `${page.origin}/`;
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await closeServer(server);
});

it('creates, lists, fails, verifies a webhook and runs the sandbox through the service worker', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pageUrl);
  await page.waitForFunction(() => 'runMockChecks' in globalThis);
  const json = await page.evaluate(() =>
    (globalThis as unknown as { runMockChecks(): Promise<string> }).runMockChecks(),
  );
  const result = JSON.parse(json) as PageResult;
  expect(errors).toEqual([]);
  expect(result).toMatchObject({
    controlled: true,
    createdName: 'From Chromium',
    total: 4,
    leadsTotal: 30,
    error: { name: 'OcsNotFoundError', status: 404, code: 'CAMPAIGN_NOT_FOUND', notFound: true },
    webhook: { verified: true, sameKey: true },
    sandbox: { delivery: 'delivered', received: true, clockBack: true },
    afterReset: 3,
  });
  expect(result.names).toContain('From Chromium');
  // Paging in the browser adds up, and the SDK retried through two 429s answered by the worker.
  expect(result.paged).toEqual({ count: result.leadsTotal, distinct: result.leadsTotal });
  expect(result.retriedTotal).toBe(result.total);
  expect(result.sandbox.stepsRun).toBeGreaterThan(0);
  expect(result.sandbox.sent).toBeGreaterThan(0);
  // The journal in the page: the create, typed, with the key redacted; emptied by reset().
  expect(result.journal).toEqual({
    names: ['From Chromium'],
    authorization: 'Bearer [redacted]',
    statuses: [201],
    emptied: true,
  });
  // Faults through the service worker: a reset fails fetch (retried by the SDK), a cut body
  // fails the read after a 200 (retried by the SDK).
  expect(result.faults).toEqual({
    // The list after reset, then the raw fetch's reset, then the SDK's reset and its retry.
    reset: { name: 'TypeError', total: 3, faults: [null, 'networkError', 'networkError', null] },
    cut: { status: 200, read: 'failed: TypeError', retriedTotal: 3 },
    // The SDK's deadline ends the call; MSW's worker does not tell the handler, so the hang
    // ends with scenarios.clear() (the README says so).
    hang: { error: 'OcsTimeoutError', endedWithTheClient: false, endedByClear: true },
  });
  // Every API call of the page was answered by the worker (create, list, leads, get, list).
  expect(result.mocked).toBeGreaterThanOrEqual(5);
  await page.close();
}, 120_000);
