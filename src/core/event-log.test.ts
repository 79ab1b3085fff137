import { describe, expect, it } from 'vitest';
import { appendEvent, chainAnchor, eventsToCsv, verifyChain } from './event-log.ts';
import type { EventRecord } from '../../protocol/event-record.ts';

function log(count: number): EventRecord[] {
  const events: EventRecord[] = [];
  for (let index = 0; index < count; index += 1) {
    events.push(
      appendEvent(
        events,
        { op: 'edit', objectId: `n${index}`, meta: { fields: 'question' } },
        { now: 1_700_000_000_000 + index, newId: () => `e${index}` },
      ),
    );
  }
  return events;
}

describe('event log (C10)', () => {
  it('chains each event to the previous hash', () => {
    const events = log(3);
    expect(events[0]!.prevHash).toBe('');
    expect(events[1]!.prevHash).toBe(events[0]!.hash);
    expect(verifyChain(events)).toBeNull();
  });

  it('reports the first bad index', () => {
    const events = log(5);
    const altered = events.map((event, index) => (index === 2 ? { ...event, objectId: 'other' } : event));
    expect(verifyChain(altered)).toBe(2);
    expect(verifyChain([...events.slice(0, 1), ...events.slice(2)])).toBe(1);
  });

  it('detects truncation against an anchor kept elsewhere', () => {
    const events = log(4);
    const anchor = chainAnchor(events);
    expect(verifyChain(events.slice(0, 3))).toBeNull();
    expect(verifyChain(events.slice(0, 3), anchor)).toBe(3);
    expect(verifyChain(events, anchor)).toBeNull();
  });

  it('exports RFC 4180 CSV with quoting and formula guarding', () => {
    const events = [
      appendEvent(
        [],
        { op: 'edit', objectId: '=cmd()', meta: { fields: 'question,text' } },
        { now: 0, newId: () => 'e"1' },
      ),
    ];
    const csv = eventsToCsv(events);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('id,at,time,op,objectId,meta,prevHash,hash');
    expect(lines[1]).toBe(
      `"e""1",0,1970-01-01T00:00:00.000Z,edit,'=cmd(),"{""fields"":""question,text""}",,${events[0]!.hash}`,
    );
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});

describe('event log against crafted input', () => {
  it('reports an event holding a lone surrogate as bad instead of throwing', () => {
    const events = log(3);
    const crafted = events.map((event, index) => (index === 1 ? { ...event, objectId: 'n\ud8001' } : event));
    expect(verifyChain(crafted)).toBe(1);
  });

  it('exports an event whose time no Date can show, with an empty time cell', () => {
    const [event] = log(1);
    const csv = eventsToCsv([{ ...event!, at: 9e15 }]);
    expect(csv.split('\r\n')[1]).toMatch(/^e0,9000000000000000,,edit,/);
  });

  it('guards every formula-leading character and quotes commas, quotes and newlines', () => {
    const cells = ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx', 'a,b', 'say "hi"', 'line\nbreak', 'plain'];
    const events: EventRecord[] = [];
    for (const [index, objectId] of cells.entries()) {
      events.push(appendEvent(events, { op: 'edit', objectId, meta: {} }, { now: index, newId: () => `e${index}` }));
    }
    const rows = eventsToCsv(events)
      .split('\r\n')
      .slice(1, -1)
      .map((row) => row.split(',')[4]);
    expect(rows.slice(0, 4)).toEqual(["'=1+1", "'+1", "'-1", "'@SUM(A1)"]);
    expect(eventsToCsv(events)).toContain(`,'\tx,`);
    expect(eventsToCsv(events)).toContain(`,"'\rx",`);
    expect(eventsToCsv(events)).toContain(`,"a,b",`);
    expect(eventsToCsv(events)).toContain(`,"say ""hi""",`);
    expect(eventsToCsv(events)).toContain(`,"line\nbreak",`);
    expect(rows.at(-1)).toBe('plain');
  });
});
