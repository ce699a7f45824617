import type { SurveillanceAlertEvent, SurveillanceEvidenceItem } from '@dart/contracts';
import { describe, expect, it } from 'vitest';
import { describeTriageEvent, groupEvidence, readableFacts, scoreColor } from './alert-format';

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

  it('reads the facts in words: yields as percentages, basis points, yes/no, and no ids', () => {
    const facts = readableFacts({
      isin: 'INE040A08955',
      yield: 0.0985,
      reference_yield: 0.0785,
      deviation_bp: 200,
      band_bp: 40,
      missing: true,
      sender_user_id: '0b8f3f43-3c1e-4a43-9d59-1f1d3d6a0c11',
      first_deal: 'x',
      minutes_before_deal: 1234,
      odd_fact: null,
    });
    expect(facts.map(({ label, value }) => `${label}: ${value}`)).toEqual([
      'ISIN: INE040A08955',
      'Yield: 9.8500%',
      'Reference yield: 7.8500%',
      'Deviation: 200 bp',
      'Band: 40 bp',
      'Not reported: Yes',
      'Minutes before the deal: 1,234',
      'Odd fact: —',
    ]);
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
