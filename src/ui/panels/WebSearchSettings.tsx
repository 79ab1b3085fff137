import { useEffect, useState, type RefObject } from 'react';
import type { WebSearchProvider, WebSearchSettings as Saved } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/**
 * C35: the service behind the `web_search` tool — Brave (its key, write-only like a provider key) or a SearXNG
 * instance. Its own route, saved by the page's one Save (`saveRef`) when it changed, so a question's web search uses
 * it from the next call on; a refusal is said in this card.
 */
export function WebSearchSettings({ saveRef }: { saveRef: RefObject<(() => Promise<boolean>) | null> }) {
  const store = useWeftStore();
  const [saved, setSaved] = useState<Saved | null>(null);
  const [provider, setProvider] = useState<WebSearchProvider | ''>('');
  const [searxngUrl, setSearxngUrl] = useState('');
  const [braveKey, setBraveKey] = useState('');
  const [message, setMessage] = useState<string | null>(null);

  const show = (settings: Saved) => {
    setSaved(settings);
    setProvider(settings.provider ?? '');
    setSearxngUrl(settings.searxngUrl ?? '');
    setBraveKey('');
  };
  useEffect(() => {
    store.api.webSearch().then(show, (error: unknown) => setMessage(describeError(error).message));
  }, [store]);

  const changed =
    saved !== null &&
    (provider !== (saved.provider ?? '') || searxngUrl.trim() !== (saved.searxngUrl ?? '') || braveKey !== '');
  // Saves only what changed; true when there was nothing to save or it saved.
  const save = async (): Promise<boolean> => {
    if (!changed) return true;
    setMessage(null);
    try {
      show(
        await store.api.saveWebSearch({
          provider: provider || null,
          searxngUrl: searxngUrl.trim() || null,
          ...(braveKey ? { braveKey } : {}),
        }),
      );
      setMessage('Saved');
      return true;
    } catch (error) {
      setMessage(`Not saved: ${describeError(error).message}`);
      return false;
    }
  };
  useEffect(() => {
    saveRef.current = save;
  });

  return (
    <div className="card-panel" data-testid="web-search-settings">
      <h2>Web search</h2>
      <label className="field">
        <span>Service behind a question&apos;s “Web search” tool</span>
        <select
          className="input"
          data-testid="web-search-provider"
          value={provider}
          onChange={(event) => setProvider(event.target.value as WebSearchProvider | '')}
        >
          <option value="">None (the tool is refused)</option>
          <option value="brave">Brave Search (API key)</option>
          <option value="searxng">SearXNG (your instance)</option>
        </select>
      </label>
      {provider === 'brave' && (
        <label className="field">
          <span>Brave Search API key {saved?.hasBraveKey ? '(saved — type to replace)' : ''}</span>
          <input
            className="input"
            type="password"
            data-testid="web-search-brave-key"
            value={braveKey}
            onChange={(event) => setBraveKey(event.target.value)}
          />
        </label>
      )}
      {provider === 'searxng' && (
        <label className="field">
          <span>SearXNG URL (its JSON format must be switched on)</span>
          <input
            className="input"
            data-testid="web-search-searxng-url"
            placeholder="https://searx.example.org"
            value={searxngUrl}
            onChange={(event) => setSearxngUrl(event.target.value)}
          />
        </label>
      )}
      {message && (
        <div className="hint" data-testid="web-search-message">
          {message}
        </div>
      )}
    </div>
  );
}
