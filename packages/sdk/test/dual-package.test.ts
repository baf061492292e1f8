/**
 * The dual package hazard: one Node process that loads `@ocs/sdk` both with `require` (the
 * CommonJS build) and with `import` (the ESM build) holds two copies of every class. An error
 * thrown by one copy must pass `instanceof` with the class of the other, along the class
 * hierarchy and no further (src/brand.ts). Runs the built package (`npm test` builds first)
 * in a child process, as an application would load it: by name, through `exports`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';

const pkgDir = join(import.meta.dirname, '..');

beforeAll(() => {
  if (!existsSync(join(pkgDir, 'dist', 'index.cjs'))) {
    throw new Error('dist/ is missing: run `npm run build -w @ocs/sdk` (npm test builds first).');
  }
});

/** What the child process checks: each `[label, value]` pair is printed as one JSON object. */
const script = String.raw`
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const cjs = require('@ocs/sdk');
const esm = await import('@ocs/sdk');
const out = {};
const check = (label, value) => { out[label] = value; };

check('two copies', cjs.OcsApiError !== esm.OcsApiError);

const apiKey = 'ocs_test_0123456789';
const answer = (status, body) => async () =>
  new Response(JSON.stringify(body), { status, headers: { 'X-Request-ID': 'req_dual' } });
const notFound = { success: false, error: 'CAMPAIGN_NOT_FOUND', message: 'No such campaign.', request_id: 'req_dual' };
const thrown = async (sdk, status, body) =>
  sdk.getCampaign(sdk.createClient({ apiKey, baseUrl: 'http://ocs.test', fetch: answer(status, body), maxRetries: 0 }), {
    campaign_id: '3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14',
  }).catch((error) => error);

// Errors thrown by one build's client, checked with the other build's classes.
for (const [from, to, name] of [[cjs, esm, 'cjs->esm'], [esm, cjs, 'esm->cjs']]) {
  const error = await thrown(from, 404, notFound);
  check(name + ' thrown by', error.constructor === from.OcsNotFoundError);
  check(name + ' OcsNotFoundError', error instanceof to.OcsNotFoundError);
  check(name + ' OcsApiError', error instanceof to.OcsApiError);
  check(name + ' OcsError', error instanceof to.OcsError);
  check(name + ' Error', error instanceof Error);
  check(name + ' not OcsConflictError', error instanceof to.OcsConflictError);
  check(name + ' not OcsConnectionError', error instanceof to.OcsConnectionError);
  const parent = await thrown(from, 418, { success: false, error: 'VALIDATION_ERROR', message: 'x' });
  check(name + ' parent is OcsApiError', parent instanceof to.OcsApiError);
  check(name + ' parent is not OcsNotFoundError', parent instanceof to.OcsNotFoundError);
  const timeout = await from
    .getCampaign(from.createClient({ apiKey, baseUrl: 'http://ocs.test', fetch: () => new Promise(() => {}), timeoutMs: 60 }), {
      campaign_id: 'c',
    })
    .catch((error) => error);
  check(name + ' OcsTimeoutError', timeout instanceof to.OcsTimeoutError && timeout instanceof to.OcsError);
  check(name + ' timeout not OcsApiError', timeout instanceof to.OcsApiError);
  check(name + ' name', error.name + ' ' + timeout.name);
}

// Every exported error class, constructed by one build, checked with the other's.
const names = Object.keys(cjs).filter((name) => /^Ocs\w*Error$/.test(name));
check('classes', names.length);
// The API errors' arguments: the others take the Response as their message, which is harmless.
const make = (Class) => new Class(new Response('{}', { status: 400 }), {});
// For every pair of classes, across builds, instanceof says what the prototype chain says
// within one build: a class matches its own instances and its subclasses', no other.
const disagree = [];
for (const a of names) {
  for (const b of names) {
    const expected = esm[b].prototype.isPrototypeOf(make(esm[a]));
    if ((make(cjs[a]) instanceof esm[b]) !== expected || (make(esm[a]) instanceof cjs[b]) !== expected) disagree.push(a + ' / ' + b);
  }
}
check('pairs that disagree with the prototype chain', disagree);
check('OcsNotFoundError ancestors', names.filter((b) => make(cjs.OcsNotFoundError) instanceof esm[b]).sort());

// A user's subclass: its instances are the SDK's too; the SDK's are not its.
class MyError extends esm.OcsApiError {}
const mine = new MyError(new Response('{}', { status: 400 }), {});
check('subclass instance is cjs OcsApiError', mine instanceof cjs.OcsApiError);
check('subclass instance is MyError', mine instanceof MyError);
check('cjs OcsApiError is not MyError', make(cjs.OcsApiError) instanceof MyError);
check('esm OcsApiError is not MyError', make(esm.OcsApiError) instanceof MyError);
check('non-errors', [null, undefined, 0, '', 'x', {}, [], new Error('x')].some((value) => value instanceof esm.OcsError));

// The webhooks' error classes: the verifier's and the receivers' builds.
const hooksCjs = require('@ocs/sdk/webhooks');
const hooksEsm = await import('@ocs/sdk/webhooks');
const receiverCjs = require('@ocs/sdk/webhooks/node');
const receiverEsm = await import('@ocs/sdk/webhooks/node');
const refused = await hooksCjs
  .verifyAndParse({ payload: '{}', signature: 'sha256=' + '0'.repeat(64) }, { secret: 'it-is-a-secret-0123' })
  .catch((error) => error);
check('webhook reason', refused.reason);
check('webhook cjs->esm', refused instanceof hooksEsm.WebhookVerificationError);
check('webhook cjs->esm receivers', refused instanceof receiverEsm.WebhookVerificationError);
check('webhook esm->cjs', new hooksEsm.WebhookVerificationError('invalid_json', 'm') instanceof hooksCjs.WebhookVerificationError);
check('webhook cjs receivers copy', refused instanceof receiverCjs.WebhookVerificationError);
check('webhook is not OcsError', refused instanceof esm.OcsError);
check('webhook same copy', refused instanceof hooksCjs.WebhookVerificationError);
check('webhook name', refused.name);
check('receiver cjs->esm', new receiverCjs.WebhookReceiverError('in_flight', 409, 'm') instanceof receiverEsm.WebhookReceiverError);
check('receiver is not WebhookVerificationError', new receiverCjs.WebhookReceiverError('in_flight', 409, 'm') instanceof hooksEsm.WebhookVerificationError);
check('Error is not WebhookVerificationError', new Error('m') instanceof hooksEsm.WebhookVerificationError);
class MyHookError extends hooksEsm.WebhookVerificationError {}
check('webhook subclass', [
  new MyHookError('invalid_json', 'm') instanceof hooksCjs.WebhookVerificationError,
  refused instanceof MyHookError,
]);

// A result of one build read with the other's resultMeta.
const result = await cjs.getCampaign(
  cjs.createClient({ apiKey, baseUrl: 'http://ocs.test', fetch: answer(200, { success: true, campaign: {} }) }),
  { campaign_id: 'c' },
);
check('resultMeta across builds', [esm.resultMeta(result).status, esm.resultMeta(result).requestId]);

console.log(JSON.stringify(out));
`;

it('instanceof works between the CommonJS and ESM builds, along the class hierarchy only', () => {
  const output = execFileSync(process.execPath, ['--input-type=module', '--eval', script], {
    cwd: pkgDir,
    encoding: 'utf8',
  });
  const seen = JSON.parse(output) as Record<string, unknown>;
  const both = (name: string) => ({
    [`${name} thrown by`]: true,
    [`${name} OcsNotFoundError`]: true,
    [`${name} OcsApiError`]: true,
    [`${name} OcsError`]: true,
    [`${name} Error`]: true,
    [`${name} not OcsConflictError`]: false,
    [`${name} not OcsConnectionError`]: false,
    [`${name} parent is OcsApiError`]: true,
    [`${name} parent is not OcsNotFoundError`]: false,
    [`${name} OcsTimeoutError`]: true,
    [`${name} timeout not OcsApiError`]: false,
    // The names survive (they are the classes' brands).
    [`${name} name`]: 'OcsNotFoundError OcsTimeoutError',
  });
  expect(seen).toEqual({
    'two copies': true,
    ...both('cjs->esm'),
    ...both('esm->cjs'),
    classes: 14,
    'pairs that disagree with the prototype chain': [],
    'OcsNotFoundError ancestors': ['OcsApiError', 'OcsError', 'OcsNotFoundError'],
    'subclass instance is cjs OcsApiError': true,
    'subclass instance is MyError': true,
    'cjs OcsApiError is not MyError': false,
    'esm OcsApiError is not MyError': false,
    'non-errors': false,
    'webhook reason': 'signature_mismatch',
    // WebhookVerificationError has no brand (issue 12's size budget of verifyAndParse, see
    // src/webhooks/errors.ts): instanceof holds within one copy only, and its name across them.
    'webhook cjs->esm': false,
    'webhook cjs->esm receivers': false,
    'webhook esm->cjs': false,
    'webhook cjs receivers copy': false,
    'webhook same copy': true,
    'webhook name': 'WebhookVerificationError',
    'webhook is not OcsError': false,
    'receiver cjs->esm': true,
    'receiver is not WebhookVerificationError': false,
    'Error is not WebhookVerificationError': false,
    'webhook subclass': [false, false],
    'resultMeta across builds': [200, 'req_dual'],
  });
}, 30_000);
