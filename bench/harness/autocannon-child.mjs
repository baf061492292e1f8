/**
 * autocannon in a process of its own, driven through its API rather than its CLI: the CLI's
 * `-I` (`[<id>]` in the body) sends a Content-Length computed for hyperid's former 33-character
 * ids, longer than the 24-character ids it now inserts, so a server waits for bytes that never
 * come and every such request hangs (0 requests/s). Here each request's body is built whole by
 * `setupRequest`, and autocannon measures the length of what it sends.
 *
 * Input: one JSON argument { url, method, headers, body, connections, seconds, marker }.
 * Output: autocannon's JSON result on stdout.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}');
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
let sent = 0;
const template = options.body;
const unique = template !== undefined && template.includes(options.marker);

const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  method: options.method ?? 'GET',
  headers: options.headers ?? {},
  body: unique ? undefined : template,
  requests: unique
    ? [{ setupRequest: (request) => ({ ...request, body: template.replaceAll(options.marker, `${run}-${++sent}`) }) }]
    : undefined,
});
process.stdout.write(JSON.stringify(result));
