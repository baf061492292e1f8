/**
 * Drives HTTP load at a URL from a separate process: wrk (Debian's package) when it is
 * installed, autocannon otherwise. Returns requests per second and latency percentiles.
 * (The approach of packages/server/bench/load.ts; benches import nothing across packages.)
 */
import { execFile, execFileSync } from 'node:child_process';
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
  headers?: Record<string, string>;
  connections?: number;
  durationSeconds?: number;
}

const run = promisify(execFile);

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version.
    return (error as { status?: number }).status === 1;
  }
}

export const loadTool: LoadResult['tool'] = hasWrk() ? 'wrk' : 'autocannon';

export async function load(options: LoadOptions): Promise<LoadResult> {
  const connections = options.connections ?? 32;
  const duration = options.durationSeconds ?? 10;
  const headers = Object.entries(options.headers ?? {});
  if (loadTool === 'wrk') {
    const args = ['-t2', `-c${connections}`, `-d${duration}s`, '--latency'];
    for (const [name, value] of headers) args.push('-H', `${name}: ${value}`);
    const { stdout } = await run('wrk', [...args, options.url], { maxBuffer: 1 << 20 });
    return parseWrk(stdout);
  }
  const autocannonBin = new URL('../../../node_modules/autocannon/autocannon.js', import.meta.url).pathname;
  const args = [autocannonBin, '-c', String(connections), '-d', String(duration), '-j'];
  for (const [name, value] of headers) args.push('-H', `${name}=${value}`);
  const { stdout } = await run(process.execPath, [...args, options.url], { maxBuffer: 1 << 24 });
  const result = JSON.parse(stdout);
  return {
    tool: 'autocannon',
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
  };
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
