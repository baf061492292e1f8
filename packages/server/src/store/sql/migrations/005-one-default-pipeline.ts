/**
 * At most one default pipeline per organization, even under concurrent updates: the rule
 * "exactly one active default pipeline" is checked by `PATCH /crm/pipelines/{id}`, and this
 * index keeps two concurrent "make default" requests from both succeeding.
 */
export const migration005 = {
  version: 5,
  name: 'one-default-pipeline',
  sql: /* sql */ `
create unique index pipelines_one_default on pipelines (organization_id) where is_default;
`,
};
