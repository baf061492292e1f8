/**
 * Types of `mock.data`: read-only all the way down, as it is at runtime (deep-frozen, so
 * that no test changes the seeded state for the next one). Checked by `npm run lint` (tsc);
 * nothing here runs.
 */
import type { components } from '@ocs/sdk/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { MockServer, OcsMock, OcsMockData, OcsMockDataCopy } from '../src/node/index.ts';

declare const mock: OcsMock;
declare const server: MockServer;
/** An element, typed as present: each assignment below is refused for being read-only alone. */
declare function first<T>(list: readonly T[]): T;
type Schemas = components['schemas'];

describe('mock.data', () => {
  it('refuses assignment at every level, in every mock', () => {
    for (const data of [mock.data, server.data]) {
      // @ts-expect-error read-only, as deep-frozen
      data.apiKey = 'ocs_other';
      // @ts-expect-error read-only, as deep-frozen
      data.organization.name = 'Other';
      // @ts-expect-error read-only, as deep-frozen
      data.organization.members[0] = first(data.organization.members);
      // @ts-expect-error read-only, as deep-frozen
      first(data.organization.members).email = 'x@example.com';
      // @ts-expect-error read-only, as deep-frozen
      first(data.campaigns).name = 'Renamed';
      // @ts-expect-error read-only, as deep-frozen
      data.campaigns = [];
      // @ts-expect-error read-only, as deep-frozen
      first(data.leads).email = 'x@example.com';
      // @ts-expect-error read-only, as deep-frozen
      first(first(data.leads).enrolments).status = 'active';
      // @ts-expect-error read-only, as deep-frozen
      first(data.pipeline.stages).name = 'Won';
      // @ts-expect-error read-only, as deep-frozen
      first(data.stages).position = 2;
      // @ts-expect-error read-only, as deep-frozen
      first(data.accounts).label = 'Other';
      // @ts-expect-error read-only, as deep-frozen
      first(data.webhooks).secret = 'other-secret-0123456789';
      // @ts-expect-error no mutating method on its arrays
      data.leads.sort();
      // @ts-expect-error no mutating method on its arrays
      data.campaigns.push(first(data.campaigns));
      // @ts-expect-error no mutating method on its arrays
      data.organization.members.splice(0, 1);
    }
  });

  it('reads as the API shapes, and a copy is the caller own to change', () => {
    expectTypeOf(first(mock.data.campaigns).name).toEqualTypeOf<Schemas['Campaign']['name']>();
    expectTypeOf(first(mock.data.leads).email).toEqualTypeOf<Schemas['Lead']['email']>();
    expectTypeOf(server.data).toEqualTypeOf<OcsMockData>();
    expectTypeOf(mock.data).toEqualTypeOf<OcsMockData>();
    const sorted = [...mock.data.leads].sort((a, b) => a.id.localeCompare(b.id));
    sorted.push(first(mock.data.leads));
    expectTypeOf(structuredClone(mock.data)).toEqualTypeOf<OcsMockData>();
    // A copy typed as yours to change.
    const copy = structuredClone(mock.data) as OcsMockDataCopy;
    copy.leads.sort((a, b) => a.id.localeCompare(b.id));
    first(copy.campaigns).name = 'Renamed';
  });
});
