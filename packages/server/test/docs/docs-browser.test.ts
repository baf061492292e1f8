/**
 * The API reference in real Chromium, with every request off this machine blocked: the
 * reference server's `/docs` and the static page of `npm run docs` (opened from disk) render
 * every operation of the served document and the `prospect_response` webhook, with the
 * document's `x-required-scope`, and no request ever tries to leave the machine.
 * Screenshots go to packages/server/test-results/ (git-ignored).
 *
 * Debian's Chromium through playwright-core (one line saying what to install when it is
 * missing; `CHROMIUM_PATH` overrides the path).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../../scripts/test-support/chromium.ts';
import { shownExtensions } from '../../src/docs/reference-page.ts';
import { staticReferencePage } from '../../src/node/docs-renderer.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const results = join(import.meta.dirname, '..', '..', 'test-results');

interface Operation {
  operationId: string;
  summary?: string;
  path: string;
  method: string;
  /** The document's `x-` extensions that the page shows (`showExtensions`), with their values. */
  extensions: [string, unknown][];
}

let browser: Browser;
let server: RunningServer;
let operations: Operation[];
let webhookOperationId: string;

beforeAll(async () => {
  const executablePath = requireChromium();
  mkdirSync(results, { recursive: true });
  server = await serve({ store: createMemoryStore(), port: 0, host: '127.0.0.1', quiet: true });
  // The document the page renders, as the server serves it.
  const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string; summary?: string } & Record<string, unknown>>>;
    webhooks: Record<string, Record<string, { operationId?: string }>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation.operationId
        ? [
            {
              operationId: operation.operationId,
              summary: operation.summary,
              path,
              method,
              extensions: shownExtensions.flatMap((name): [string, unknown][] =>
                name in operation ? [[name, operation[name]]] : [],
              ),
            },
          ]
        : [],
    ),
  );
  const webhook = Object.values(document.webhooks.prospect_response ?? {})[0];
  if (!webhook?.operationId) throw new Error('the document has no prospect_response webhook operation');
  webhookOperationId = webhook.operationId;
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * A page whose every request to a host other than this machine is aborted and recorded
 * (files and loopback pass), so that a test can assert that none was even attempted.
 */
async function offlinePage(): Promise<{
  page: Page;
  leftTheMachine: string[];
  errors: string[];
  refusedByPolicy: string[];
}> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const leftTheMachine: string[] = [];
  const errors: string[] = [];
  // What the page's Content-Security-Policy refused before any request (Redoc's own logo,
  // which it hides when refused): recorded apart, and checked to be images only.
  const refusedByPolicy: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    const local = url.protocol === 'file:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (local) return route.continue();
    leftTheMachine.push(url.href);
    return route.abort('blockedbyclient');
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (message.text().includes('violates the following Content Security Policy')) refusedByPolicy.push(message.text());
    else errors.push(message.text());
  });
  return { page, leftTheMachine, errors, refusedByPolicy };
}

/** Waits for Redoc to render, then checks every operation and the webhook are on the page. */
async function expectWholeReference(page: Page): Promise<void> {
  await page.locator(`[data-section-id="operation/${webhookOperationId}"]`).waitFor({ timeout: 60_000 });
  const rendered = await page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-section-id^="operation/"]')].map((section) => [
        section.getAttribute('data-section-id')?.slice('operation/'.length),
        (section as HTMLElement).innerText,
      ]),
    ),
  );
  expect(operations.length).toBeGreaterThan(50);
  for (const operation of operations) {
    const text = rendered[operation.operationId];
    const name = `${operation.method.toUpperCase()} ${operation.path} (${operation.operationId})`;
    expect(text, name).toBeDefined();
    // Redoc titles an operation with its summary, else its path.
    expect(text, name).toContain(operation.summary ?? operation.path);
    // Its extensions (`x-required-scope`, `x-sandbox`), shown without the `x-`.
    for (const [extension, value] of operation.extensions) {
      expect(text, `${name} ${extension}`).toContain(`${extension.slice(2)}: ${String(value)}`);
    }
  }
  expect(operations.some((operation) => operation.extensions.some(([name]) => name === 'x-sandbox'))).toBe(true);
  // The webhook: a section titled as a webhook, with its payload, and an "Event" in the menu.
  const webhook = rendered[webhookOperationId] ?? '';
  expect(webhook).toMatch(/Webhook/);
  expect(webhook).toContain('prospect_response');
  expect(webhook).toMatch(/REQUEST BODY SCHEMA/i);
  const menuItem = page.locator(`li[data-item-id$="/operation/${webhookOperationId}"]`);
  expect(await menuItem.innerText()).toMatch(/^Event/);
}

/** Nothing the reference needs was refused: only images from elsewhere, never a script, style or fetch. */
function expectOnlyImagesRefused(refused: string[]): void {
  if (refused.length > 0) console.log(`refused by the page's policy, before any request:\n${refused.join('\n')}`);
  for (const line of refused) expect(line).toMatch(/^Loading the image 'https?:\/\/[^']+' violates [^"]+"img-src /);
}

it('renders every operation and the prospect_response webhook at /docs, with no request leaving the machine', async () => {
  const { page, leftTheMachine, errors, refusedByPolicy } = await offlinePage();
  const response = await page.goto(`${server.url}/docs`);
  expect(response?.status()).toBe(200);
  await expectWholeReference(page);
  await page.screenshot({ path: join(results, 'docs-reference.png') });
  await page
    .locator(`[data-section-id="operation/${webhookOperationId}"]`)
    .evaluate((section) => section.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: join(results, 'docs-reference-webhook.png') });
  expect(leftTheMachine).toEqual([]);
  expect(errors).toEqual([]);
  expectOnlyImagesRefused(refusedByPolicy);
  await page.close();
}, 120_000);

it('renders the same from the static page of npm run docs, opened from disk', async () => {
  const file = join(results, 'docs-static', 'index.html');
  mkdirSync(join(results, 'docs-static'), { recursive: true });
  writeFileSync(file, await staticReferencePage());
  const { page, leftTheMachine, errors, refusedByPolicy } = await offlinePage();
  await page.goto(pathToFileURL(file).href);
  await expectWholeReference(page);
  await page.screenshot({ path: join(results, 'docs-static.png') });
  expect(leftTheMachine).toEqual([]);
  expect(errors).toEqual([]);
  expectOnlyImagesRefused(refusedByPolicy);
  await page.close();
}, 120_000);
