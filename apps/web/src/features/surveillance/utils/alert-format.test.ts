import type { SurveillanceAlertEvent, SurveillanceEvidenceItem } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { describeTriageEvent, groupEvidence, scoreColor } from './alert-format';

const item = (type: SurveillanceEvidenceItem['type'], excerpt: string): SurveillanceEvidenceItem => ({
  type,
  id: excerpt,
  at: null,
  excerpt,
});

describe('alert format', () => {
  it('colours a score by how strong it is', () => {
    expect(scoreColor(95)).toBe('red');
    expect(scoreColor(80)).toBe('red');
    expect(scoreColor(79)).toBe('orange');
    expect(scoreColor(60)).toBe('orange');
    expect(scoreColor(55)).toBe('yellow');
  });

  it('groups the evidence in reading order: chat, quotes, deal, ticket, orders, audit', () => {
    const groups = groupEvidence([item('audit', 'a'), item('deal', 'd'), item('chat_message', 'c'), item('audit', 'b')]);
    expect(groups.map((group) => group.label)).toEqual(['Chat message', 'Deal', 'Audit entry']);
    expect(groups[2]!.items.map((entry) => entry.excerpt)).toEqual(['a', 'b']);
    expect(groupEvidence([])).toEqual([]);
  });

  it('writes a triage step as a sentence with the status change', () => {
    const event: SurveillanceAlertEvent = {
      id: '1',
      action: 'assign',
      actor_name: 'Vikram Iyer',
      assignee_name: 'Vikram Iyer',
      comment: null,
      from_status: 'open',
      to_status: 'assigned',
      at: '2026-11-27T10:00:00Z',
    };
    expect(describeTriageEvent(event)).toBe('Vikram Iyer assigned it to Vikram Iyer (Open → Assigned)');
    expect(describeTriageEvent({ ...event, action: 'comment', from_status: 'assigned', to_status: 'assigned' })).toBe(
      'Vikram Iyer commented',
    );
    expect(describeTriageEvent({ ...event, action: 'close', from_status: 'escalated', to_status: 'closed' })).toBe(
      'Vikram Iyer closed it (Escalated → Closed)',
    );
  });
});
