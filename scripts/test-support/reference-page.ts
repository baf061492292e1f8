/**
 * Checks of the rendered API reference in real Chromium, shared by the reference server's
 * and the standalone mock's browser tests (issue 15): a page that may not reach beyond this
 * machine, and the assertion that Redoc rendered every operation of the served document
 * with its shown `x-` extensions, and the `prospect_response` webhook.
 */
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface ReferenceOperation {
  operationId: string;
  summary?: string;
  path: string;
  method: string;
  /** The document's `x-` extensions that the page shows (`showExtensions`), with their values. */
  extensions: [string, unknown][];
}

/** What the page must show: the served document's operations and its webhook's operation id. */
export interface ExpectedReference {
  operations: ReferenceOperation[];
  webhookOperationId: string;
}

type Document = {
  paths: Record<string, Record<string, { operationId?: string; summary?: string } & Record<string, unknown>>>;
  webhooks: Record<string, Record<string, { operationId?: string }>>;
};

/** Reads the document a server serves at `/openapi.json`: what its `/docs` page must render. */
export async function expectedReference(origin: string, shownExtensions: string[]): Promise<ExpectedReference> {
  const document = (await (await fetch(`${origin}/openapi.json`)).json()) as Document;
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
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
  return { operations, webhookOperationId: webhook.operationId };
}

export interface OfflinePage {
  page: Page;
  /** Requests to another host, aborted before they left. */
  leftTheMachine: string[];
  errors: string[];
  /** What the page's Content-Security-Policy refused before any request. */
  refusedByPolicy: string[];
}

/**
 * A page whose every request to a host other than this machine is aborted and recorded
 * (files and loopback pass), so that a test can assert that none was even attempted.
 */
export async function offlinePage(browser: Browser): Promise<OfflinePage> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const leftTheMachine: string[] = [];
  const errors: string[] = [];
  // Redoc's own logo is refused by the page's policy (and hidden): recorded apart, and
  // checked to be images only.
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
export async function expectWholeReference(page: Page, expected: ExpectedReference): Promise<void> {
  const { operations, webhookOperationId } = expected;
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
export function expectOnlyImagesRefused(refused: string[]): void {
  if (refused.length > 0) console.log(`refused by the page's policy, before any request:\n${refused.join('\n')}`);
  for (const line of refused) expect(line).toMatch(/^Loading the image 'https?:\/\/[^']+' violates [^"]+"img-src /);
}

/** Opens a page and checks the whole reference on it, with nothing leaving the machine. */
export async function expectOfflineReference(
  browser: Browser,
  url: string,
  expected: ExpectedReference,
  screenshot: (page: Page) => Promise<unknown>,
): Promise<void> {
  const { page, leftTheMachine, errors, refusedByPolicy } = await offlinePage(browser);
  const response = await page.goto(url);
  if (response) expect(response.status()).toBe(200);
  await expectWholeReference(page, expected);
  await screenshot(page);
  expect(leftTheMachine).toEqual([]);
  expect(errors).toEqual([]);
  expectOnlyImagesRefused(refusedByPolicy);
  await page.close();
}
