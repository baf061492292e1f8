/**
 * What `mock.sandbox` throws when the application refuses a sandbox operation: the API's own
 * answer (status and error body), as `OcsMockSetupError` carries a refused fixture's, so that
 * a test sees the service's reason (`409 LEAD_NOT_CONTACTED`: advance the clock first).
 */
import type { ErrorBody, OperationId } from './api-types.ts';

export class OcsMockSandboxError extends Error {
  override name = 'OcsMockSandboxError';
  /** The API's error code (`LEAD_NOT_ENROLLED`, `CLOCK_BACKWARDS`...): `body.error`. */
  readonly code: string;
  /** The request's ID, as the answer's `X-Request-ID` and `body.request_id`. */
  readonly requestId: string;

  constructor(
    readonly operationId: OperationId,
    readonly status: number,
    /** The API's error body, as the service answered it. */
    readonly body: ErrorBody,
  ) {
    super(`@ocs/mock: mock.sandbox's ${operationId} answered ${status} ${body.error}: ${body.message}`);
    this.code = body.error;
    this.requestId = body.request_id;
  }
}
