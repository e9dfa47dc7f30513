/**
 * The command types and their parameters, read from the API's own OpenAPI document (`GET /api/v1/openapi.json`,
 * `CreateCommandRequest`: one schema per type): the "send command" form follows the API as it is served, so a new
 * type or parameter needs no change in the console.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxProperties?: number;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
}

export interface OpenApiDocument {
  components: { schemas: Record<string, JsonSchema> };
}

export interface CommandTypeForm {
  type: string;
  targetTypes: string[];
  /** The parameters' schema; null when the type takes none. */
  parameters: JsonSchema | null;
  parametersRequired: boolean;
  validForSeconds: JsonSchema | null;
}

/** Follows `$ref`s into components and picks the non-null branch of a nullable `oneOf`/`anyOf`. */
export function resolveSchema(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  let current: JsonSchema = schema ?? {};
  for (let depth = 0; depth < 20; depth += 1) {
    if (current.$ref) {
      current = document.components.schemas[current.$ref.replace('#/components/schemas/', '')] ?? {};
      continue;
    }
    const branches = (current.oneOf ?? current.anyOf)?.filter((branch) => branch.type !== 'null');
    if (branches && branches.length === 1) {
      current = { ...branches[0], description: current.description ?? branches[0].description };
      continue;
    }
    return current;
  }
  return current;
}

export function commandTypeForms(document: OpenApiDocument): CommandTypeForm[] {
  const request = document.components.schemas.CreateCommandRequest;
  return (request?.oneOf ?? []).flatMap((branch) => {
    const schema = resolveSchema(document, branch);
    const properties = schema.properties ?? {};
    const type = resolveSchema(document, properties.type).enum?.[0];
    if (typeof type !== 'string') return [];
    const parameters = resolveSchema(document, properties.parameters);
    const takesNone = parameters.maxProperties === 0 || !parameters.properties;
    return [
      {
        type,
        targetTypes: (resolveSchema(document, properties.target_type).enum ?? []).map(String),
        parameters: takesNone ? null : parameters,
        parametersRequired: (schema.required ?? []).includes('parameters'),
        validForSeconds: properties.valid_for_seconds
          ? resolveSchema(document, properties.valid_for_seconds)
          : null,
      },
    ];
  });
}

export function schemaType(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((entry) => entry !== 'null') : schema.type;
  return type ?? (schema.properties ? 'object' : 'string');
}

/** Form values are strings (and booleans); nested objects are nested records; arrays are JSON text. */
export type FormValue = string | boolean | { [name: string]: FormValue };

/**
 * The JSON the API wants from what was typed, by the schema: numbers as numbers, arrays parsed from JSON, empty
 * fields left out. What cannot be converted is left as typed, so the API's 422 names it.
 */
export function toRequestValue(
  document: OpenApiDocument,
  schema: JsonSchema,
  value: FormValue | undefined,
): unknown {
  const resolved = resolveSchema(document, schema);
  const type = schemaType(resolved);
  if (value === undefined) return undefined;
  if (type === 'object') {
    if (typeof value !== 'object') return undefined;
    const result: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(resolved.properties ?? {})) {
      const converted = toRequestValue(document, property, value[name]);
      if (converted !== undefined) result[name] = converted;
    }
    return Object.keys(result).length > 0 ? result : undefined;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  if (type === 'integer' || type === 'number') {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  if (type === 'array') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The allowed values of a property of a named schema (`CommandBody.status`, `LocationBody.status`, ...). */
export function enumOf(
  document: OpenApiDocument | undefined,
  schemaName: string,
  property: string,
): string[] {
  if (!document) return [];
  const schema = resolveSchema(document, document.components.schemas[schemaName]);
  const value = resolveSchema(document, schema.properties?.[property]);
  // A list's allowed values are those of its items (a webhook's event_types).
  const values = value.enum ?? (value.items ? resolveSchema(document, value.items).enum : undefined);
  return (values ?? []).map(String);
}
