import { NO_TURN, OneCallAtATimeQueue } from './one-call-at-a-time.queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OneCallAtATimeQueue', () => {
  it('runs calls one after the other, in order', async () => {
    const queue = new OneCallAtATimeQueue();
    const log: string[] = [];
    const call = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await sleep(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      queue.run(1000, call('a', 30)),
      queue.run(1000, call('b', 5)),
      queue.run(1000, call('c', 1)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('gives up waiting without running the call, and the next one still waits for the running one', async () => {
    const queue = new OneCallAtATimeQueue();
    let finishedFirst = false;
    const first = queue.run(1000, async () => {
      await sleep(80);
      finishedFirst = true;
    });
    const ran: string[] = [];
    await expect(queue.run(10, () => Promise.resolve(ran.push('second')))).resolves.toBe(NO_TURN);
    await queue.run(1000, () => Promise.resolve(ran.push(`third after first: ${finishedFirst}`)));
    await first;
    expect(ran).toEqual(['third after first: true']);
  });

  it('a failing call does not block the next', async () => {
    const queue = new OneCallAtATimeQueue();
    await expect(queue.run(100, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run(100, () => Promise.resolve('next'))).resolves.toBe('next');
  });
});
