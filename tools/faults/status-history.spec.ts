import { type ObservedCommand, StatusHistory } from './status-history.js';

const UUID = 'c0000000-0000-4000-8000-000000000001';

function command(status: string, result: unknown = null, completedAt: string | null = null): ObservedCommand {
  return { command_uuid: UUID, status, result, completed_at: completedAt };
}
const accepted = command('accepted', { status: 'Accepted' }, '2030-01-01T00:00:01Z');
const failed = command('failed', { error: 'connection_lost' }, '2030-01-01T00:00:01Z');

describe('StatusHistory', () => {
  it('accepts pending → sent → terminal, repeated observations and skipped steps', () => {
    const history = new StatusHistory();
    for (const [index, observed] of [
      command('pending'),
      command('pending'),
      command('sent'),
      accepted,
      accepted,
    ].entries())
      history.observe(observed, index);
    history.observe({ ...command('pending'), command_uuid: 'other' }, 5);
    history.observe({ ...failed, command_uuid: 'other' }, 6);
    expect(history.problems).toEqual([]);
    expect(history.terminal(UUID)).toEqual({ status: 'accepted', at: 3 });
    expect(history.status('other')).toBe('failed');
  });

  it('reports a status that goes backwards', () => {
    const history = new StatusHistory();
    history.observe(command('sent'), 1);
    history.observe(command('pending'), 2);
    expect(history.problems).toEqual([
      { commandUuid: UUID, kind: 'went_backwards', detail: 'sent → pending', at: 2 },
    ]);
  });

  it('reports a terminal status that changes, also when it changes back', () => {
    const history = new StatusHistory();
    history.observe(accepted, 1);
    history.observe(command('sent'), 2);
    history.observe(failed, 3);
    history.observe(accepted, 4);
    expect(history.problems.map((problem) => [problem.kind, problem.detail])).toEqual([
      ['left_terminal_state', 'accepted → sent'],
      ['left_terminal_state', 'accepted → failed'],
    ]);
    expect(history.terminal(UUID)?.status).toBe('accepted');
  });

  it('reports unknown statuses and a result or completed_at that does not fit the status', () => {
    const history = new StatusHistory();
    history.observe(command('done'), 1);
    history.observe(command('sent', { status: 'Accepted' }), 2);
    history.observe(command('accepted', { status: 'Accepted' }, null), 3);
    expect(history.problems.map((problem) => problem.kind)).toEqual([
      'unknown_status',
      'result_inconsistent',
      'result_inconsistent',
    ]);
    expect(history.status(UUID)).toBe('accepted');
  });
});
