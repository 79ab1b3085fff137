/**
 * A small JSON Schema subset, enough to say "this answer is the record I asked for": `type` (one or a list of
 * `object`, `array`, `string`, `number`, `integer`, `boolean`, `null`), `properties`, `required`,
 * `additionalProperties: false`, `items`, `enum`, `const`, `minimum` / `maximum`, `minLength` / `maxLength`,
 * `minItems` / `maxItems`. Any other keyword is refused up front (`unsupportedKeyword`), so a schema never passes
 * because a keyword was silently ignored. Returns the first violation, with its JSON path, or null.
 */
export type JsonSchema = Record<string, unknown>;

const SUPPORTED = new Set([
  '$schema',
  'title',
  'description',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
]);

/** The first keyword of `schema` (or a nested one) this subset does not check, or null. */
export function unsupportedKeyword(schema: unknown, path = '#'): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return `${path} is not a schema`;
  const record = schema as JsonSchema;
  for (const key of Object.keys(record)) {
    if (!SUPPORTED.has(key)) return `${path}/${key}`;
    if (key === 'additionalProperties' && record[key] !== false && record[key] !== true) return `${path}/${key}`;
  }
  const properties = record.properties;
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null) return `${path}/properties`;
    for (const [name, sub] of Object.entries(properties)) {
      const found = unsupportedKeyword(sub, `${path}/properties/${name}`);
      if (found) return found;
    }
  }
  return record.items === undefined ? null : unsupportedKeyword(record.items, `${path}/items`);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The first way `value` breaks `schema` ("$.name: expected string"), or null when it conforms. */
export function schemaViolation(value: unknown, schema: JsonSchema, path = '$'): string | null {
  const actual = typeOf(value);
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const fits = allowed.includes(actual) || (actual === 'integer' && allowed.includes('number'));
    if (!fits) return `${path}: expected ${allowed.join(' or ')}, got ${actual}`;
  }
  if (schema.const !== undefined && !sameJson(value, schema.const)) return `${path}: not the required value`;
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => sameJson(option, value))) {
    return `${path}: not one of the allowed values`;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return `${path}: below ${schema.minimum}`;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return `${path}: above ${schema.maximum}`;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength)
      return `${path}: shorter than ${schema.minLength}`;
    if (typeof schema.maxLength === 'number' && length > schema.maxLength)
      return `${path}: longer than ${schema.maxLength}`;
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      return `${path}: fewer than ${schema.minItems} items`;
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      return `${path}: more than ${schema.maxItems} items`;
    if (schema.items !== undefined) {
      for (let index = 0; index < value.length; index += 1) {
        const found = schemaViolation(value[index], schema.items as JsonSchema, `${path}[${index}]`);
        if (found) return found;
      }
    }
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (schema.required ?? []) as string[]) {
      if (!Object.hasOwn(record, name)) return `${path}: missing required ${name}`;
    }
    for (const [name, entry] of Object.entries(record)) {
      const sub = properties[name];
      if (sub) {
        const found = schemaViolation(entry, sub, `${path}.${name}`);
        if (found) return found;
      } else if (schema.additionalProperties === false) return `${path}: unexpected property ${name}`;
    }
  }
  return null;
}

/** The JSON an answer holds: the whole answer, or else its one fenced code block (```json … ```). */
export function answerJson(answer: string): { ok: true; value: unknown } | { ok: false } {
  const candidates = [answer.trim()];
  const fenced = [...answer.matchAll(/```[a-zA-Z]*\n([\s\S]*?)\n```/g)];
  if (fenced.length === 1) candidates.push(fenced[0]![1]!.trim());
  for (const text of candidates) {
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch {
      // try the next candidate
    }
  }
  return { ok: false };
}
