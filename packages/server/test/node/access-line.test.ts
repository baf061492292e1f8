/**
 * The access line's own JSON writer (`node/access-line.ts`) writes what pino writes for the
 * same entry, byte for byte but the time, escaping included, and keeps to LOG_LEVEL; on a
 * terminal the line goes through pino's readable lines.
 */
import { expect, it } from 'vitest';
import type { AccessFields, LogLevel } from '../../src/http/logger.ts';
import { logRequest } from '../../src/http/middleware/access-log.ts';
import { createNodeLogger } from '../../src/node/logger.ts';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => lines.push(line) } };
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');

const entries: [LogLevel, AccessFields][] = [
  [
    'info',
    {
      request_id: 'req_8557ee2876c14c419e8ec7ff',
      method: 'GET',
      path: '/v1/campaigns/01a218b4-57a0-7000-8000-000000000000',
      operation_id: 'getCampaign',
      status: 200,
      duration_ms: 1.25,
      organization_id: '9238533b-1111-2222-3333-444444444444',
      api_key_id: '01a218b4-5bb8-7000-8000-000000000000',
    },
  ],
  [
    'error',
    {
      // Quotes, backslashes, control characters, non-ASCII. (A lone surrogate cannot reach
      // the line, paths are percent-encoded and headers are bytes; JSON.stringify would
      // write it escaped where pino writes the unit itself.)
      request_id: 'req_"quoted"\\back\u0001\t\u2028',
      method: 'POST',
      path: '/v1/nothing/é/"x"',
      operation_id: null,
      status: 500,
      duration_ms: 0,
      organization_id: null,
      api_key_id: null,
    },
  ],
  [
    'info',
    {
      // Characters JSON writes as they are beside ones outside the writer's quick set (%, ~,
      // a space): each string is still written as pino writes it.
      request_id: 'req_client-id:1.2~3',
      method: 'DELETE',
      path: '/v1/leads/%20x y',
      operation_id: 'deleteLead',
      status: 204,
      duration_ms: 12.34,
      organization_id: '9238533b-1111-2222-3333-444444444444',
      api_key_id: null,
    },
  ],
];

it.each(entries)('writes the %s line pino writes for the same entry', (level, fields) => {
  const fast = capture();
  const general = capture();
  const logger = createNodeLogger({ level: 'info', destination: fast.destination, pretty: false });
  expect(logger.access).toBeDefined();
  logger.access?.(level, fields);
  createNodeLogger({ level: 'info', destination: general.destination, pretty: false }).log({
    level,
    message: 'request',
    ...fields,
  });
  expect(fast.lines).toHaveLength(1);
  expect(withoutTime(fast.lines[0] ?? '')).toBe(withoutTime(general.lines[0] ?? ''));
  const time = (JSON.parse(fast.lines[0] ?? '') as { time: string }).time;
  expect(new Date(time).toISOString()).toBe(time);
});

it('keeps to the level: at warn a 200 writes nothing and a 500 its error line', () => {
  const { lines, destination } = capture();
  const logger = createNodeLogger({ level: 'warn', destination, pretty: false });
  const line = { requestId: 'req_1', method: 'GET', path: '/v1/campaigns', operationId: 'listCampaigns', started: 0 };
  logRequest(logger, { ...line, status: 200 });
  logRequest(logger, { ...line, status: 500 });
  expect(lines.map((entry) => (JSON.parse(entry) as { level: string; status: number }).status)).toEqual([500]);
});

it('leaves readable lines for a terminal to pino', () => {
  const { lines, destination } = capture();
  const logger = createNodeLogger({ level: 'info', destination, pretty: true });
  expect(logger.access).toBeUndefined();
  logRequest(logger, {
    requestId: 'req_1',
    method: 'GET',
    path: '/v1/campaigns',
    operationId: null,
    status: 404,
    started: 0,
  });
  expect(lines.join('')).toMatch(/INFO\s+request request_id=req_1 method=GET path=\/v1\/campaigns/);
});
