/**
 * A body whose JSON text is already written (a list page the database rendered): the REST answer
 * sends that text as it is, instead of parsing it into objects only to serialise them again.
 * Everyone else reads the body as plain data; JSON.stringify of it gives the same JSON.
 */
const JSON_TEXT = Symbol("json text");

export function withJsonText<T extends object>(value: T, text: string): T {
  Object.defineProperty(value, JSON_TEXT, { value: text });
  return value;
}

export function jsonText(body: unknown): string {
  const text = typeof body === "object" && body !== null ? (body as { [JSON_TEXT]?: string })[JSON_TEXT] : undefined;
  return text ?? JSON.stringify(body);
}
