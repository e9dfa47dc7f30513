/**
 * Reads environment variables into typed values and collects every problem, so a misconfigured service stops at
 * start-up with one message that lists all of them.
 */
export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`${service}: invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

interface Options<T> {
  default?: T;
}

export class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  private missing<T>(name: string, options: Options<T>): T {
    if (options.default !== undefined) return options.default;
    this.problems.push(`${name} is required`);
    return undefined as T;
  }

  string(name: string, options: Options<string> & { minLength?: number } = {}): string {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, options);
    if (options.minLength !== undefined && value.length < options.minLength) {
      this.problems.push(`${name} must be at least ${options.minLength} characters long`);
    }
    return value;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  int(name: string, options: Options<number> & { min?: number; max?: number } = {}): number {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, options);
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(parsed)) {
      this.problems.push(`${name} must be an integer, got "${value}"`);
      return options.default ?? 0;
    }
    if (
      (options.min !== undefined && parsed < options.min) ||
      (options.max !== undefined && parsed > options.max)
    ) {
      this.problems.push(
        `${name} must be between ${options.min ?? '-∞'} and ${options.max ?? '∞'}, got ${parsed}`,
      );
    }
    return parsed;
  }

  url(name: string, protocols: string[], options: Options<string> = {}): string {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, options);
    for (const candidate of value.split(',')) {
      try {
        const parsed = new URL(candidate.trim());
        if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
          this.problems.push(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
        }
      } catch {
        this.problems.push(`${name} is not a valid URL`);
      }
    }
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], options: Options<T> = {}): T {
    const value = this.raw(name);
    if (value === undefined) return this.missing(name, options);
    if (!(allowed as readonly string[]).includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
    }
    return value as T;
  }
}

/** Builds a typed config object from the environment; throws ConfigError listing every problem found. */
export function loadConfig<T>(
  service: string,
  build: (env: EnvReader) => T,
  env: NodeJS.ProcessEnv = process.env,
): T {
  const reader = new EnvReader(env);
  const config = build(reader);
  if (reader.problems.length > 0) throw new ConfigError(service, reader.problems);
  return config;
}
