import { OpenApiResponseValidator } from './openapi-response-validator.js';

export interface ApiCall {
  token?: string;
  /** Sent as JSON unless `rawBody` or `form` is given. */
  body?: unknown;
  rawBody?: string;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route has its own body; tests assert on it
export interface ApiResponse<TBody = any> {
  status: number;
  headers: Headers;
  body: TBody;
}

/** HTTP calls to the API under test; every response is checked against the served OpenAPI document. */
export class ApiTestClient {
  private constructor(
    readonly apiUrl: string,
    private readonly validator: OpenApiResponseValidator,
  ) {}

  static async connect(apiUrl: string): Promise<ApiTestClient> {
    return new ApiTestClient(apiUrl, await OpenApiResponseValidator.fetch(apiUrl));
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  async call<TBody = any>(method: string, path: string, call: ApiCall = {}): Promise<ApiResponse<TBody>> {
    const headers: Record<string, string> = { ...call.headers };
    if (call.token) headers.authorization = `Bearer ${call.token}`;
    let body: string | undefined;
    if (call.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(call.form).toString();
    } else if (call.rawBody !== undefined) {
      body = call.rawBody;
    } else if (call.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(call.body);
    }
    const response = await fetch(`${this.apiUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as TBody);
    this.validator.validate(method, path, response.status, parsed);
    return { status: response.status, headers: response.headers, body: parsed as TBody };
  }
}
