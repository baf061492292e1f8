/**
 * `npm start --silent -w @ocs/example-list-all-leads [campaign_id] > leads.csv`: every lead as CSV
 * on stdout, progress on stderr. Reads OCS_API_KEY and OCS_BASE_URL (default: ocs-mock at
 * http://127.0.0.1:4011; the reference server is at http://127.0.0.1:4010).
 */
import { createClient, OcsError } from '@ocs/sdk';
import { exportLeads } from './export-leads.ts';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

try {
  const client = createClient();
  const count = await exportLeads(client, (line) => process.stdout.write(`${line}\n`), {
    campaignId: process.argv[2],
    signal: controller.signal,
    onPage: ({ written, total, requestId }) =>
      process.stderr.write(`${written}/${total} leads (request ${requestId})\n`),
  });
  process.stderr.write(`Exported ${count} leads.\n`);
} catch (error) {
  // The SDK's errors say what went wrong and what to do; an API error adds its code and
  // the request ID to quote.
  if (!(error instanceof OcsError)) throw error;
  process.stderr.write(`${error.name}: ${error.message}\n`);
  process.exitCode = 1;
}
