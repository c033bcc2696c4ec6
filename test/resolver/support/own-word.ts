import { randomInt } from "node:crypto";

/**
 * A word of a test's own: `count` distinct letters, none of `outside`. Distinct, and apart from the
 * words the test builds on it, so its similarities to those stay as the test computes them (a repeated
 * letter, or one shared with the rest of a word, shifts them), and no other entry starts with it.
 */
export function ownLetters(count: number, outside: string): string {
  const letters = [..."abcdefghijklmnopqrstuvwxyz"].filter((letter) => !outside.includes(letter));
  return Array.from({ length: count }, () => letters.splice(randomInt(letters.length), 1)[0]).join("");
}
