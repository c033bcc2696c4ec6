import { pointer } from "./validation.ts";

/**
 * The JSON Pointer of the first object key that appears twice in a JSON text, or null. JSON.parse
 * keeps the last of repeated keys silently; a request that names a field twice is as ambiguous as
 * a repeated query parameter, so every surface refuses both. Expects text JSON.parse accepted.
 */
export function duplicateKeyPointer(text: string): string | null {
  type Frame =
    | { kind: "object"; keys: Set<string>; key: string; expectKey: boolean }
    | { kind: "array"; index: number };
  const frames: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const top = frames.at(-1);
    if (char === "{") frames.push({ kind: "object", keys: new Set(), key: "", expectKey: true });
    else if (char === "[") frames.push({ kind: "array", index: 0 });
    else if (char === "}" || char === "]") frames.pop();
    else if (char === ",") {
      if (top?.kind === "object") top.expectKey = true;
      else if (top?.kind === "array") top.index++;
    } else if (char === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === "object" && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) return pointerOf([...frames.slice(0, -1), { ...top, key }]);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    }
  }
  return null;
}

/** Index of the quote that closes the string opened at start. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

const pointerOf = (frames: readonly ({ kind: "object"; key: string } | { kind: "array"; index: number })[]) =>
  pointer(frames.map((frame) => (frame.kind === "object" ? frame.key : frame.index)));
