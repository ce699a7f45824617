/**
 * Every audit action the server writes has a readable label in contracts (AUDIT_ACTION_LABELS), so
 * /surveillance never shows a raw code (issue 12 fix 7). The server's source is scanned for
 * `writeAudit(` / `writeAuditOnce(` calls: a new action without a label fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AUDIT_ACTION_LABELS, AUDIT_CATEGORIES, auditCategoryOf, isAuditActionCode, TICKET_HISTORY_ACTIONS } from '@dart/contracts';
import { describe, expect, it } from 'vitest';

const SOURCE = path.resolve(__dirname, '../src');

/**
 * Actions built at run time, by the template literal as written in the source, with every value it
 * can take (from the types it interpolates). A new template must be listed here with its values.
 */
const DYNAMIC_ACTIONS: Record<string, string[]> = {
  // endQuote(status: 'closed' | 'expired' | 'replaced')
  'quote.${status}': ['quote.closed', 'quote.expired', 'quote.replaced'],
  // NegotiationInput action: z.enum(['counter', 'accept', 'reject'])
  'negotiation.${input.action}': ['negotiation.counter', 'negotiation.accept', 'negotiation.reject'],
  // appendTicketHistory(entry.action: TicketHistoryAction): every history action of the ticket machine
  'ticket.${entry.action}': TICKET_HISTORY_ACTIONS.map((action) => `ticket.${action}`),
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

interface WrittenAction {
  where: string;
  /** The literal code, or the template as written, or null when the action is not written inline. */
  action: string | null;
  template: boolean;
}

/** Each audit write in the source with the `action` of its entry argument. */
function writtenActions(): WrittenAction[] {
  const found: WrittenAction[] = [];
  for (const file of sourceFiles(SOURCE)) {
    if (file.endsWith(path.join('lib', 'audit.ts'))) continue; // the writer itself
    const text = readFileSync(file, 'utf8');
    for (const call of text.matchAll(/\bwriteAudit(?:Once)?\(/g)) {
      const start = call.index;
      // The call's arguments: up to its closing parenthesis.
      let depth = 0;
      let end = start + call[0].length - 1;
      for (; end < text.length; end++) {
        if (text[end] === '(') depth++;
        else if (text[end] === ')' && --depth === 0) break;
      }
      const args = text.slice(start, end);
      const where = `${path.relative(SOURCE, file)}:${text.slice(0, start).split('\n').length}`;
      const literal = /\baction:\s*(['"])([^'"]+)\1/.exec(args);
      const template = /\baction:\s*`([^`]+)`/.exec(args);
      found.push(
        literal
          ? { where, action: literal[2]!, template: false }
          : template
            ? { where, action: template[1]!, template: true }
            : { where, action: null, template: false },
      );
    }
  }
  return found;
}

describe('audit action labels', () => {
  const written = writtenActions();

  it('finds the audit writes of the server (the scan itself works)', () => {
    expect(written.length).toBeGreaterThan(40);
    expect(written.map((w) => w.action)).toEqual(expect.arrayContaining(['auth.login', 'deal.created', 'chat.session_issued']));
  });

  it('has a readable label for every action the server writes', () => {
    const problems: string[] = [];
    for (const w of written) {
      if (w.action === null) problems.push(`${w.where}: write the action as a literal (or a template listed in DYNAMIC_ACTIONS)`);
      else if (w.template) {
        const values = DYNAMIC_ACTIONS[w.action];
        if (!values) problems.push(`${w.where}: list \`${w.action}\` and its values in DYNAMIC_ACTIONS`);
        else for (const code of values) if (!isAuditActionCode(code)) problems.push(`${w.where}: no label for '${code}'`);
      } else if (!isAuditActionCode(w.action)) problems.push(`${w.where}: no label for '${w.action}' in AUDIT_ACTION_LABELS`);
    }
    expect(problems).toEqual([]);
  });

  it('files every labelled action under a category the filter offers, and labels read as words', () => {
    for (const [code, label] of Object.entries(AUDIT_ACTION_LABELS)) {
      expect(auditCategoryOf(code), code).not.toBeNull();
      expect(Object.keys(AUDIT_CATEGORIES)).toContain(code.split('.')[0]);
      expect(label, code).toMatch(/^[A-Z][a-z]/);
      expect(label, code).not.toMatch(/[._]/);
    }
  });
});
