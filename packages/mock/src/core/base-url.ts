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
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) path = `${path}/v1`;
  return { href: `${url.origin}${path}`, origin: url.origin, path };
}
