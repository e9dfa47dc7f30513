import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
  components?: { schemas?: Record<string, unknown> };
}

/** The template matching `pathname`; of several (`{uuid}` and `{uuid}:test`), the one with the most literal text. */
function matchPathTemplate(document: OpenApiDocument, pathname: string): string | undefined {
  const literalLength = (template: string) => template.replace(/\{[^}]+\}/g, '').length;
  const matching = Object.keys(document.paths).filter((template) => {
    const pattern = new RegExp(
      `^${template
        .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
        .replace(/\\?\{[^}]+\\?\}/g, '[^/]+')
        .replace(/\{[^}]+\}/g, '[^/]+')}$`,
    );
    return pattern.test(pathname);
  });
  return matching.sort((a, b) => literalLength(b) - literalLength(a))[0];
}

/**
 * Checks HTTP responses against the API's own OpenAPI 3.1 document: the operation, the documented status and the
 * JSON schema of the body. End-to-end tests call it on every response they receive.
 */
export class OpenApiResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  /**
   * The compiled schema of each documented response (`<method> <template> <status>`): compiling is the costly part,
   * and the tests receive the same responses many times (every poll of `eventually` is one).
   */
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
    this.ajv.addSchema({ $id: 'openapi.json', components: document.components ?? {} });
  }

  static async fetch(apiUrl: string): Promise<OpenApiResponseValidator> {
    const response = await fetch(`${apiUrl}/api/v1/openapi.json`);
    return new OpenApiResponseValidator((await response.json()) as OpenApiDocument);
  }

  /** Throws with a readable reason when the response is not what the document promises. */
  validate(method: string, url: string, status: number, body: unknown): void {
    const pathname = new URL(url, 'http://localhost').pathname;
    const template = matchPathTemplate(this.document, pathname);
    if (!template) {
      if (status === 404 || status === 405) return; // unknown routes are not in the document by definition
      throw new Error(`${method} ${pathname}: no such path in the OpenAPI document`);
    }
    const operation = this.document.paths[template][method.toLowerCase()];
    if (!operation) {
      if (status === 405) return;
      throw new Error(`${method} ${template}: no such operation in the OpenAPI document`);
    }
    const response = operation.responses?.[String(status)];
    if (!response) throw new Error(`${method} ${template}: status ${status} is not documented`);
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      if (
        body !== undefined &&
        body !== '' &&
        !(typeof body === 'object' && body !== null && Object.keys(body).length === 0)
      ) {
        throw new Error(`${method} ${template} ${status}: a body was returned where none is documented`);
      }
      return;
    }
    const key = `${method.toLowerCase()} ${template} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile({
        $ref: '#/$defs/response',
        $defs: { response: this.rewriteRefs(schema) },
      });
      this.compiled.set(key, validate);
    }
    if (!validate(body)) {
      throw new Error(
        `${method} ${template} ${status}: body does not match the document: ${this.ajv.errorsText(validate.errors)}`,
      );
    }
  }

  private rewriteRefs(schema: unknown): unknown {
    return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
  }
}
