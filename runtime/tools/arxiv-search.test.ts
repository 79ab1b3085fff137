import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedArxiv, type ScriptedArxiv } from '../../tests/support/scripted-arxiv.ts';
import { arxivSearch } from './arxiv-search.ts';

// C35 arxiv_search against a scripted arXiv Atom API on 127.0.0.1.
let arxiv: ScriptedArxiv;
const TRANSFORMER = {
  id: '1706.03762v7',
  title: 'Attention Is All\n  You Need',
  authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar', 'Jakob Uszkoreit'],
  published: '2017-06-12T17:57:34Z',
};
const BERT = {
  id: '1810.04805v2',
  title: 'BERT & friends',
  authors: ['Jacob Devlin'],
  published: '2018-10-11T00:00:00Z',
};

beforeAll(async () => {
  arxiv = await startScriptedArxiv([TRANSFORMER, BERT]);
});
afterAll(() => arxiv.close());
beforeEach(() => {
  arxiv.queries.length = 0;
  arxiv.status = null;
  arxiv.body = null;
});

const options = () => ({ arxivUrl: arxiv.url, allowLoopbackTargets: true });

describe('arxivSearch (C35)', () => {
  it('lists preprints one per line (title, first three authors, year, https abstract link), asking for rows', async () => {
    const text = await arxivSearch({ query: ' attention ', rows: 2 }, options());
    expect(text).toBe(
      [
        '1. Attention Is All You Need — Ashish Vaswani, Noam Shazeer, Niki Parmar et al. (2017). https://arxiv.org/abs/1706.03762v7',
        '2. BERT & friends — Jacob Devlin (2018). https://arxiv.org/abs/1810.04805v2',
      ].join('\n'),
    );
    expect(arxiv.queries).toEqual([{ searchQuery: 'all:attention', maxResults: '2' }]);
  });

  it('asks for five by default and says so when nothing matched', async () => {
    arxiv.preprints = [];
    try {
      expect(await arxivSearch({ query: 'nothing' }, options())).toBe('No preprints found for “nothing”.');
      expect(arxiv.queries[0]?.maxResults).toBe('5');
    } finally {
      arxiv.preprints = [TRANSFORMER, BERT];
    }
  });

  it('refuses bad input before any request: tool-input-invalid', async () => {
    for (const input of [{ query: '' }, { query: 'x', rows: 11 }, { rows: 2 }, 'attention'])
      await expect(arxivSearch(input, options())).rejects.toMatchObject({ code: 'tool-input-invalid' });
    expect(arxiv.queries).toHaveLength(0);
  });

  it('an answer that is not an Atom feed is tool-bad-answer; an HTTP error is fetch-failed', async () => {
    arxiv.body = '<html><body>Service unavailable</body></html>';
    await expect(arxivSearch({ query: 'x' }, options())).rejects.toMatchObject({ code: 'tool-bad-answer' });
    arxiv.body = null;
    arxiv.status = 503;
    await expect(arxivSearch({ query: 'x' }, options())).rejects.toMatchObject({ code: 'fetch-failed' });
  });

  it('a loopback arXiv address without the tests-only switch is refused (url-refused), nothing sent', async () => {
    await expect(arxivSearch({ query: 'x' }, { arxivUrl: arxiv.url })).rejects.toMatchObject({ code: 'url-refused' });
    expect(arxiv.queries).toHaveLength(0);
  });
});
