/**
 * The access line as JSON, written without pino's general serializer: the one line every
 * request writes, always of the same shape, so its text can be put together directly. pino
 * spent about 5 µs on it (walking the entry, escaping each value, the ISO time), about 7 %
 * of a GET served at 13,000 a second; this takes about 1.7 µs (decision 0019). The line is
 * the one pino writes for `log({ level, message: 'request', ...fields })`: `level`, `time`,
 * the fields in order, `message` last. Strings go through `JSON.stringify`, which escapes
 * them as pino does.
 */
import type { AccessFields, LogLevel } from '../http/logger.ts';

export function accessLineJson(level: LogLevel, fields: AccessFields, time: Date): string {
  return (
    `{"level":"${level}","time":"${time.toISOString()}"` +
    `,"request_id":${JSON.stringify(fields.request_id)}` +
    `,"method":${JSON.stringify(fields.method)}` +
    `,"path":${JSON.stringify(fields.path)}` +
    `,"operation_id":${JSON.stringify(fields.operation_id)}` +
    `,"status":${JSON.stringify(fields.status)}` +
    `,"duration_ms":${JSON.stringify(fields.duration_ms)}` +
    `,"organization_id":${JSON.stringify(fields.organization_id)}` +
    `,"api_key_id":${JSON.stringify(fields.api_key_id)}` +
    `,"message":"request"}\n`
  );
}
