/**
 * A bare node:http server in its own process that answers every request with a fixed JSON
 * body: the baseline of what any Node HTTP server can do on this machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { addressFromOutput } from '../../../../bench/harness/ports.ts';
import { track } from '../../../../bench/harness/processes.ts';

export async function startBareHttp(body: string): Promise<{ child: ChildProcess; origin: string }> {
  const source = `
    const body = ${JSON.stringify(body)};
    const server = require('node:http').createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  const child = track(spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const origin = await addressFromOutput(
    child.stdout as NonNullable<ChildProcess['stdout']>,
    /listening on (http:\/\/\S+)/,
  );
  return { child, origin };
}
