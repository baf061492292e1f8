/**
 * On the first start of an empty store, create the demo organization and print its API key
 * once: the key is never stored, so this is the only time it can be seen.
 */
import { seedDemoOrganization } from '../seed/demo.ts';
import type { Store } from '../store/types.ts';

/** The demo organization a first start made, and its key. */
export interface DemoOrganization {
  organizationId: string;
  apiKey: string;
}

/** What the printed `key create` command needs to open the same store. */
export interface StoreHint {
  /** Added to the command: `--data-dir <dir>`, `--database-url <url>`. */
  options: string;
  /** Said before the command, outside it, so that the command can be pasted as it is. */
  when?: string;
}

/**
 * The demo organization and its key, printed with `print`, or null when the store had an
 * organization already. `hint` completes the printed `key create` command. Without `print`
 * (`serve --json`), nothing is printed: the caller gives the key in its own output.
 */
export async function ensureDemoOrganization(
  store: Store,
  print?: (text: string) => void,
  hint: StoreHint = { options: '' },
): Promise<DemoOrganization | null> {
  const organizations = await store.organizations.list();
  if (organizations.length > 0) return null;
  const demo = await seedDemoOrganization(store);
  print?.(
    [
      '',
      'Created the demo organization "Demo Outreach" with members, connected sender accounts',
      'and a default pipeline. Its API key, shown this once (only a hash is stored):',
      '',
      `    ${demo.apiKey}`,
      '',
      `Lost it? Create another (works while the server runs${hint.when ? `; ${hint.when}` : ''}): npx ocs-server key create --org ${demo.organizationId}${hint.options}`,
      '',
    ].join('\n'),
  );
  return { organizationId: demo.organizationId, apiKey: demo.apiKey };
}
