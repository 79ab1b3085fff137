// Anthropic Messages (Claude Code): POST .../v1/messages, JSON or SSE.
import { normAnthropic } from './conversation.mjs';
import { log } from './request-log.mjs';
import { locate, planReply, sideReply } from './script.mjs';
import { mintId } from './tool-ids.mjs';
import { chunks, est, rid, sse, sseHead } from './wire.mjs';

export async function anthropic(req, res, body, route, scn) {
  const conv = normAnthropic(body);
  const sysText =
    typeof body.system === 'string' ? body.system : (body.system || []).map((b) => b.text || '').join('\n');
  const toolNames = (body.tools || []).map((t) => t.name);
  const ctx = {
    workdir: route.workdir,
    agentTool: toolNames.includes('Agent') ? 'Agent' : toolNames.includes('Task') ? 'Task' : 'Agent',
  };
  const loc = locate(scn, conv);
  let plan = planReply('claude', scn, loc, ctx);
  const lastUser =
    [...conv]
      .reverse()
      .find((m) => m.role === 'user')
      ?.texts.join('\n') || '';
  if (!plan) plan = { ...sideReply('claude', body, sysText, lastUser), tools: [] };
  // a tool the request does not offer would be rejected by the CLI: drop it
  if (toolNames.length)
    plan.tools = plan.tools.filter(
      (t) =>
        toolNames.includes(t.name) ||
        (t.force && (log({ kind: 'note', msg: `tool ${t.name} not in body.tools; sent anyway (force)` }), true)) ||
        log({ kind: 'warn', msg: `tool ${t.name} not offered` }),
    );
  else plan.tools = [];
  const model = body.model || 'claude-scripted';
  const msgId = rid('msg_scripted_');
  const content = [];
  // thinking blocks only when the request enables thinking; honour display:"omitted" like the real API
  if (plan.thinking && body.thinking && body.thinking.type !== 'disabled') {
    const omitted = body.thinking.display === 'omitted';
    content.push({
      type: 'thinking',
      thinking: omitted ? '' : plan.thinking,
      signature: Buffer.from('scripted:' + plan.thinking).toString('base64'),
    });
  }
  if (plan.text) content.push({ type: 'text', text: plan.text });
  for (const t of plan.tools)
    content.push({
      type: 'tool_use',
      id: mintId('toolu_', plan.e ?? 0, plan.s ?? 0, t.k),
      name: t.name,
      input: t.input,
    });
  if (!content.length) content.push({ type: 'text', text: 'OK' });
  const stop = plan.tools.length ? 'tool_use' : 'end_turn';
  const usage = {
    input_tokens: est(body.messages) + est(body.system),
    output_tokens: est(content),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  log({ kind: 'reply', runner: 'claude', scenario: route.scenario, loc: loc && { e: loc.e, step: loc.step }, content });
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': rid('req_') });
    res.end(
      JSON.stringify({
        id: msgId,
        type: 'message',
        role: 'assistant',
        model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage,
      }),
    );
    return;
  }
  sseHead(res);
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id: msgId,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  sse(res, 'ping', { type: 'ping' });
  content.forEach((b, i) => {
    if (b.type === 'thinking') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index: i,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      if (b.thinking)
        for (const c of chunks(b.thinking))
          sse(res, 'content_block_delta', {
            type: 'content_block_delta',
            index: i,
            delta: { type: 'thinking_delta', thinking: c },
          });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index: i,
        delta: { type: 'signature_delta', signature: b.signature },
      });
    } else if (b.type === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index: i,
        content_block: { type: 'text', text: '' },
      });
      for (const c of chunks(b.text))
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index: i,
          delta: { type: 'text_delta', text: c },
        });
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index: i,
        content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
      });
      for (const c of chunks(JSON.stringify(b.input), 40))
        sse(res, 'content_block_delta', {
          type: 'content_block_delta',
          index: i,
          delta: { type: 'input_json_delta', partial_json: c },
        });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index: i });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}
