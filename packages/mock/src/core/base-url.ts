/** The mock's base URL: the API's, ending in `/v1`, as clients and the document write it. */
export const defaultBaseUrl = 'https://api.ocs.test/v1';

export interface BaseUrl {
  /** `https://api.ocs.test/v1`: no trailing slash. */
  href: string;
  origin: string;
  /** The path of `href`: `/v1`, or `/ocs/v1` behind a prefix. */
  path: string;
}

export function parseBaseUrl(value: string = defaultBaseUrl): BaseUrl {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`@ocs/mock: baseUrl must be an absolute URL such as ${defaultBaseUrl}, got "${value}".`);
  }
  // What a base URL cannot hold: clients call http(s), and put their own query on each call.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`@ocs/mock: baseUrl must be an http:// or https:// URL, got "${value}".`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError(
      `@ocs/mock: baseUrl must have no query, fragment or credentials (a client sends them with each request, not in its base URL), got "${value}".`,
    );
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) path = `${path}/v1`;
  return { href: `${url.origin}${path}`, origin: url.origin, path };
}
