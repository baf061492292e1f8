/**
 * `@ocs/sdk/webhooks/fastify` over real HTTP on Fastify 5: the plugin reads bodies raw in its
 * own scope (the application's JSON routes keep their parser), and the route handler refuses
 * a body Fastify parsed, saying what to change.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import {
  createFastifyHandler,
  createFastifyPlugin,
  type FastifyPluginOptions,
} from '../src/webhooks/receivers/fastify.ts';
import { deliver, freshEvent, receiverContract, secret, type StartReceiver } from './support/receiver-contract.ts';

async function listen(app: FastifyInstance, path = '/webhooks/ocs') {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${address}${path}`, close: () => app.close() };
}

const withPlugin = async (options: Omit<FastifyPluginOptions, 'path'>) => {
  const app = Fastify();
  await app.register(createFastifyPlugin({ ...options, path: '/webhooks/ocs' }));
  return listen(app);
};

describe('createFastifyPlugin', () => {
  receiverContract(withPlugin as StartReceiver);

  it('keeps the raw body to its own scope: the application’s JSON routes still get parsed bodies', async () => {
    const app = Fastify();
    app.post('/api/echo', async (request) => ({ parsed: request.body }));
    await app.register(createFastifyPlugin({ path: '/hooks', secret, onEvent: () => {} }), { prefix: '/v2' });
    const { url, close } = await listen(app, '/v2/hooks');
    try {
      expect(await (await deliver(url, freshEvent())).json()).toEqual({ status: 'handled' });
      const echo = await fetch(url.replace('/v2/hooks', '/api/echo'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(await echo.json()).toEqual({ parsed: { a: 1 } });
    } finally {
      await close();
    }
  });

  it('refuses a path that is not one when it is made', () => {
    expect(() => createFastifyPlugin({ secret, onEvent: () => {} } as unknown as FastifyPluginOptions)).toThrow(
      /path: expected the route's path/,
    );
  });
});

describe('createFastifyHandler', () => {
  it('on a route whose body Fastify parsed as JSON: 500 parsed_body saying what to change', async () => {
    const onEvent = vi.fn();
    const app = Fastify();
    app.post('/webhooks/ocs', createFastifyHandler({ secret, onEvent, onError: () => {} }));
    const { url, close } = await listen(app);
    try {
      const response = await deliver(url, freshEvent());
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({
        reason: 'parsed_body',
        message: expect.stringMatching(/Fastify parsed the body.*createFastifyPlugin/),
      });
      expect(onEvent).not.toHaveBeenCalled();
    } finally {
      await close();
    }
  });

  describe('on a route with a raw content-type parser of the application’s own', () => {
    receiverContract((async (options) => {
      const app = Fastify();
      app.removeAllContentTypeParsers();
      app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      app.post('/webhooks/ocs', createFastifyHandler(options));
      return listen(app);
    }) as StartReceiver);
  });
});
