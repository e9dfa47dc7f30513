import { connect, createServer, type Server, type Socket } from 'node:net';
import { TcpBalancer } from './tcp-balancer.js';

/** A backend that greets each connection with its name and keeps the sockets, so a test can drop them. */
async function namedServer(name: string): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.write(name);
    socket.on('data', (data) => socket.write(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, sockets };
}

function greeting(port: number): Promise<{ socket: Socket; name: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('error', reject);
    socket.once('data', (data) => resolve({ socket, name: data.toString() }));
  });
}

async function closedPort(): Promise<number> {
  const { server, port } = await namedServer('gone');
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('TcpBalancer', () => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function balancer(ports: number[]): Promise<number> {
    const instance = new TcpBalancer(ports);
    cleanup.push(() => instance.close());
    return instance.listen();
  }

  async function backend(name: string) {
    const started = await namedServer(name);
    cleanup.push(async () => {
      for (const socket of started.sockets) socket.destroy();
      await new Promise((resolve) => started.server.close(resolve));
    });
    return started;
  }

  it('hands connections to the backends in turn and passes data both ways', async () => {
    const [a, b] = [await backend('a'), await backend('b')];
    const port = await balancer([a.port, b.port]);
    const connections = [await greeting(port), await greeting(port), await greeting(port)];
    expect(connections.map((connection) => connection.name)).toEqual(['a', 'b', 'a']);
    const echoed = new Promise((resolve) =>
      connections[1].socket.once('data', (data) => resolve(data.toString())),
    );
    connections[1].socket.write('ping');
    await expect(echoed).resolves.toBe('ping');
    for (const connection of connections) connection.socket.destroy();
  });

  it('skips a backend that refuses', async () => {
    const b = await backend('b');
    const port = await balancer([await closedPort(), b.port]);
    expect((await greeting(port)).name).toBe('b');
    expect((await greeting(port)).name).toBe('b');
  });

  it('closes the client when its backend goes away, and when no backend answers', async () => {
    const a = await backend('a');
    const port = await balancer([a.port]);
    const { socket } = await greeting(port);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    for (const backendSocket of a.sockets) backendSocket.destroy();
    await closed;

    const nothing = await balancer([await closedPort()]);
    const refused = connect({ host: '127.0.0.1', port: nothing });
    refused.on('error', () => undefined);
    await new Promise((resolve) => refused.once('close', resolve));
  });
});
