import { useEffect, useState } from 'react';
import type { McpServersResponse, McpToolsResponse, QuestionNode, ToolDeclaration } from '../../../protocol/index.ts';
import { sameDeclaration, plural } from '../../core/index.ts';
import { describeError } from '../api/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';

type Listing =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'loaded'; tools: McpToolsResponse }
  | { state: 'failed'; message: string };

/**
 * C35: the tools of the MCP servers in `mcp.json`, per question, all off until switched on. Opening the list
 * starts the servers (stdio) to ask for their tools; a tool switched on is kept with its declaration, which the
 * request offers and hashes. A server that declares a tool differently now is said so, with a way to take it.
 */
export function McpToolsSection({ node }: { node: QuestionNode }) {
  const store = useWeftStore();
  const apply = useWeft((state) => state.apply);
  const [servers, setServers] = useState<McpServersResponse | null>(null);
  const [listing, setListing] = useState<Listing>({ state: 'idle' });
  const enabled = node.mcpTools ?? [];

  useEffect(() => {
    store.api.mcpServers().then(setServers, () => setServers(null));
  }, [store]);

  const load = () => {
    if (listing.state === 'loading' || listing.state === 'loaded') return;
    setListing({ state: 'loading' });
    store.api.mcpTools().then(
      (tools) => setListing({ state: 'loaded', tools }),
      (error: unknown) => setListing({ state: 'failed', message: describeError(error).message }),
    );
  };
  const save = (tools: ToolDeclaration[]) =>
    apply({
      type: 'edit-node',
      nodeId: node.id,
      // One order whatever order they were switched on in, so the same set always hashes the same.
      patch: { mcpTools: [...tools].sort((left, right) => left.name.localeCompare(right.name)) },
    });
  const toggle = (declaration: ToolDeclaration, on: boolean) =>
    save([...enabled.filter((tool) => tool.name !== declaration.name), ...(on ? [declaration] : [])]);

  if (!servers || (servers.servers.length === 0 && !servers.error && enabled.length === 0)) return null;
  const live = listing.state === 'loaded' ? listing.tools.servers.flatMap((server) => server.tools) : [];
  const listedNames = new Set(live.map((tool) => tool.name));
  return (
    <details className="mcp-tools" data-testid="mcp-tools" onToggle={(event) => event.currentTarget.open && load()}>
      <summary>
        MCP tools ({plural(servers.servers.length, 'server')} in mcp.json
        {enabled.length > 0 ? `, ${enabled.length} on` : ''})
      </summary>
      {servers.error && (
        <div className="hint error" data-testid="mcp-config-error" title={servers.error.code}>
          {servers.error.message}
        </div>
      )}
      {listing.state === 'loading' && <div className="hint">Starting the servers and asking for their tools…</div>}
      {listing.state === 'failed' && <div className="hint error">{listing.message}</div>}
      {listing.state === 'loaded' &&
        listing.tools.servers.map((server) => (
          <div key={server.name} data-testid="mcp-server-tools">
            <div className="hint" title={server.error?.code}>
              <strong>{server.name}</strong>
              {server.error ? ` — ${server.error.message}` : ''}
            </div>
            {server.tools.map((tool) => {
              const kept = enabled.find((candidate) => candidate.name === tool.name);
              return (
                <div key={tool.name}>
                  <label className="switch" style={{ display: 'flex' }} title={tool.description}>
                    <input
                      type="checkbox"
                      data-testid={`mcp-tool-${tool.name}`}
                      checked={Boolean(kept)}
                      onChange={(event) => toggle(tool, event.target.checked)}
                    />
                    {tool.name}
                  </label>
                  {kept && !sameDeclaration(kept, tool) && (
                    <div className="hint" data-testid="mcp-tool-changed">
                      Its server declares it differently now; an ask is refused until you take the new declaration.{' '}
                      <button className="button" onClick={() => toggle(tool, true)}>
                        Take it
                      </button>
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        ))}
      {/* Tools switched on whose server is not listed (not loaded yet, or gone): still shown, to switch off. */}
      {enabled
        .filter((tool) => !listedNames.has(tool.name))
        .map((tool) => (
          <label key={tool.name} className="switch" style={{ display: 'flex' }}>
            <input type="checkbox" data-testid={`mcp-tool-${tool.name}`} checked onChange={() => toggle(tool, false)} />
            {tool.name}
            {listing.state === 'loaded' ? ' (not offered by its server now)' : ''}
          </label>
        ))}
    </details>
  );
}
