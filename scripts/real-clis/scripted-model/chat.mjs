// OpenAI Chat Completions (Pi): POST .../chat/completions, JSON or SSE.
import { normChat, textOf } from './conversation.mjs';
import { log } from './request-log.mjs';
import { locate, planReply, sideReply } from './script.mjs';
import { mintId } from './tool-ids.mjs';
import { chunks, est, rid, sse, sseHead } from './wire.mjs';

export async function chat(req, res, body, route, scn) {
  const conv = normChat(body);
  const sysText = (body.messages || [])
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .flatMap((m) => textOf(m.content))
    .join('\n');
  const toolDefs = (body.tools || []).map((t) => t.function || t);
  const toolNames = toolDefs.map((t) => t.name);
  const edit = toolDefs.find((t) => t.name === 'edit');
  const ctx = {
    workdir: route.workdir,
    piEditSchema:
      edit && edit.parameters && edit.parameters.properties && edit.parameters.properties.edits ? 'edits' : 'flat',
  };
  const loc = locate(scn, conv);
  let plan = planReply(route.runner === 'unknown' ? 'pi' : route.runner, scn, loc, ctx);
  const lastUser =
    [...conv]
      .reverse()
      .find((m) => m.role === 'user')
      ?.texts.join('\n') || '';
  if (!plan) plan = { ...sideReply('pi', body, sysText, lastUser), tools: [] };
  plan.tools = plan.tools.filter(
    (t) => toolNames.includes(t.name) || log({ kind: 'warn', msg: `tool ${t.name} not offered` }),
  );
  const model = body.model || 'scripted';
  const id = rid('chatcmpl-');
  const created = Math.floor(Date.now() / 1000);
  const calls = plan.tools.map((t) => ({
    id: mintId('call_', plan.e ?? 0, plan.s ?? 0, t.k),
    type: 'function',
    function: { name: t.name, arguments: JSON.stringify(t.input) },
  }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: est(body.messages),
    completion_tokens: est(plan.text || '') + est(calls),
    total_tokens: 0,
    prompt_tokens_details: { cached_tokens: 0 },
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  log({
    kind: 'reply',
    runner: route.runner,
    scenario: route.scenario,
    loc: loc && { e: loc.e, step: loc.step },
    text: plan.text,
    thinking: plan.thinking,
    calls,
  });
  if (!body.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const message = { role: 'assistant', content: plan.text || (calls.length ? null : 'OK') };
    if (plan.thinking) message.reasoning_content = plan.thinking;
    if (calls.length) message.tool_calls = calls;
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  sseHead(res);
  const chunk = (delta, finish_reason = null) =>
    sse(res, null, {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [{ index: 0, delta, finish_reason }],
    });
  chunk({ role: 'assistant', content: '' });
  if (plan.thinking) for (const c of chunks(plan.thinking)) chunk({ reasoning_content: c });
  if (plan.text) for (const c of chunks(plan.text)) chunk({ content: c });
  calls.forEach((c, i) => {
    chunk({
      tool_calls: [{ index: i, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }],
    });
    for (const a of chunks(c.function.arguments, 40)) chunk({ tool_calls: [{ index: i, function: { arguments: a } }] });
  });
  chunk({}, finish);
  if (body.stream_options && body.stream_options.include_usage)
    sse(res, null, { id, object: 'chat.completion.chunk', created, model, choices: [], usage });
  sse(res, null, '[DONE]');
  res.end();
}
