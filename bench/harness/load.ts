/**
 * Drives HTTP load at a loopback URL from a separate process for a fixed time: wrk (Debian's
 * package) when it is installed, autocannon otherwise. Returns requests per second and
 * latency percentiles. A body may hold `{unique}`, replaced by a fresh value in every request
 * (a new lead's email, for instance).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface LoadResult {
  tool: 'wrk' | 'autocannon';
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Request body; every `{unique}` in it differs from one request to the next. */
  body?: string;
  connections?: number;
  durationSeconds: number;
}

const run = promisify(execFile);
const uniqueMarker = '{unique}';

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return (error as { status?: number }).status === 1;
  }
}

/** `BENCH_LOAD_TOOL=autocannon` measures with autocannon even where wrk is installed. */
export const loadTool: LoadResult['tool'] =
  process.env.BENCH_LOAD_TOOL === 'autocannon' || !hasWrk() ? 'autocannon' : 'wrk';

function assertLoopback(url: string): void {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1' && hostname !== 'localhost' && hostname !== '[::1]') {
    throw new Error(`load is for loopback only, not ${hostname}`);
  }
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  assertLoopback(options.url);
  const connections = options.connections ?? 32;
  const seconds = Math.max(1, Math.round(options.durationSeconds));
  // Bounded in time by the tool's own duration; the timeout only catches a hung tool.
  const limits = { maxBuffer: 1 << 24, timeout: (seconds + 30) * 1000, killSignal: 'SIGKILL' as const };
  if (loadTool === 'wrk') {
    const dir = mkdtempSync(join(tmpdir(), 'ocs-bench-wrk-'));
    try {
      const script = join(dir, 'request.lua');
      writeFileSync(script, wrkScript(options));
      const args = [`-t${Math.min(2, connections)}`, `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script];
      const { stdout } = await run('wrk', [...args, options.url], limits);
      return parseWrk(stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const child = new URL('autocannon-child.mjs', import.meta.url).pathname;
  const input = {
    url: options.url,
    method: options.method,
    headers: options.headers,
    body: options.body,
    connections,
    seconds,
    marker: uniqueMarker,
  };
  const { stdout } = await run(process.execPath, [child, JSON.stringify(input)], limits);
  const result = JSON.parse(stdout);
  return {
    tool: 'autocannon',
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** wrk's request, in Lua: method, headers, and a body made unique per thread and request. */
function wrkScript(options: LoadOptions): string {
  const lua = (text: string) => JSON.stringify(text); // a JSON string is a valid Lua string here
  const lines = [`wrk.method = ${lua(options.method ?? 'GET')}`];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    lines.push(`wrk.headers[${lua(name)}] = ${lua(value)}`);
  if (options.body === undefined) return `${lines.join('\n')}\n`;
  const [before, ...rest] = options.body.split(uniqueMarker);
  lines.push(
    'local threads = 0',
    'function setup(thread) threads = threads + 1; thread:set("tid", threads) end',
    `local run = ${lua(`${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`)}`,
    'local n = 0',
    'function request()',
    '  n = n + 1',
    '  local unique = run .. "-" .. tid .. "-" .. n',
    `  return wrk.format(nil, nil, nil, ${[lua(before ?? ''), ...rest.map((part) => `unique .. ${lua(part)}`)].join(' .. ')})`,
    'end',
  );
  return `${lines.join('\n')}\n`;
}

function parseWrk(output: string): LoadResult {
  const toMs = (value: string) => {
    const match = /([\d.]+)(us|ms|s)/.exec(value);
    if (!match) return Number.NaN;
    const n = Number(match[1]);
    return match[2] === 'us' ? n / 1000 : match[2] === 's' ? n * 1000 : n;
  };
  const percentile = (p: string) => toMs(new RegExp(`\\s${p}%\\s+(\\S+)`).exec(output)?.[1] ?? '');
  return {
    tool: 'wrk',
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
    p50Ms: percentile('50'),
    p99Ms: percentile('99'),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
  };
}
