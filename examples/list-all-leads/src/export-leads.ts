/**
 * Exports every lead of the organization (or of one campaign) as CSV, one page of 100 at a
 * time. The paginator advances `offset` until `has_more` is false and keeps no page once
 * written, so memory stays flat however many leads there are; retries of 429 and 503 and
 * the deadline of each page are the SDK's.
 */
import { listLeads, paginate, type components, type OcsClient } from '@ocs/sdk';

type Lead = components['schemas']['Lead'];

const columns = ['id', 'email', 'first_name', 'last_name', 'company', 'title', 'created_at'] as const;

/** One CSV field: quoted when it holds a comma, a quote or a line break. */
const field = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const csvLine = (lead: Lead) => columns.map((column) => field(lead[column])).join(',');

export interface ExportOptions {
  /** Only the leads enrolled in this campaign. */
  campaignId?: string;
  /** Stops the export (between or during pages). */
  signal?: AbortSignal;
  /** Called after each page: progress, with the request ID to quote if something looks wrong. */
  onPage?: (progress: { written: number; total: number; requestId: string | undefined }) => void;
}

/**
 * Writes a header line and one line per lead; resolves to the number of leads written.
 *
 * @example
 * const client = createClient({ apiKey: process.env.OCS_API_KEY });
 * await exportLeads(client, (line) => process.stdout.write(`${line}\n`));
 */
export async function exportLeads(
  client: OcsClient,
  write: (line: string) => void,
  options: ExportOptions = {},
): Promise<number> {
  write(columns.join(','));
  let written = 0;
  const params = options.campaignId ? { campaign_id: options.campaignId } : {};
  for await (const page of paginate(client, listLeads, params, { pageSize: 100, signal: options.signal }).pages()) {
    for (const lead of page.items) write(csvLine(lead));
    written += page.items.length;
    options.onPage?.({ written, total: page.total, requestId: page.requestId });
  }
  return written;
}
