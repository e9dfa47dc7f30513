import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Remembers every route's method and path as Fastify registers them, so a request for a known path with another method
 * is answered 405 with `Allow` instead of Fastify's 404.
 */
export class RouteMethods {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true });
  private readonly methods = new Set<string>();

  attachTo(instance: FastifyInstance): void {
    instance.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        this.methods.add(method);
        this.router.on(method as never, route.url, () => undefined);
      }
    });
  }

  allowedFor(path: string): string[] {
    const pathname = path.split('?')[0];
    return [...this.methods].filter((method) => this.router.find(method as never, pathname) !== null).sort();
  }
}
