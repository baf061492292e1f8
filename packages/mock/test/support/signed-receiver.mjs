/**
 * A webhook receiver as an integrator writes one, run as its own process by the `ocs listen`
 * tests: node:http, the raw body verified with @ocs/sdk/webhooks and the secret in
 * OCS_WEBHOOK_SECRET, or read at each request from the file OCS_WEBHOOK_SECRET_FILE names (the
 * test learns it from `ocs listen` after the receiver started). It prints `listening <url>` once, then one JSON line per request
 * (what it got and whether the signature held), and answers 200, or 401 for a bad signature.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { verifyAndParse, WebhookVerificationError } from '@ocs/sdk/webhooks';

const secretNow = () =>
  process.env.OCS_WEBHOOK_SECRET ?? readFileSync(process.env.OCS_WEBHOOK_SECRET_FILE ?? '', 'utf8').trim();
const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', async () => {
    const body = Buffer.concat(chunks);
    try {
      const event = await verifyAndParse({ payload: body, headers: request.headers }, { secret: secretNow() });
      console.log(
        JSON.stringify({
          verified: true,
          path: request.url,
          event: event.event,
          sequence_lead_id: event.sequence_lead_id,
          channel: event.channel,
          sentiment: event.ai_response.sentiment,
          attempt: request.headers['x-ocs-delivery-attempt'] ?? null,
        }),
      );
      response.writeHead(200).end('ok');
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.reason : String(error);
      console.log(JSON.stringify({ verified: false, path: request.url, reason }));
      response.writeHead(401).end();
    }
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
