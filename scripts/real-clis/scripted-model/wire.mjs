// What the three wire protocols share: ids, token estimates, chunked streaming over SSE.
import crypto from 'node:crypto';

export function rid(prefix, n = 24) {
  return prefix + crypto.randomBytes(16).toString('hex').slice(0, n);
}
export function est(obj) {
  const s = typeof obj === 'string' ? obj : JSON.stringify(obj ?? '');
  return Math.max(1, Math.ceil(s.length / 4));
}
export function chunks(s, n = 24) {
  const out = [];
  for (let i = 0; i < s.length; i += n) out.push(s.slice(i, i + n));
  return out.length ? out : [''];
}

export function sseHead(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}
export function sse(res, event, data) {
  if (event) res.write(`event: ${event}\n`);
  res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}
