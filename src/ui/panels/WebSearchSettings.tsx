import { useEffect, useState } from 'react';
import type { WebSearchProvider, WebSearchSettings as Saved } from '../../../protocol/index.ts';
import { describeError } from '../api/index.ts';
import { useWeftStore } from '../kit/index.ts';

/**
 * C35: the service behind the `web_search` tool — Brave (its key, write-only like a provider key) or a SearXNG
 * instance. Saved on its own, so a question's web search uses it from the next call on.
 */
export function WebSearchSettings() {
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

  const save = async () => {
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
    } catch (error) {
      const { code, message } = describeError(error);
      setMessage(`${code}: ${message}`);
    }
  };

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
      <div className="button-row">
        <button className="button" data-testid="save-web-search" onClick={() => void save()}>
          Save web search
        </button>
        {message && <span data-testid="web-search-message">{message}</span>}
      </div>
    </div>
  );
}
