// Where a conversation stands in its scenario's script, the reply planned from it, and what was served.
import fs from 'node:fs';
import path from 'node:path';
import { toolFor } from './runner-tools.mjs';
import { parseId } from './tool-ids.mjs';

let scenarioDir = '.';

/** The folder holding scenarios/<name>.json. */
export function useScenarioDir(folder) {
  scenarioDir = folder;
}

export function loadScenario(name) {
  const f = path.join(scenarioDir, `${name}.json`);
  if (!fs.existsSync(f)) return null;
  return JSON.parse(fs.readFileSync(f, 'utf8'));
}

export function locate(scn, conv) {
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
export function status(runner, scnName) {
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
export function planReply(runner, scn, loc, ctx) {
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
export function sideReply(runner, body, sysText, lastUser) {
  const s = (sysText + '\n' + lastUser).toLowerCase();
  if (/title/.test(s) && /json/.test(s)) return { text: JSON.stringify({ title: 'Scripted session' }) };
  if (/title/.test(s)) return { text: 'Scripted session' };
  if (/summar/.test(s)) return { text: 'Summary: scripted session, nothing notable.' };
  if (/quota/.test(s)) return { text: 'ok' };
  if (/prefix/.test(s) && /command/.test(s)) return { text: 'none' };
  return { text: 'OK' };
}
