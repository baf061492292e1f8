/** Types of the generated zod schemas: the document's types, with extensible enums open. */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { components, operations } from '../src/generated/openapi.ts';
import type {
  AiResponse,
  Campaign,
  CampaignInput,
  LeadInput,
  ProspectResponseEvent,
  requestBodySchemas,
  responseSchemas,
  SequenceStep,
  successResponseSchemas,
} from '../src/zod.ts';
import type { ResponseValidator } from '../src/client.ts';

describe('@ocs/sdk/zod types', () => {
  it('infer the event as the document types it (assignable both ways)', () => {
    type Parsed = z.output<typeof ProspectResponseEvent>;
    type Documented = components['schemas']['ProspectResponseEvent'];
    expectTypeOf<Parsed>().toExtend<Documented>();
    expectTypeOf<Documented>().toExtend<Parsed>();
    expectTypeOf<ProspectResponseEvent>().toEqualTypeOf<Parsed>();
  });

  it('type x-extensible-enum fields as known values or any string', () => {
    type Status = NonNullable<AiResponse['conversation_status']>;
    expectTypeOf<'closed_won'>().toExtend<Status>();
    expectTypeOf<'a value added later'>().toExtend<Status>();
    expectTypeOf<Status>().toExtend<string>();
  });

  it('type closed enums as their values only', () => {
    expectTypeOf<ProspectResponseEvent['channel']>().toEqualTypeOf<'email' | 'linkedin'>();
    expectTypeOf<SequenceStep['type']>().toEqualTypeOf<
      'view_profile' | 'linkedin_connection' | 'conditional' | 'linkedin_message' | 'email'
    >();
  });

  it('keep unknown keys in loose objects only', () => {
    expectTypeOf<ProspectResponseEvent>().toHaveProperty('any_new_field');
    expectTypeOf<z.output<typeof CampaignInput>>().not.toHaveProperty('any_new_field');
    expectTypeOf<LeadInput>().not.toHaveProperty('any_new_field');
  });

  it('type response and request body schemas as the document types them', () => {
    type GetCampaign = operations['getCampaign']['responses'][200]['content']['application/json'];
    expectTypeOf<z.output<(typeof responseSchemas)['getCampaign'][200]>>().toEqualTypeOf<GetCampaign>();
    type Unauthorized = z.output<(typeof responseSchemas)['getCampaign'][401]>;
    expectTypeOf<Unauthorized['error']>().toEqualTypeOf<'UNAUTHORIZED' | 'API_KEY_EXPIRED'>();
    type CreateCampaign = NonNullable<operations['createCampaign']['requestBody']>['content']['application/json'];
    expectTypeOf<z.output<(typeof requestBodySchemas)['createCampaign']>>().toEqualTypeOf<CreateCampaign>();
  });

  it('fit the client option validate', () => {
    expectTypeOf<typeof successResponseSchemas>().toExtend<ResponseValidator>();
    type CreateLead = operations['createLead']['responses'][200 | 201 | 207]['content']['application/json'];
    expectTypeOf<z.output<(typeof successResponseSchemas)['createLead']>>().toEqualTypeOf<CreateLead>();
  });

  it('fill in documented defaults, as the document types promise', () => {
    expectTypeOf<z.output<typeof Campaign>['description']>().toEqualTypeOf<string | null>();
  });
});
