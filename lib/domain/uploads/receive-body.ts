import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DomainError } from "../../errors/domain-error.ts";

export interface Received {
  tempPath: string;
  sha256: string;
}

/**
 * Streams the body to a temporary file under <dir>/.incoming, counting bytes as they come: one
 * byte more than signed stops the read at once (413); fewer than signed is refused at the end (400).
 */
export async function receiveBody(
  body: ReadableStream<Uint8Array> | null,
  dir: string,
  size: number,
): Promise<Received> {
  const incoming = path.join(/*turbopackIgnore: true*/ dir, ".incoming");
  await fs.promises.mkdir(incoming, { recursive: true, mode: 0o700 });
  const tempPath = path.join(incoming, randomUUID());
  const file = await fs.promises.open(tempPath, "wx", 0o600);
  const hash = createHash("sha256");
  let received = 0;
  try {
    const reader = body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      received += chunk.value.byteLength;
      if (received > size) {
        await reader?.cancel();
        throw new DomainError("payload_too_large", `This URL accepts exactly ${size} bytes; more were sent.`);
      }
      hash.update(chunk.value);
      await file.write(chunk.value);
    }
    if (received !== size) {
      throw new DomainError("malformed_request", `This URL accepts exactly ${size} bytes; ${received} were sent.`);
    }
    return { tempPath, sha256: hash.digest("hex") };
  } catch (error) {
    await fs.promises.rm(tempPath, { force: true });
    throw error;
  } finally {
    await file.close();
  }
}
