/**
 * The first half of an `Idempotency-Key`'s fingerprint (`http/idempotency.ts`): the digest of
 * the operation alone, which an erasure keeps when it drops the request's digest.
 */
import { sha256Hex } from './hash.ts';

export const operationDigest = (method: string, route: string): Promise<string> => sha256Hex(`${method} ${route}`);

/**
 * The keyed operation whose request holds a lead's data: `createLead`, single and batch
 * (`test/api/leads-erasure.test.ts` checks it against the operation table). A refusal of it
 * stores an answer that does not name the lead, so an erasure cannot tell whose data its
 * request held; it drops the request's digest of every such refusal of the organization.
 */
export const leadDataOperation = { method: 'POST', route: '/leads' } as const;

let leadDataDigest: Promise<string> | undefined;

/** `operationDigest` of `leadDataOperation`, computed once. */
export const leadDataOperationDigest = (): Promise<string> =>
  (leadDataDigest ??= operationDigest(leadDataOperation.method, leadDataOperation.route));
