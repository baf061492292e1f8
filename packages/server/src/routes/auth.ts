/** Tag Auth: `GET /auth/verify`. */
import { toApiTime } from '../domain/clock.ts';
import type { PartialHandlers } from './registry.ts';

export const authHandlers: PartialHandlers = {
  async verifyAuth({ auth }) {
    return {
      status: 200,
      body: {
        success: true,
        message: 'API key is valid',
        organization: { id: auth.organization.id, name: auth.organization.name },
        key: {
          prefix: auth.key.prefix,
          scopes: auth.key.scopes,
          expires_at: toApiTime(auth.key.expires_at),
          created_at: toApiTime(auth.key.created_at),
        },
      },
    };
  },
};
