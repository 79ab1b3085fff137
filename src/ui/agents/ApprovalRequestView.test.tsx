import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApprovalRequestView } from './ApprovalRequestView.tsx';

const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

describe('an approval card shows what it approves', () => {
  it('shows a long shell command whole, with why it asks', () => {
    const tail = 'rm -rf /outside/everything';
    const command = `echo ${'a'.repeat(900)} && ${tail}`;
    const html = unescape(
      renderToStaticMarkup(
        <ApprovalRequestView
          request={{
            requestId: 'r1',
            toolCallId: 'c1',
            toolName: 'bash',
            args: { command },
            leaves: null,
            reason: 'shell-command',
          }}
        />,
      ),
    );
    expect(html).toContain(command);
    expect(html).toContain(tail);
    expect(html).toMatch(/data-testid="approval-reason"[^>]*>why: a shell command</);
  });

  it("cuts only a file's contents, saying how much, and keeps the path and Codex's own reason", () => {
    const content = 'x'.repeat(2500);
    const html = unescape(
      renderToStaticMarkup(
        <ApprovalRequestView
          request={{
            requestId: 'r2',
            toolCallId: null,
            toolName: 'write',
            args: { path: '/elsewhere/notes.txt', content },
            leaves: '/elsewhere/notes.txt',
            reason: 'needs to update the shared notes',
          }}
        />,
      ),
    );
    expect(html).toContain('"path": "/elsewhere/notes.txt"');
    expect(html).toContain('[500 more characters not shown]');
    expect(html).not.toContain(content);
    expect(html).toContain('why: needs to update the shared notes');
  });
});
