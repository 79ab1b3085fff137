// OpenAI Responses (Codex): POST .../responses, JSON or SSE.
import { normResponses, textOf } from './conversation.mjs';
import { log } from './request-log.mjs';
import { locate, planReply, sideReply } from './script.mjs';
import { mintId } from './tool-ids.mjs';
import { chunks, est, rid, sse, sseHead } from './wire.mjs';

export async function responses(req, res, body, route, scn) {
  const conv = normResponses(body);
  const sysText =
    (body.instructions || '') +
    '\n' +
    (Array.isArray(body.input)
      ? body.input
          .filter((i) => i.role === 'developer' || i.role === 'system')
          .flatMap((i) => textOf(i.content))
          .join('\n')
      : '');
  const tools = body.tools || [];
  const names = tools.map((t) => t.name || t.type);
  const ctx = {
    workdir: route.workdir,
    codexShellTool: names.includes('exec_command')
      ? 'exec_command'
      : names.includes('shell_command')
        ? 'shell_command'
        : 'shell',
    codexPatchTool: (() => {
      const t = tools.find((x) => x.name === 'apply_patch');
      return !t ? 'none' : t.type === 'custom' ? 'custom' : 'function';
    })(),
  };
  const loc = locate(scn, conv);
  let plan = planReply('codex', scn, loc, ctx);
  const lastUser =
    [...conv]
      .reverse()
      .find((m) => m.role === 'user')
      ?.texts.join('\n') || '';
  if (!plan) plan = { ...sideReply('codex', body, sysText, lastUser), tools: [] };
  plan.tools = plan.tools.filter(
    (t) =>
      names.includes(t.name) ||
      (t.force &&
        (log({
          kind: 'note',
          msg: `tool ${t.namespace ? t.namespace + ':' : ''}${t.name} not in body.tools; sent anyway (force)`,
        }),
        true)) ||
      log({ kind: 'warn', msg: `tool ${t.name} not offered` }),
  );
  const model = body.model || 'scripted';
  const respId = rid('resp_');
  const created_at = Math.floor(Date.now() / 1000);
  const output = [];
  if (plan.thinking)
    output.push({
      type: 'reasoning',
      id: rid('rs_'),
      summary: [{ type: 'summary_text', text: plan.thinking }],
      content: null,
      encrypted_content: null,
    });
  if (plan.text)
    output.push({
      type: 'message',
      id: rid('msg_'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: plan.text, annotations: [] }],
    });
  for (const t of plan.tools) {
    const call_id = mintId('call_', plan.e ?? 0, plan.s ?? 0, t.k);
    if (t.search)
      output.push({
        type: 'tool_search_call',
        id: rid('ts_'),
        status: 'completed',
        call_id,
        execution: 'client',
        arguments: t.input,
      });
    else if (t.custom)
      output.push({
        type: 'custom_tool_call',
        id: rid('ctc_'),
        status: 'completed',
        call_id,
        name: t.name,
        input: t.input,
      });
    else if (t.namespace)
      output.push({
        type: 'function_call',
        id: rid('fc_'),
        status: 'completed',
        call_id,
        namespace: t.namespace,
        name: t.name,
        arguments: JSON.stringify(t.input),
      });
    else
      output.push({
        type: 'function_call',
        id: rid('fc_'),
        status: 'completed',
        call_id,
        name: t.name,
        arguments: JSON.stringify(t.input),
      });
  }
  if (!output.length)
    output.push({
      type: 'message',
      id: rid('msg_'),
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'OK', annotations: [] }],
    });
  const inTok = est(body.input) + est(body.instructions);
  const outTok = est(output);
  const usage = {
    input_tokens: inTok,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outTok,
    output_tokens_details: { reasoning_tokens: plan.thinking ? est(plan.thinking) : 0 },
    total_tokens: inTok + outTok,
  };
  const base = {
    id: respId,
    object: 'response',
    created_at,
    model,
    status: 'in_progress',
    output: [],
    parallel_tool_calls: true,
    tool_choice: body.tool_choice || 'auto',
    tools: [],
  };
  log({ kind: 'reply', runner: 'codex', scenario: route.scenario, loc: loc && { e: loc.e, step: loc.step }, output });
  if (body.stream === false) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...base, status: 'completed', output, usage }));
    return;
  }
  sseHead(res);
  let sn = 0;
  const ev = (type, data) => sse(res, type, { type, sequence_number: sn++, ...data });
  ev('response.created', { response: base });
  ev('response.in_progress', { response: base });
  output.forEach((item, oi) => {
    if (item.type === 'reasoning') {
      ev('response.output_item.added', { output_index: oi, item: { ...item, summary: [] } });
      ev('response.reasoning_summary_part.added', {
        item_id: item.id,
        output_index: oi,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const c of chunks(item.summary[0].text))
        ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index: oi, summary_index: 0, delta: c });
      ev('response.reasoning_summary_text.done', {
        item_id: item.id,
        output_index: oi,
        summary_index: 0,
        text: item.summary[0].text,
      });
      ev('response.reasoning_summary_part.done', {
        item_id: item.id,
        output_index: oi,
        summary_index: 0,
        part: item.summary[0],
      });
    } else if (item.type === 'message') {
      const text = item.content[0].text;
      ev('response.output_item.added', { output_index: oi, item: { ...item, status: 'in_progress', content: [] } });
      ev('response.content_part.added', {
        item_id: item.id,
        output_index: oi,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const c of chunks(text))
        ev('response.output_text.delta', {
          item_id: item.id,
          output_index: oi,
          content_index: 0,
          delta: c,
          logprobs: [],
        });
      ev('response.output_text.done', { item_id: item.id, output_index: oi, content_index: 0, text, logprobs: [] });
      ev('response.content_part.done', { item_id: item.id, output_index: oi, content_index: 0, part: item.content[0] });
    } else if (item.type === 'function_call') {
      ev('response.output_item.added', { output_index: oi, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const c of chunks(item.arguments, 40))
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index: oi, delta: c });
      ev('response.function_call_arguments.done', { item_id: item.id, output_index: oi, arguments: item.arguments });
    } else if (item.type === 'tool_search_call') {
      ev('response.output_item.added', { output_index: oi, item });
    } else if (item.type === 'custom_tool_call') {
      ev('response.output_item.added', { output_index: oi, item: { ...item, status: 'in_progress', input: '' } });
      for (const c of chunks(item.input, 40))
        ev('response.custom_tool_call_input.delta', { item_id: item.id, output_index: oi, delta: c });
      ev('response.custom_tool_call_input.done', { item_id: item.id, output_index: oi, input: item.input });
    }
    ev('response.output_item.done', { output_index: oi, item });
  });
  ev('response.completed', { response: { ...base, status: 'completed', output, usage } });
  res.end();
}
