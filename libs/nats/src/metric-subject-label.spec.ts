import { metricSubjectLabel } from './metric-subject-label.js';

describe('metricSubjectLabel', () => {
  it('replaces per-object uuid tokens so the label names the kind of request', () => {
    expect(metricSubjectLabel('ocpp.call.v1.0b6f0d7e-5a4f-4c1e-9d0a-3c2b1a0f9e8d')).toBe('ocpp.call.v1.*');
    expect(metricSubjectLabel('assets.location.get.v1')).toBe('assets.location.get.v1');
  });
});
