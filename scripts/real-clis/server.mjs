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
//
// The protocol pieces live in scripted-model/: script.mjs (scenario position and replies), runner-tools.mjs,
// conversation.mjs, and one file per wire protocol.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { anthropic } from './scripted-model/anthropic.mjs';
import { chat } from './scripted-model/chat.mjs';
import { models } from './scripted-model/models.mjs';
import { log, openRequestLog } from './scripted-model/request-log.mjs';
import { responses } from './scripted-model/responses.mjs';
import { loadScenario, status, useScenarioDir } from './scripted-model/script.mjs';
import { est } from './scripted-model/wire.mjs';

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
useScenarioDir(SCEN_DIR);
openRequestLog(LOG_FILE);

function b64urlDecode(s) {
  try {
    return Buffer.from(s, 'base64url').toString('utf8');
  } catch {
    return '';
  }
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
        return res.end(JSON.stringify(models()));
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
