/**
 * The document check of every answer, as a list of what is wrong (empty: the answer is as
 * documented): `X-Request-ID` and `RateLimit-*` present, the status documented for the
 * operation (an unmatched path must be `404 NOT_FOUND`), the body valid against that
 * status's schema, and `Retry-After`, `Deprecation` and `Link` where documented (`Link`
 * matching its pattern). The API
 * tests assert it is empty (api.ts); the fuzzer counts it. No test runner is needed here.
 */
import {
  createSchemaValidator,
  type JsonObject,
  loadBundledDocument,
  operationsOf,
  responsesOf,
} from '@ocs/openapi/support';

const document = loadBundledDocument();
const validator = createSchemaValidator(document);
const operations = operationsOf(document)
  .filter((op) => op.section === 'paths')
  .map((op) => ({
    ...op,
    pattern: new RegExp(`^/v1${op.path.replaceAll(/\{\w+\}/g, '[^/]+')}$`),
    params: (op.path.match(/\{/g) ?? []).length,
  }))
  // Static segments win, as in the server's router.
  .sort((a, b) => a.params - b.params);

export function contractViolations(
  method: string,
  path: string,
  response: { status: number; headers: Headers },
  body: unknown,
): string[] {
  const violations: string[] = [];
  const pathname = path.split('?')[0] ?? path;
  const requestId = response.headers.get('x-request-id');
  if (!requestId || !/^[A-Za-z0-9._:-]{1,128}$/.test(requestId)) violations.push(`X-Request-ID is ${requestId}`);
  for (const header of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
    const value = response.headers.get(header);
    if (!value || !/^\d+$/.test(value)) violations.push(`${header} is ${value}`);
  }
  const operation = operations.find((op) => op.method === method.toLowerCase() && op.pattern.test(pathname));
  if (!operation) {
    // No operation matches: the answer must be the error body's 404 NOT_FOUND.
    if (response.status !== 404) violations.push(`unmatched path answered ${response.status}, not 404`);
    violations.push(...validator.validate('#/components/schemas/ErrorBody', body).errors);
    if ((body as JsonObject | undefined)?.error !== 'NOT_FOUND')
      violations.push('unmatched path: error is not NOT_FOUND');
    return violations;
  }
  const documented = responsesOf(document, operation).find((r) => r.status === String(response.status));
  if (!documented) return [...violations, `undocumented status ${response.status}`];
  const media = (documented.response.content as JsonObject | undefined)?.['application/json'];
  if (media) {
    const result = validator.validate(`${documented.pointer}/content/application~1json/schema`, body);
    violations.push(...result.errors.map((error) => `body: ${error}`));
  }
  const headers = (documented.response.headers as JsonObject | undefined) ?? {};
  for (const name of Object.keys(headers)) {
    if (['Retry-After', 'Deprecation', 'Link'].includes(name)) {
      const required = name !== 'Retry-After' || response.status === 429;
      const value = response.headers.get(name);
      if (required && !value) violations.push(`${name} missing`);
      // `Link` names the successor: its value must match the schema written beside it (a
      // header given by $ref is checked where it is defined, by its own tests).
      const schema = (headers[name] as JsonObject | undefined)?.schema;
      if (name === 'Link' && value && schema) {
        const result = validator.validate(`${documented.pointer}/headers/Link/schema`, value);
        violations.push(...result.errors.map((error) => `Link header ${JSON.stringify(value)}: ${error}`));
      }
    }
  }
  return violations;
}
