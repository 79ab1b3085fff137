/** The `initialize` params Weft sends every `codex app-server` it starts (a turn, or the model listing). */
export const CODEX_INITIALIZE_PARAMS = {
  clientInfo: { name: 'weft', title: 'Weft', version: '0' },
  capabilities: { experimentalApi: false, requestAttestation: false },
} as const;
