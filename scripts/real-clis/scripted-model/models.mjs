// GET .../models: the model listing every runner asks for.
export function models() {
  const ids = ['claude-sonnet-4-5', 'scripted-model'];
  return {
    object: 'list',
    data: ids.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      display_name: id,
      created: 1700000000,
      created_at: '2025-01-01T00:00:00Z',
      owned_by: 'scripted',
    })),
    has_more: false,
    first_id: ids[0],
    last_id: ids[ids.length - 1],
  };
}
