#!/usr/bin/env node
// Scripted model server for producing real coding-agent session files offline.
//
// Speaks just enough of three wire protocols, on loopback only:
//   - Anthropic Messages      POST .../v1/messages            (Claude Code)
//                             POST .../v1/messages/count_tokens
//   - OpenAI Chat Completions POST .../chat/completions       (Pi)
//   - OpenAI Responses        POST .../responses              (Codex)
//   - model listings          GET  .../models
//
// Routing: every base URL handed to a CLI has the form
//   http://127.0.0.1:PORT/x/<runner>/<scenario>/<base64url(workdir)>
// so the server is stateless: it knows which runner and which scenario a
// request belongs to, and the absolute working directory (Claude Code's file
// tools want absolute paths).
//
// A scenario (scenarios/<name>.json) holds "exchanges". Each exchange has a
// `match` string and a list of `replies`. For every request the server looks
// for the LAST user-authored text (tool results excluded) that contains some
// exchange's `match`; the reply index is then derived from the tool-call ids
// it minted earlier (they encode exchange and step), so retries and side
// requests never desynchronise the script. Requests that match no exchange
// (title generation, summaries, quota probes, ...) get a short generic answer.
//
// Every request is appended to the log file (JSONL) with its body.
//
// Usage: node server.mjs --scenarios DIR --log FILE [--port 0] [--port-file FILE]

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

// ---------------------------------------------------------------- arguments
const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a.startsWith('--')) {
    const k = a.slice(2);
    const v = process.argv[i + 1] && !process.argv[i + 1].startsWith('--') ? process.argv[++i] : 'true';
    args[k] = v;
  }
}
const SCEN_DIR = path.resolve(
  args.scenarios || path.join(path.dirname(new URL(import.meta.url).pathname), 'scenarios'),
);
const LOG_FILE = args.log ? path.resolve(args.log) : null;
const PORT = Number(args.port || 0);
const HOST = '127.0.0.1'; // never anything else
const MAX_LIFETIME_S = Number(args['max-lifetime'] || 1800); // hard stop, bounded process

// ---------------------------------------------------------------- utilities
let seq = 0;
function rid(prefix, n = 24) {
  return prefix + crypto.randomBytes(16).toString('hex').slice(0, n);
}
function log(entry) {
  if (!LOG_FILE) return;
  fs.appendFileSync(LOG_FILE, JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), ...entry }) + '\n');
}
function est(obj) {
  const s = typeof obj === 'string' ? obj : JSON.stringify(obj ?? '');
  return Math.max(1, Math.ceil(s.length / 4));
}
function chunks(s, n = 24) {
  const out = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.length ? out : [''];
}
function loadScenario(name) {
  const f = path.join(SCEN_DIR, `${name}.json`);
  if (!fs.existsSync(f)) return null;
  return JSON.parse(fs.readFileSync(f, 'utf8'));
}
function b64urlDecode(s) {
  try {
    return Buffer.from(s, 'base64url').toString('utf8');
  } catch {
    return '';
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- tool ids
// Our ids encode exchange and step: <prefix>e<E>s<S>k<K>x<random>
function mintId(prefix, e, s, k) {
  return `${prefix}e${e}s${s}k${k}x${crypto.randomBytes(6).toString('hex')}`;
}
function parseId(id) {
  const m = /e(\d+)s(\d+)k(\d+)x[0-9a-f]+$/.exec(String(id || ''));
  return m ? { e: +m[1], s: +m[2], k: +m[3] } : null;
}

// ------------------------------------------------ conversation normalisation
// -> [{role:'user'|'assistant'|'system', texts:[...], ids:[...] }]
function textOf(c) {
  if (c == null) return [];
  if (typeof c === 'string') return [c];
  if (Array.isArray(c)) return c.flatMap((b) => (b && (b.type === 'text' || b.type === 'input_text') ? [b.text] : []));
  return [];
}
function normAnthropic(body) {
  const out = [];
  for (const m of body.messages || []) {
    if (m.role === 'user') {
      out.push({ role: 'user', texts: textOf(m.content), ids: [] });
    } else if (m.role === 'assistant') {
      const ids = Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : [];
      out.push({ role: 'assistant', texts: textOf(m.content), ids });
    }
  }
  return out;
}
function normChat(body) {
  const out = [];
  for (const m of body.messages || []) {
    if (m.role === 'user') out.push({ role: 'user', texts: textOf(m.content), ids: [] });
    else if (m.role === 'assistant')
      out.push({ role: 'assistant', texts: textOf(m.content), ids: (m.tool_calls || []).map((t) => t.id) });
    else if (m.role === 'tool') out.push({ role: 'tool', texts: [], ids: [] });
  }
  return out;
}
function normResponses(body) {
  const out = [];
  const input =
    typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : body.input || [];
  for (const it of input) {
    const t = it.type || (it.role ? 'message' : '');
    if (t === 'message' && it.role === 'user') out.push({ role: 'user', texts: textOf(it.content), ids: [] });
    else if (t === 'message' && it.role === 'assistant')
      out.push({ role: 'assistant', texts: textOf(it.content), ids: [] });
    else if (t === 'function_call' || t === 'custom_tool_call' || t === 'local_shell_call' || t === 'tool_search_call')
      out.push({ role: 'assistant', texts: [], ids: [it.call_id || it.id] });
  }
  return out;
}

// ------------------------------------------------ script position
function locate(scn, conv) {
  if (!scn) return null;
  const ex = scn.exchanges || [];
  for (let i = conv.length - 1; i >= 0; i--) {
    const m = conv[i];
    if (m.role !== 'user') continue;
    const text = m.texts.join('\n');
    const e = ex.findIndex((x) => x.match && text.includes(x.match));
    if (e < 0) continue;
    // steps already taken in this exchange = from our ids after i
    let maxStep = -1;
    let assistantCount = 0;
    for (let j = i + 1; j < conv.length; j++) {
      if (conv[j].role !== 'assistant') continue;
      assistantCount++;
      for (const id of conv[j].ids) {
        const p = parseId(id);
        if (p && p.e === e && p.s > maxStep) maxStep = p.s;
      }
    }
    const step = maxStep >= 0 ? maxStep + 1 : assistantCount;
    return { e, step, exchange: ex[e] };
  }
  return null;
}

// ------------------------------------------------ abstract tools -> runner tools
// A reply is {thinking?, text?, tools?: [{op, ...}] | [{raw:{runner:{name, input}}}], final_text?}
function toolFor(runner, t, ctx) {
  const c = toolFor0(runner, t, ctx);
  if (c && t.extra && !c.custom) c.input = { ...c.input, ...t.extra };
  return c;
}
function toolFor0(runner, t, ctx) {
  if (t.raw && t.raw[runner]) return t.raw[runner];
  if (t.raw && !t.raw[runner] && !t.op) return null;
  const abs = (p) => (path.isAbsolute(p) ? p : path.join(ctx.workdir || '.', p));
  switch (runner) {
    case 'claude':
      switch (t.op) {
        case 'write':
          return { name: 'Write', input: { file_path: abs(t.path), content: t.content } };
        case 'edit':
          return { name: 'Edit', input: { file_path: abs(t.path), old_string: t.old, new_string: t.new } };
        case 'read':
          return { name: 'Read', input: { file_path: abs(t.path) } };
        case 'shell':
          return { name: 'Bash', input: { command: t.command, description: t.description || 'Run shell command' } };
        case 'view_image':
          return { name: 'Read', input: { file_path: abs(t.path) } };
        case 'subagent':
          return {
            name: ctx.agentTool || 'Agent',
            input: {
              description: t.description,
              prompt: t.prompt,
              subagent_type: t.subagent_type || 'general-purpose',
            },
          };
        case 'todo':
          return {
            name: 'TodoWrite',
            input: { todos: t.items.map((x) => ({ content: x.text, status: x.status, activeForm: x.text })) },
          };
        case 'glob':
          return { name: 'Glob', input: { pattern: t.pattern } };
        case 'grep':
          return { name: 'Grep', input: { pattern: t.pattern, path: t.path ? abs(t.path) : undefined } };
      }
      break;
    case 'pi':
      switch (t.op) {
        case 'write':
          return { name: 'write', input: { path: t.path, content: t.content } };
        case 'edit':
          return {
            name: 'edit',
            input:
              ctx.piEditSchema === 'edits'
                ? { path: t.path, edits: [{ oldText: t.old, newText: t.new }] }
                : { path: t.path, oldText: t.old, newText: t.new },
          };
        case 'read':
        case 'view_image':
          return { name: 'read', input: { path: t.path } };
        case 'shell':
          return { name: 'bash', input: { command: t.command } };
        case 'glob':
          return { name: 'find', input: { pattern: t.pattern } };
        case 'grep':
          return { name: 'grep', input: { pattern: t.pattern, path: t.path } };
        case 'ls':
          return { name: 'ls', input: { path: t.path || '.' } };
      }
      break;
    case 'codex':
      switch (t.op) {
        case 'write':
          return codexPatch(
            ctx,
            `*** Begin Patch\n*** Add File: ${t.path}\n${t.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => '+' + l)
              .join('\n')}\n*** End Patch\n`,
          );
        case 'edit':
          return codexPatch(
            ctx,
            `*** Begin Patch\n*** Update File: ${t.path}\n@@\n${t.old
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => '-' + l)
              .join('\n')}\n${t.new
              .replace(/\n$/, '')
              .split('\n')
              .map((l) => '+' + l)
              .join('\n')}\n*** End Patch\n`,
          );
        case 'read':
          return codexShell(ctx, `cat ${t.path}`);
        case 'shell':
          return codexShell(ctx, t.command);
        case 'view_image':
          return { name: 'view_image', input: { path: abs(t.path) } };
        case 'todo':
          return { name: 'update_plan', input: { plan: t.items.map((x) => ({ step: x.text, status: x.status })) } };
      }
      break;
  }
  return null;
}
function codexShell(ctx, command) {
  if (ctx.codexShellTool === 'exec_command')
    return { name: 'exec_command', input: { cmd: command, workdir: ctx.workdir || undefined } };
  if (ctx.codexShellTool === 'shell_command')
    return { name: 'shell_command', input: { command, workdir: ctx.workdir || undefined } };
  return { name: 'shell', input: { command: ['bash', '-lc', command], workdir: ctx.workdir || undefined } };
}
function codexPatch(ctx, patch) {
  if (ctx.codexPatchTool === 'custom') return { name: 'apply_patch', custom: true, input: patch };
  if (ctx.codexPatchTool === 'function') return { name: 'apply_patch', input: { input: patch } };
  // no apply_patch tool offered: fall back to a shell heredoc
  return codexShell(ctx, `apply_patch <<'EOF'\n${patch}EOF`);
}

// progress per runner/scenario: which (exchange, step) replies were served
const served = new Map();
function markServed(runner, scn, loc, exhausted) {
  if (!scn || !loc) return;
  const key = `${runner}/${scn.name}`;
  if (!served.has(key)) served.set(key, { steps: new Set(), exhausted: 0 });
  const st = served.get(key);
  if (exhausted) st.exhausted++;
  else st.steps.add(`${loc.e}:${loc.step}`);
}
function status(runner, scnName) {
  const scn = loadScenario(scnName);
  if (!scn) return { complete: false, missing: ['no such scenario'] };
  const st = served.get(`${runner}/${scn.name}`) || { steps: new Set(), exhausted: 0 };
  const missing = [];
  (scn.exchanges || []).forEach((x, e) => {
    if (x.runners && !x.runners.includes(runner)) return;
    const last = (x.replies || []).length - 1;
    if (last >= 0 && !st.steps.has(`${e}:${last}`)) missing.push(`${x.match} reply ${last}`);
  });
  return { complete: missing.length === 0, missing, served: [...st.steps], exhausted: st.exhausted };
}

// Build the concrete reply (content list) for a request.
function planReply(runner, scn, loc, ctx) {
  if (!loc) return null;
  if (loc.exchange.runners && !loc.exchange.runners.includes(runner)) return null;
  markServed(runner, scn, loc, loc.step >= (loc.exchange.replies || []).length);
  const replies = loc.exchange.replies || [];
  if (loc.step >= replies.length) {
    return { thinking: null, text: loc.exchange.after || 'Done.', tools: [], exhausted: true };
  }
  const r = replies[loc.step];
  const tools = [];
  (r.tools || []).forEach((t, k) => {
    if (t.runners && !t.runners.includes(runner)) return;
    const c = toolFor(runner, t, ctx);
    if (c) tools.push({ ...c, k });
  });
  const text = typeof r.text === 'object' && r.text ? (r.text[runner] ?? r.text.default) : r.text;
  const thinking =
    typeof r.thinking === 'object' && r.thinking ? (r.thinking[runner] ?? r.thinking.default) : r.thinking;
  return { thinking: thinking || null, text: text || null, tools, e: loc.e, s: loc.step };
}

// Side requests (no exchange matched).
function sideReply(runner, body, sysText, lastUser) {
  const s = (sysText + '\n' + lastUser).toLowerCase();
  if (/title/.test(s) && /json/.test(s)) return { text: JSON.stringify({ title: 'Scripted session' }) };
  if (/title/.test(s)) return { text: 'Scripted session' };
  if (/summar/.test(s)) return { text: 'Summary: scripted session, nothing notable.' };
  if (/quota/.test(s)) return { text: 'ok' };
  if (/prefix/.test(s) && /command/.test(s)) return { text: 'none' };
  return { text: 'OK' };
}

// ---------------------------------------------------------------- SSE helpers
function sseHead(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}
function sse(res, event, data) {
  if (event) res.write(`event: ${event}\n`);
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

// ---------------------------------------------------------------- Anthropic
async function anthropic(req, res, body, route, scn) {
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

// ---------------------------------------------------------------- OpenAI chat
async function chat(req, res, body, route, scn) {
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

// ---------------------------------------------------------------- OpenAI responses
async function responses(req, res, body, route, scn) {
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

// ---------------------------------------------------------------- models
function models(route, rest) {
  const ids = ['claude-sonnet-4-5', 'scripted-model'];
  return {
    object: 'list',
    data: ids.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      display_name: id,
      created: 1700000000,
      created_at: '2025-01-01T00:00:00Z',
      owned_by: 'scripted',
    })),
    has_more: false,
    first_id: ids[0],
    last_id: ids[ids.length - 1],
  };
}

// ---------------------------------------------------------------- router
function parseRoute(url) {
  const u = new URL(url, 'http://x');
  const m = /^\/x\/([^/]+)\/([^/]+)\/([^/]*)(\/.*)?$/.exec(u.pathname);
  if (m) return { runner: m[1], scenario: m[2], workdir: b64urlDecode(m[3]), rest: m[4] || '/', query: u.search };
  return { runner: 'unknown', scenario: null, workdir: '', rest: u.pathname, query: u.search };
}

const server = http.createServer((req, res) => {
  const bufs = [];
  let size = 0;
  req.on('data', (d) => {
    size += d.length;
    if (size < 64 * 1024 * 1024) bufs.push(d);
  });
  req.on('end', async () => {
    const raw = Buffer.concat(bufs).toString('utf8');
    let body = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = null;
    }
    const route = parseRoute(req.url);
    const headers = { ...req.headers };
    for (const h of ['authorization', 'x-api-key', 'cookie'])
      if (headers[h]) headers[h] = '<redacted len=' + String(headers[h]).length + '>';
    log({
      kind: 'request',
      method: req.method,
      url: req.url,
      runner: route.runner,
      scenario: route.scenario,
      rest: route.rest,
      headers,
      body: body ?? (raw ? raw.slice(0, 20000) : null),
    });
    try {
      const scn = route.scenario ? loadScenario(route.scenario) : null;
      const rest = route.rest;
      if (req.method === 'POST' && /\/messages\/count_tokens$/.test(rest)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            input_tokens: est(body && body.messages) + est(body && body.system) + est(body && body.tools),
          }),
        );
      }
      if (req.method === 'POST' && /\/messages$/.test(rest)) return await anthropic(req, res, body || {}, route, scn);
      if (req.method === 'POST' && /\/chat\/completions$/.test(rest))
        return await chat(req, res, body || {}, route, scn);
      if (req.method === 'POST' && /\/responses$/.test(rest)) return await responses(req, res, body || {}, route, scn);
      if (req.method === 'GET' && /\/models\/?$/.test(rest)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(models(route, rest)));
      }
      const sm = /^\/_status\/([^/]+)\/([^/]+)$/.exec(req.url);
      if (req.method === 'GET' && sm) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(status(sm[1], sm[2])));
      }
      if (req.method === 'GET' && /\/healthz$/.test(rest)) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('ok');
      }
      if (req.method === 'HEAD') {
        res.writeHead(200);
        return res.end();
      }
      log({ kind: 'unhandled', method: req.method, url: req.url });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { type: 'not_found_error', message: `scripted server: no handler for ${req.method} ${rest}` },
        }),
      );
    } catch (err) {
      log({ kind: 'error', url: req.url, error: String((err && err.stack) || err) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    }
  });
});

server.listen(PORT, HOST, () => {
  const port = server.address().port;
  if (args['port-file']) fs.writeFileSync(args['port-file'], String(port));
  process.stdout.write(`scripted model server listening on http://${HOST}:${port}\n`);
});
const stop = () => {
  server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(() => {
  log({ kind: 'lifetime-exceeded' });
  process.exit(3);
}, MAX_LIFETIME_S * 1000).unref();
