// Each wire protocol's request, normalised to [{ role: 'user' | 'assistant' | 'tool', texts: [...], ids: [...] }].
export function textOf(c) {
  if (c == null) return [];
  if (typeof c === 'string') return [c];
  if (Array.isArray(c)) return c.flatMap((b) => (b && (b.type === 'text' || b.type === 'input_text') ? [b.text] : []));
  return [];
}
export function normAnthropic(body) {
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
export function normChat(body) {
  const out = [];
  for (const m of body.messages || []) {
    if (m.role === 'user') out.push({ role: 'user', texts: textOf(m.content), ids: [] });
    else if (m.role === 'assistant')
      out.push({ role: 'assistant', texts: textOf(m.content), ids: (m.tool_calls || []).map((t) => t.id) });
    else if (m.role === 'tool') out.push({ role: 'tool', texts: [], ids: [] });
  }
  return out;
}
export function normResponses(body) {
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
