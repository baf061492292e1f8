/**
 * Generates `packages/sdk/src/generated/resources.ts`: the resource groups of `Ocs`
 * (`ocs.campaigns.create(...)`), each operation of the document once, under its first tag.
 * The rule (docs/decisions/0014-resource-groups.md):
 *
 * - the group is the tag in camelCase (`AI fields` -> `aiFields`, `CRM` -> `crm`);
 * - the method is the `operationId` without the tag's noun, plural or singular, after its
 *   verb (`listCampaigns` -> `list`, `createAiField` -> `create`, `setWebhookSecret` ->
 *   `setSecret`), or the whole `operationId` when it does not name the tag (`listDeals`);
 * - `x-sdk-method` on an operation names its method instead.
 *
 * The generator refuses an operation without a tag, a method name used twice in a group, an
 * `x-sdk-method` that is not a camelCase name, and names the runtime needs for itself.
 */
import { collectOperations, doc, exampleLines, type Json, type Operation, wrap } from './operations.ts';

/** Names a group cannot take: `Ocs`'s own member, and `then` (an `Ocs` would be awaitable). */
const reservedGroups = new Set(['client', 'then', 'constructor']);
/** `then` would make a group object awaitable. */
const reservedMethods = new Set(['then']);

export interface ResourceMethod {
  name: string;
  operation: Operation;
}

export interface ResourceGroup {
  name: string;
  tag: string;
  description: string;
  methods: ResourceMethod[];
}

/** `listSequenceTemplates` -> `list`, `Sequence`, `Templates`. */
const camelWords = (text: string) => text.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [];
const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
const singular = (word: string) => word.replace(/ies$/, 'y').replace(/([^s])s$/, '$1');

/** The tag's words, capitalized: `AI fields` -> `Ai`, `Fields`. */
const tagWords = (tag: string) =>
  tag
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map(capitalize);

export function groupName(tag: string): string {
  const [first = '', ...rest] = tagWords(tag);
  return first.toLowerCase() + rest.join('');
}

/** The `operationId` without the tag's noun after its verb; unchanged when it has none. */
export function methodName(operationId: string, tag: string): string {
  const words = camelWords(operationId);
  const plural = tagWords(tag).map((word) => word.toLowerCase());
  const nouns = [plural, [...plural.slice(0, -1), singular(plural.at(-1) ?? '')]];
  for (let at = 1; at < words.length; at++) {
    for (const noun of nouns) {
      const here = words.slice(at, at + noun.length).map((word) => word.toLowerCase());
      if (here.length === noun.length && here.every((word, i) => word === noun[i])) {
        const rest = [...words.slice(0, at), ...words.slice(at + noun.length)];
        return rest.join('');
      }
    }
  }
  return operationId;
}

export function collectResourceGroups(document: Json): ResourceGroup[] {
  const described = new Map(
    ((document.tags as Json[] | undefined) ?? []).map((tag) => [String(tag.name), String(tag.description ?? '')]),
  );
  const groups = new Map<string, ResourceGroup>();
  // The document's order of tags first, then any tag it uses without describing.
  for (const [tag, description] of described) {
    groups.set(tag, { name: groupName(tag), tag, description, methods: [] });
  }
  for (const operation of collectOperations(document)) {
    const tag = (operation.op.tags as string[] | undefined)?.[0];
    if (!tag)
      throw new Error(`${operation.id} has no tag: the SDK's resource groups follow each operation's first tag.`);
    const override = operation.op['x-sdk-method'];
    if (override !== undefined && (typeof override !== 'string' || !/^[a-z][A-Za-z0-9]*$/.test(override))) {
      throw new Error(`${operation.id}: x-sdk-method must be a camelCase name, got ${JSON.stringify(override)}`);
    }
    const name = override ?? methodName(operation.id, tag);
    const group = groups.get(tag) ?? { name: groupName(tag), tag, description: '', methods: [] };
    groups.set(tag, group);
    if (reservedMethods.has(name)) throw new Error(`${operation.id}: "${name}" cannot be a resource method's name.`);
    const taken = group.methods.find((method) => method.name === name);
    if (taken) {
      throw new Error(
        `${group.name}.${name} would be both ${taken.operation.id} and ${operation.id}: name one with x-sdk-method in the document.`,
      );
    }
    group.methods.push({ name, operation });
  }
  const used = [...groups.values()].filter((group) => group.methods.length > 0);
  const names = new Map<string, string>();
  for (const group of used) {
    if (reservedGroups.has(group.name) || !/^[a-z][A-Za-z0-9]*$/.test(group.name)) {
      throw new Error(`The tag "${group.tag}" gives the group name "${group.name}", which the SDK cannot use.`);
    }
    const before = names.get(group.name);
    if (before) throw new Error(`The tags "${before}" and "${group.tag}" both give the group name "${group.name}".`);
    names.set(group.name, group.tag);
  }
  return used;
}

const indent = (lines: string[], by: string) => lines.map((line) => (line ? `${by}${line}` : by.trimEnd()));
const block = (lines: string[]) => ['/**', ...lines.map((line) => (line ? ` * ${line}` : ' *')), ' */'];

function methodDoc(document: Json, group: ResourceGroup, method: ResourceMethod, byId: Map<string, string>): string[] {
  const { operation } = method;
  const lines = wrap(doc(String(operation.op.summary ?? operation.id)).replace(/\.?$/, '.'), 90);
  const facts = [
    `\`${operation.method} ${operation.path}\`: the same call as \`${operation.id}(client, ...)\` of \`@ocs/sdk\`, with the same params, options and result.`,
  ];
  if (operation.itemsKey) {
    facts.push(
      `Await it for one page; iterate it (\`for await\`, \`.pages()\`, \`.toArray({ limit })\`) for the \`${operation.itemsKey}\` of every page.`,
    );
  }
  lines.push('', ...wrap(facts.join(' '), 90));
  if (operation.successor) {
    lines.push(
      '',
      ...wrap(
        `@deprecated Use \`ocs.${byId.get(operation.successor.id)}\` (\`${operation.successor.route}\`), its successor.`,
        90,
      ),
    );
  }
  const form = {
    call: (args: string[]) => `ocs.${group.name}.${method.name}(${args.join(', ')})`,
    iterate: `ocs.${group.name}.${method.name}()`,
  };
  lines.push('', '@example', ...exampleLines(document, operation, form));
  return block(lines);
}

export function generateResourcesModule(document: Json): string {
  const groups = collectResourceGroups(document);
  const byId = new Map(
    groups.flatMap((group) => group.methods.map((method) => [method.operation.id, `${group.name}.${method.name}`])),
  );
  const ids = groups.flatMap((group) => group.methods.map((method) => method.operation.id));
  const body = groups.flatMap((group) => [
    ...indent(block(wrap(`${doc(group.description.split(/(?<=\.)\s/)[0] ?? '')} Tag \`${group.tag}\`.`, 90)), '  '),
    `  ${group.name}: {`,
    ...group.methods.flatMap((method) => [
      ...indent(methodDoc(document, group, method, byId), '    '),
      method.name === method.operation.id ? `    ${method.name},` : `    ${method.name}: ${method.operation.id},`,
    ]),
    '  },',
  ]);
  return [
    `// ${ids.length} operations in ${groups.length} resource groups, one per tag: \`ocs.<group>.<method>(params?, options?)\``,
    '// of `Ocs` (src/resources.ts), each the very function of src/generated/operations.ts. The',
    '// names follow the rule of scripts/generate/resources.ts (docs/decisions/0014-resource-groups.md).',
    '// Imported through the package entry, so that `@ocs/sdk/resources` shares its runtime.',
    `import {\n${ids.map((id) => `  ${id},`).join('\n')}\n} from '../index.ts';`,
    '',
    '/** Every operation, by resource group and method name. */',
    `export const resourceGroups = {\n${body.join('\n')}\n};`,
    '',
  ].join('\n');
}
