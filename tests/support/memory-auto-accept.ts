/**
 * Switches Settings' "accept profile facts automatically" on (issue 29.1), for tests about what the constitution
 * and the merge write rather than about the Inbox: with it off (the default) admitted facts wait for review.
 */
export async function acceptProfileFactsAutomatically(server: {
  api(path: string, init?: RequestInit): Promise<Response>;
}): Promise<void> {
  const response = await server.api('/api/settings', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ memoryAutoAccept: { profileFacts: true } }),
  });
  if (!response.ok) throw new Error(`settings refused auto-accept: ${response.status} ${await response.text()}`);
}
