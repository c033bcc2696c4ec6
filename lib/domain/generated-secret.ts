import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const MIN_SECRET_LENGTH = 32;

/**
 * A secret the embedded default generates for itself: read from `file`, or written there first
 * (32 random bytes, mode 0600) so it survives restarts. Production refuses this path (several
 * instances would each make their own): see productionProblems in lib/db/config.ts.
 */
export function readOrCreateSecret(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // "wx": two processes starting together cannot both write; the loser reads the winner's.
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = fs.readFileSync(file, "utf8").trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`${file} holds no usable secret; delete it to make a new one`);
  return secret;
}
