import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsFigureRequest, ResultsFigureResponse } from '../../protocol/index.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.dispose();
});

function post(body: unknown) {
  return server.api('/api/figures/checks', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const cell = (model: string, checkId: string, words: string, passed: number, scored: number) => ({
  nodeId: 'q1',
  question: 'Which city?',
  checkId,
  words,
  model,
  passed,
  scored,
});

describe('POST /api/figures/checks', () => {
  it('renders a bar per model in a chart per check, labelled with the pass counts', async () => {
    const body: ResultsFigureRequest = {
      cells: [
        cell('alpha/one', 'paris', 'contains “Paris”', 3, 4),
        cell('beta/two', 'paris', 'contains “Paris”', 1, 4),
        cell('alpha/one', 'year', 'number = 1889', 4, 4),
        cell('beta/two', 'year', 'number = 1889', 0, 4),
      ],
    };
    const response = await post(body);
    expect(response.status).toBe(200);
    const { svg } = (await response.json()) as ResultsFigureResponse;
    expect(svg.startsWith('<svg')).toBe(true);
    // One bar per cell (vega draws each bar as a path with role graphics-symbol in the mark-rect group).
    expect(svg.match(/aria-roledescription="bar"/g)).toHaveLength(4);
    for (const text of ['3/4', '1/4', '4/4', '0/4', 'alpha/one', 'beta/two', 'contains “Paris”', 'number = 1889'])
      expect(svg).toContain(text);
  });

  it('refuses an empty chart', async () => {
    const response = await post({ cells: [] });
    expect(response.status).toBe(400);
  });
});
