/** The Node server's logger: pino at `LOG_LEVEL`, JSON lines for a collector, readable lines for a terminal. */
import { afterEach, expect, it } from 'vitest';
import { childLogger } from '../../src/http/logger.ts';
import { UsageError } from '../../src/node/cli-kit.ts';
import { createNodeLogger, logLevelFrom } from '../../src/node/logger.ts';
import { prettyLine } from '../../src/node/pretty-log-lines.ts';

const savedLevel = process.env.LOG_LEVEL;
afterEach(() => {
  if (savedLevel === undefined) delete process.env.LOG_LEVEL;
  else process.env.LOG_LEVEL = savedLevel;
});

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => lines.push(line) } };
}

it('writes JSON lines with the level as a word, an ISO time and the message', () => {
  const { lines, destination } = capture();
  createNodeLogger({ level: 'info', destination }).log({ level: 'info', message: 'request', status: 200 });
  expect(lines).toHaveLength(1);
  const entry = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  expect(entry).toEqual({ level: 'info', time: expect.any(String) as unknown, message: 'request', status: 200 });
  expect(new Date(String(entry.time)).toISOString()).toBe(entry.time);
});

it('follows LOG_LEVEL: lines below it are left out, and silent writes nothing', () => {
  process.env.LOG_LEVEL = 'warn';
  const warn = capture();
  const atWarn = createNodeLogger({ destination: warn.destination });
  atWarn.log({ level: 'info', message: 'request' });
  atWarn.log({ level: 'debug', message: 'detail' });
  atWarn.log({ level: 'warn', message: 'delivery attempt' });
  atWarn.log({ level: 'error', message: 'delivery given up' });
  expect(warn.lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual([
    'delivery attempt',
    'delivery given up',
  ]);

  process.env.LOG_LEVEL = 'DEBUG';
  const debug = capture();
  createNodeLogger({ destination: debug.destination }).log({ level: 'debug', message: 'detail' });
  expect(debug.lines).toHaveLength(1);

  process.env.LOG_LEVEL = 'silent';
  const silent = capture();
  createNodeLogger({ destination: silent.destination }).log({ level: 'error', message: 'failed' });
  expect(silent.lines).toEqual([]);
});

it('reads LOG_LEVEL as info when unset or empty, and refuses an unknown level with a usage error', () => {
  expect(logLevelFrom(undefined)).toBe('info');
  expect(logLevelFrom(' ')).toBe('info');
  expect(logLevelFrom('Error')).toBe('error');
  expect(() => logLevelFrom('verbose')).toThrow(UsageError);
  expect(() => logLevelFrom('verbose')).toThrow(
    /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got 'verbose'/,
  );
});

it('puts the bindings of a child on every line it writes', () => {
  const { lines, destination } = capture();
  const request = childLogger(createNodeLogger({ level: 'info', destination }), { request_id: 'req_1' });
  request.log({ level: 'error', message: 'request failed', operation_id: 'getCampaign' });
  request.log({ level: 'info', message: 'request', status: 500 });
  expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
    expect.objectContaining({ request_id: 'req_1', message: 'request failed', operation_id: 'getCampaign' }),
    expect.objectContaining({ request_id: 'req_1', message: 'request', status: 500 }),
  ]);
});

it('writes readable lines when asked (as on a terminal): time, level, message, then the fields', () => {
  const { lines, destination } = capture();
  const logger = createNodeLogger({ level: 'info', destination, pretty: true });
  logger.log({ level: 'warn', message: 'delivery attempt', status: 503, error: 'status 503', next_attempt_at: null });
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^\d\d:\d\d:\d\d\.\d{3} WARN {2}delivery attempt status=503 error="status 503" next_attempt_at=null\n$/,
  );
  expect(
    prettyLine(
      '{"level":"info","time":"2026-11-25T06:01:02.345Z","message":"listening","url":"http://127.0.0.1:4010/v1"}',
      true,
    ),
  ).toBe('06:01:02.345 \u001b[32mINFO \u001b[39m listening url=http://127.0.0.1:4010/v1\n');
});
