import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-events.ts';
import { CodexAppServerProtocol } from './codex-app-server-protocol.ts';
import { PiRpcProtocol } from './pi-rpc-protocol.ts';

const liveText = (events: AgentEvent[]) =>
  events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');

describe('the live text of a turn with several messages', () => {
  it('Pi: a later message starts after a blank line', () => {
    const pi = new PiRpcProtocol();
    const say = (delta: string) =>
      pi.receive({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta } }).events;
    const end = () => pi.receive({ type: 'message_end', message: { role: 'assistant', content: [] } }).events;
    const events = [...say('Writing '), ...say('the notes.'), ...end(), ...end(), ...say('And the shared copy.')];
    expect(liveText(events)).toBe('Writing the notes.\n\nAnd the shared copy.');
  });

  it('Codex: each agentMessage item after the first starts after a blank line', () => {
    const codex = new CodexAppServerProtocol('/work/project');
    const say = (delta: string) =>
      codex.receive({ method: 'item/agentMessage/delta', params: { itemId: 'm', delta } }).events;
    const end = (said: string) =>
      codex.receive({ method: 'item/completed', params: { item: { type: 'agentMessage', id: 'm', text: said } } })
        .events;
    const events = [...say('Writing the notes.'), ...end('Writing the notes.'), ...say('And the shared copy.')];
    expect(liveText(events)).toBe('Writing the notes.\n\nAnd the shared copy.');
  });
});
