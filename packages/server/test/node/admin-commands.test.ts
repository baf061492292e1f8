/** What `checkAdminCommand` makes of `key create --expires-at`: strict ISO 8601, in the future, canonical. */
import { expect, it } from 'vitest';
import { checkAdminCommand } from '../../src/node/admin-commands.ts';

const organizationId = '00000000-0000-4000-8000-000000000000';

it('takes a date-time with an offset, or a date, in the future, in canonical form', () => {
  for (const [given, stored] of [
    ['2099-01-31T12:00:00+02:00', '2099-01-31T10:00:00.000Z'],
    ['2099-01-31', '2099-01-31T00:00:00.000Z'],
  ]) {
    expect(checkAdminCommand({ command: 'key create', organizationId, expiresAt: given })).toMatchObject({
      expiresAt: stored,
    });
  }
});

it('refuses what new Date() would have stretched into a date, and the past', () => {
  for (const given of ['90', '1', '2099-02-30', '2099-01-31T10:00:00', '']) {
    expect(() => checkAdminCommand({ command: 'key create', organizationId, expiresAt: given })).toThrow(
      /--expires-at must be an ISO 8601/,
    );
  }
  const past = new Date(Date.now() - 60_000).toISOString();
  expect(() => checkAdminCommand({ command: 'key create', organizationId, expiresAt: past })).toThrow(
    /--expires-at must be in the future/,
  );
});
