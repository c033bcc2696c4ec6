/**
 * Whether the store can hold this text as sent. Postgres text never holds U+0000 (22021 on text,
 * 22P05 in jsonb), and a lone surrogate has no UTF-8 form: the driver writes U+FFFD in its place
 * (jsonb refuses it). The REST surface learns this from the store's refusal (lib/domain/store-errors.ts,
 * class 22 → 422); inputs that reach the database outside that pipeline (OAuth) check first, so such
 * text is refused as the client's mistake rather than failing the query.
 */
export function isStorableText(text: string): boolean {
  return !text.includes("\u0000") && !/\p{Cs}/u.test(text);
}

/** Where in parsed JSON the first string or key the store could not hold is, or undefined when there is none. */
export function unstorablePath(
  value: unknown,
  path: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : [...path];
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorablePath(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!isStorableText(key)) return [...path, key];
    const found = unstorablePath(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
