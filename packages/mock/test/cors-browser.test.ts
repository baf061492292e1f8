/**
 * A front end on another origin, in real Chromium: a page served from one loopback port
 * calls the standalone mock (`startMockServer`) and the reference server (`ocs-server serve`,
 * the built bin) on others. A preflighted POST with `Authorization` and `Idempotency-Key`
 * succeeds and the page reads `X-Request-ID` and `RateLimit-*`; an error body is readable;
 * a server not told the page's origin (`--cors-origin`) is refused by the browser, and the
 * POST never runs; the mock's control routes refuse a page. The in-process mock behind MSW's
 * service worker needs no CORS header at all: the worker answers before any network.
 *
 * Debian's Chromium through playwright-core, as in browser.test.ts (it fails without it, with
 * one line saying what to install; `CHROMIUM_PATH` overrides the path).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../scripts/test-support/chromium.ts';
import { closeServer } from '../../../scripts/test-support/close-server.ts';
import { type MockServer, startMockServer } from '../src/node/index.ts';
import type { CrossOriginResult, SdkResult } from './browser/cors-page.ts';
import { servePage } from './support/page-server.ts';

const serverBin = join(import.meta.dirname, '..', '..', 'server', 'bin', 'ocs-server.js');

let browser: Browser;
let pageServer: Server;
let pageOrigin: string;
const cleanups: Array<() => unknown> = [];

/** What a page learns from one call: the answer as a page sees it, or the browser's refusal. */
type PageCall =
  | { ok: true; status: number; requestId: string | null; rateLimit: (string | null)[]; body: Record<string, unknown> }
  | { ok: false; error: string };

/** From the page: a POST that needs a preflight (Authorization, Idempotency-Key, JSON). */
function postFromPage(page: Page, base: string, key: string, name: string): Promise<PageCall> {
  return page.evaluate(
    async ({ base, key, name }) => {
      try {
        const response = await fetch(`${base}/campaigns`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': crypto.randomUUID(),
          },
          body: JSON.stringify({ name }),
        });
        return {
          ok: true as const,
          status: response.status,
          requestId: response.headers.get('X-Request-ID'),
          rateLimit: ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((h) => response.headers.get(h)),
          body: (await response.json()) as Record<string, unknown>,
        };
      } catch (error) {
        return { ok: false as const, error: String(error) };
      }
    },
    { base, key, name },
  );
}

/** The names of the campaigns a key sees, asked from Node (no Origin: no CORS involved). */
async function campaignNames(base: string, key: string): Promise<string[]> {
  const response = await fetch(`${base}/campaigns?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { campaigns: Array<{ name: string }> };
  return body.campaigns.map((campaign) => campaign.name);
}

interface ReferenceServer {
  url: string;
  apiKey: string;
  stderr: string;
}

/** `ocs-server serve --port 0` on a fresh data directory, with `args`; resolves once it listens. */
async function startReferenceServer(args: string[]): Promise<ReferenceServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ocs-cors-'));
  const chosen = ['DATABASE_URL', 'OCS_DATA_DIR', 'PORT', 'HOST', 'OCS_CORS_ORIGIN'];
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !chosen.includes(name)));
  const child: ChildProcess = spawn(
    process.execPath,
    [serverBin, 'serve', '--port', '0', '--data-dir', dataDir, ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once('close', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /OCS reference server on (\S+\/v1)/.exec(stderr)?.[1];
      const apiKey = /^\s+(ocs_\S+)\s*$/m.exec(stderr)?.[1];
      if (url && apiKey && /^CORS: .*$/m.test(stderr)) resolve({ url, apiKey, stderr });
    });
    child.once('close', (code) => reject(new Error(`ocs-server exited with ${code} before listening:\n${stderr}`)));
  });
}

beforeAll(async () => {
  const executablePath = requireChromium();
  for (const built of [
    join(import.meta.dirname, '..', 'dist', 'browser', 'index.js'),
    join(import.meta.dirname, '..', '..', 'server', 'dist', 'node', 'bin.js'),
  ]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build -w @ocs/server -w @ocs/mock\`.`);
  }
  const page = await servePage(join(import.meta.dirname, 'browser', 'cors-page.ts'));
  pageServer = page.server;
  pageOrigin = page.origin;
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await closeServer(pageServer);
}, 60_000);

/** A fresh page of the test's origin, in a context of its own (no service worker carried over). */
async function openPage(): Promise<Page> {
  const context = await browser.newContext();
  cleanups.push(() => context.close());
  const page = await context.newPage();
  await page.goto(`${pageOrigin}/`);
  return page;
}

describe('the standalone mock from a page on another origin', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, seed: 4 });
    cleanups.push(() => mock.close());
  });

  it('lets any origin make a preflighted POST and read the request ID and the budget', async () => {
    const page = await openPage();
    expect(new URL(mock.url).origin).not.toBe(pageOrigin);
    const call = await postFromPage(page, mock.url, mock.apiKey, 'From another origin');
    expect(call).toMatchObject({ ok: true, status: 201 });
    if (!call.ok) return;
    expect(call.requestId).toMatch(/^req_/);
    expect(call.rateLimit.every((value) => value !== null && /^\d+$/.test(value))).toBe(true);
    expect(await campaignNames(mock.url, mock.apiKey)).toContain('From another origin');
  }, 60_000);

  it("lets @ocs/sdk in the page create a campaign and read the answer's request ID and budget", async () => {
    const page = await openPage();
    await page.waitForFunction(() => 'createWithSdk' in globalThis);
    const result = await page.evaluate(
      ({ url, key }) =>
        (
          globalThis as unknown as { createWithSdk(url: string, key: string, name: string): Promise<SdkResult> }
        ).createWithSdk(url, key, 'With the SDK'),
      { url: mock.url, key: mock.apiKey },
    );
    expect(result.error).toBeUndefined();
    expect(result.name).toBe('With the SDK');
    expect(result.requestId).toMatch(/^req_/);
    expect(result.rateLimit?.limit).toBeGreaterThan(0);
    expect(result.rateLimit?.remaining).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('lets the page read an error body and its request ID', async () => {
    const page = await openPage();
    const call = await postFromPage(page, mock.url, 'ocs_wrong_key_0000000000000000', 'Never');
    expect(call).toMatchObject({ ok: true, status: 401 });
    if (call.ok) expect(call.body.request_id).toBe(call.requestId);
  }, 60_000);

  it('is refused by the browser when started for other origins only', async () => {
    const strict = await startMockServer({ port: 0, seed: 4, corsOrigins: ['http://elsewhere.example'] });
    cleanups.push(() => strict.close());
    const page = await openPage();
    const call = await postFromPage(page, strict.url, strict.apiKey, 'Refused');
    expect(call).toMatchObject({ ok: false, error: expect.stringContaining('Failed to fetch') });
    expect(await campaignNames(strict.url, strict.apiKey)).not.toContain('Refused');
  }, 60_000);

  it('keeps its control routes from pages: a reset from another origin runs nothing', async () => {
    const page = await openPage();
    await postFromPage(page, mock.url, mock.apiKey, 'Kept');
    const control = mock.url.replace(/\/v1$/, '/__ocs-mock/reset');
    // A "simple" POST: the browser sends it without a preflight, so only the mock can refuse it.
    const outcome = await page.evaluate(async (url) => {
      try {
        await fetch(url, { method: 'POST' });
        return 'read';
      } catch {
        return 'refused';
      }
    }, control);
    expect(outcome).toBe('refused');
    expect(await campaignNames(mock.url, mock.apiKey)).toContain('Kept');
  }, 60_000);
});

describe('the reference server from a page on another origin', () => {
  let allowed: ReferenceServer;
  let closed: ReferenceServer;
  beforeAll(async () => {
    [allowed, closed] = await Promise.all([
      startReferenceServer(['--cors-origin', pageOrigin]),
      startReferenceServer([]),
    ]);
  }, 120_000);

  it('says at start which origins it allows', () => {
    expect(allowed.stderr).toContain(`CORS: pages on ${pageOrigin} may call /v1.`);
    expect(closed.stderr).toMatch(/CORS: off; .*--cors-origin/);
  });

  it('lets the origin given with --cors-origin make a preflighted POST and read its headers', async () => {
    const page = await openPage();
    const call = await postFromPage(page, allowed.url, allowed.apiKey, 'Allowed origin');
    expect(call).toMatchObject({ ok: true, status: 201 });
    if (!call.ok) return;
    expect(call.requestId).toMatch(/^req_/);
    expect(call.rateLimit.every((value) => value !== null && /^\d+$/.test(value))).toBe(true);
    expect(await campaignNames(allowed.url, allowed.apiKey)).toContain('Allowed origin');
  }, 60_000);

  it('is refused by the browser when started without --cors-origin, and the POST never runs', async () => {
    const page = await openPage();
    const call = await postFromPage(page, closed.url, closed.apiKey, 'No CORS');
    expect(call).toMatchObject({ ok: false, error: expect.stringContaining('Failed to fetch') });
    expect(await campaignNames(closed.url, closed.apiKey)).not.toContain('No CORS');
  }, 60_000);
});

describe('the in-process mock behind MSW, for an API on another origin', () => {
  it('answers a preflighted POST whose headers the page reads, with no CORS header needed', async () => {
    const page = await openPage();
    await page.waitForFunction(() => 'callThroughWorker' in globalThis);
    const json = await page.evaluate(() =>
      (globalThis as unknown as { callThroughWorker(): Promise<string> }).callThroughWorker(),
    );
    const result = JSON.parse(json) as CrossOriginResult;
    expect(result.apiOrigin).not.toBe(result.pageOrigin);
    expect(result.status).toBe(201);
    expect(result.requestId).toMatch(/^req_/);
    expect(result.rateLimitLimit).toMatch(/^\d+$/);
    expect(result.accessControl).toEqual([]);
  }, 60_000);
});
