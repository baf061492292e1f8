/**
 * JSON Schema 2020-12 validation of values against schemas of the OpenAPI 3.1 document
 * (OpenAPI 3.1 schemas are JSON Schema 2020-12). Schemas are addressed by JSON pointer into
 * the document, so `$ref`s between components resolve as they do in the document.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Json, JsonObject } from './document.ts';

export interface SchemaValidator {
  /** Validates `value` against the schema at `pointer` (`#/components/schemas/Campaign`). */
  validate(pointer: string, value: unknown): { valid: boolean; errors: string[] };
}

const documentId = 'urn:ocs:openapi';

export function createSchemaValidator(document: JsonObject): SchemaValidator {
  // OpenAPI adds keywords of its own (`example`, `x-*`): strict mode would refuse them.
  // The schemas' structure is checked by the Redocly lint, so strictness is not lost here.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...(document as object), $id: documentId } as object);
  const cache = new Map<string, ValidateFunction>();
  return {
    validate(pointer, value) {
      let validate = cache.get(pointer);
      if (!validate) {
        validate = ajv.compile({ $ref: `${documentId}${pointer}` });
        cache.set(pointer, validate);
      }
      const valid = validate(value) as boolean;
      return { valid, errors: valid ? [] : formatErrors(validate.errors ?? []) };
    },
  };
}

function formatErrors(errors: ErrorObject[]): string[] {
  return errors.map(
    (error) => `${error.instancePath || '(root)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  );
}

export type { Json };
