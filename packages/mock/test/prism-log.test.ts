/**
 * `startPrism`'s `log` receives Prism's lines after it listens too (a request's lines
 * here); what Prism prints is kept only until it listens, not for the life of the process.
 */
import { afterAll, expect, it } from 'vitest';
import { type PrismMock, startPrism } from '../src/prism/start-prism.ts';

let prism: PrismMock | undefined;
afterAll(() => prism?.close());

it('passes on the lines Prism logs for a request', async () => {
  const lines: string[] = [];
  let logged: () => void = () => undefined;
  // Prism writes a request's lines around its answer: waited for, not timed.
  const requestLogged = new Promise<void>((resolve) => (logged = resolve));
  prism = await startPrism({
    port: 0,
    log: (line) => {
      lines.push(line);
      if (line.includes('/v1/campaigns')) logged();
    },
  });
  expect(lines.some((line) => line.includes('Prism is listening'))).toBe(true);
  const response = await fetch(`${prism.url}/campaigns`, { headers: { Authorization: 'Bearer ocs_prism_log' } });
  expect(response.status).toBe(200);
  await response.text();
  await requestLogged;
}, 60_000);
