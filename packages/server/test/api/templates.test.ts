/** `GET /sequence-templates` and its deprecated path: the same templates, usable as they are. */
import { expect, it } from 'vitest';
import { sequenceTemplates } from '../../src/domain/sequence-templates.ts';
import type { Sequence } from '../../src/store/records.ts';
import { createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

describeBackends('sequence templates', (store) => {
  it('lists the templates on both paths, the deprecated one with its headers', async () => {
    const api = await createTestApi(store());
    const current = await api.call<{ templates: unknown[] }>('GET', '/v1/sequence-templates');
    expect(current.status).toBe(200);
    expect(current.body).toEqual({ success: true, templates: sequenceTemplates });
    expect(current.headers.get('deprecation')).toBeNull();
    const legacy = await api.call('GET', '/v1/campaigns/sequence-templates');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(current.body);
    expect(legacy.headers.get('deprecation')).toBe('true');
    expect(legacy.headers.get('link')).toBe('</v1/sequence-templates>; rel="successor-version"');
  });

  it('gives sequences that create a campaign as they are', async () => {
    const api = await createTestApi(store());
    const { body } = await api.call<{ templates: Array<{ sequence: Sequence }> }>('GET', '/v1/sequence-templates');
    for (const template of body.templates) {
      const created = await api.call('POST', '/v1/campaigns', {
        body: { name: 'From template', sequence: template.sequence },
      });
      expect(created.status).toBe(201);
    }
  });
});
