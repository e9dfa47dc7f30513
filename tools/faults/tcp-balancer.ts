import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP load balancer in front of the ocpp-gateway instances, as an ingress would be: each new connection goes to the
 * next instance in turn, and to the one after when that refuses. When an instance dies its connections break, and the
 * charge points' reconnects land on the instances that are left.
 */
export class TcpBalancer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private next = 0;

  constructor(private readonly backendPorts: readonly number[]) {
    this.server = createServer((client) => this.accept(client));
  }

  /** Listens on 127.0.0.1 (a free port when 0) and resolves with the port. */
  listen(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve((this.server.address() as { port: number }).port);
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private accept(client: Socket): void {
    this.track(client);
    client.pause();
    client.on('error', () => client.destroy());
    const first = this.next;
    this.next = (this.next + 1) % this.backendPorts.length;
    this.connectBackend(client, first, 0);
  }

  private connectBackend(client: Socket, index: number, tried: number): void {
    if (client.destroyed) return;
    if (tried === this.backendPorts.length) {
      client.destroy();
      return;
    }
    const backend = connect({ host: '127.0.0.1', port: this.backendPorts[index] });
    this.track(backend);
    backend.once('error', () => {
      backend.destroy();
      this.connectBackend(client, (index + 1) % this.backendPorts.length, tried + 1);
    });
    backend.once('connect', () => {
      backend.removeAllListeners('error');
      backend.on('error', () => backend.destroy());
      // Either side ending ends the other: a charge point must see its gateway die.
      backend.once('close', () => client.destroy());
      client.once('close', () => backend.destroy());
      client.pipe(backend);
      backend.pipe(client);
      client.resume();
    });
  }
}
