/**
 * What a resource method returns (`ocs.campaigns.get(params)`): a promise of the very
 * result of the function form, with `.withResponse()` and `.asResponse()` as Stainless SDKs
 * chain them; for a list operation, also the items of every page (`for await`), through
 * `paginate` (src/pagination.ts).
 *
 * The call starts in a microtask rather than at once, so that what is chained in the same
 * statement chooses what is sent: `.asResponse()` sends the request whose body it leaves
 * unread, and iteration sends the pages instead of the one-page call. A call never awaited
 * is still sent, as a promise's would be. Only `./index.ts` is imported: the built
 * `@ocs/sdk/resources` then loads the package entry for everything else (one copy of the
 * error classes, which `instanceof` needs; tsup.config.ts).
 */
import {
  asResponse,
  OcsError,
  paginate,
  withResponse,
  type OcsClient,
  type Operation,
  type PaginateOptions,
  type Paginator,
  type Page,
} from './index.ts';

type Loose = Record<string, unknown>;

/** A named operation's call, awaitable, with the raw `Response` at hand. */
export class OcsPromise<T> implements Promise<T> {
  #call: Promise<{ data: T; response: Response }> | undefined;
  #raw = false;
  #iterated = false;

  /** @internal */
  constructor(
    protected readonly client: OcsClient,
    protected readonly operation: Operation,
    protected readonly params?: Loose,
    protected readonly options?: Loose,
  ) {
    queueMicrotask(() => {
      if (!this.#raw && !this.#iterated) this.#result();
    });
  }

  #result(): Promise<{ data: T; response: Response }> {
    if (this.#raw) {
      return Promise.reject(new OcsError('This call was read with asResponse(): call the method again to await it.'));
    }
    // withResponse resolves to the result and the Response it was read from: the same
    // result as the function form, and withResponse() below needs no second request.
    this.#call ??= (withResponse as (...args: unknown[]) => Promise<{ data: T; response: Response }>)(
      this.operation,
      this.client,
      this.params,
      this.options,
    );
    return this.#call;
  }

  /** @internal Iteration takes the call's place: a one-page call already sent is let go. */
  protected iterate(): void {
    this.#iterated = true;
    // Its rejection is still seen by whoever awaits it, and unreported otherwise.
    this.#call?.catch(() => undefined);
  }

  then<Fulfilled = T, Rejected = never>(
    onfulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#result()
      .then(({ data }) => data)
      .then(onfulfilled, onrejected);
  }

  catch<Rejected = never>(
    onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<T | Rejected> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  readonly [Symbol.toStringTag] = 'OcsPromise';

  /**
   * The result and the `Response` it was read from (headers, status, URL), from the same
   * request as awaiting the call.
   *
   * @example
   * const { data, response } = await ocs.campaigns.get({ campaign_id }).withResponse();
   */
  withResponse(): Promise<{ data: T; response: Response }> {
    return this.#result();
  }

  /**
   * The `Response` of a 2xx answer, its body unread (an error answer throws the SDK's error).
   * Chain it on the call itself: once the call is under way, its body is being read.
   *
   * @example
   * const response = await ocs.leads.list({ campaign_id }).asResponse();
   */
  asResponse(): Promise<Response> {
    if (this.#call || this.#raw) {
      return Promise.reject(
        new OcsError(
          'asResponse() must be chained on the call itself: `await ocs.<group>.<method>(params).asResponse()`.',
        ),
      );
    }
    this.#raw = true;
    return (asResponse as (...args: unknown[]) => Promise<Response>)(
      this.operation,
      this.client,
      this.params,
      this.options,
    );
  }
}

/**
 * A list operation's call: awaited, one page (the function form's result); iterated, the
 * items of every page from `offset` on, `limit` a page (`for await`, `.pages()`,
 * `.toArray({ limit })`, or `.paginate({ maxItems })`). The options apply to each page's
 * request, but `requestId`: each page gets its own.
 */
export class ListPromise<T, Item> extends OcsPromise<T> implements Paginator<Item> {
  /**
   * The pages with more options: `maxItems` (stop after that many items), `pageSize`
   * (instead of `limit`), and any call option for each page's request.
   *
   * @example
   * for await (const lead of ocs.leads.list({ campaign_id }).paginate({ maxItems: 500 })) console.log(lead.email);
   */
  paginate(options: PaginateOptions = {}): Paginator<Item> {
    this.iterate();
    const { limit, page, ...params } = this.params ?? {};
    if (page !== undefined) {
      throw new OcsError('`page` picks one page: to iterate from a page on, pass `offset` instead.');
    }
    const callOptions = { ...this.options };
    delete callOptions.requestId;
    return paginate(this.client, this.operation as never, params as never, {
      pageSize: limit as number | undefined,
      ...callOptions,
      ...options,
    }) as Paginator<Item>;
  }

  [Symbol.asyncIterator](): AsyncIterator<Item> {
    return this.paginate()[Symbol.asyncIterator]();
  }

  pages(): AsyncGenerator<Page<Item>, void, undefined> {
    return this.paginate().pages();
  }

  toArray(options: { limit: number }): Promise<Item[]> {
    return this.paginate().toArray(options);
  }
}
