import type { Capability } from "../../../registry/capabilities.ts";
import type { UploadPurpose } from "../../../registry/define.ts";
import { asService } from "../../db/index.ts";
import { storageDriver } from "./driver.ts";
import { isUploadKey } from "./keys.ts";

interface Pending {
  key: string;
  purpose: UploadPurpose;
  content_type: string;
  size: number;
}

/**
 * A store that cannot call us back (S3) is asked on first use instead: before a write that sets an
 * upload key of this member, a pending upload whose object has arrived with the signed type and
 * size is marked complete. The store's trigger then decides as usual. Runs outside the member
 * transaction because it may wait on the network; a no-op for the local driver.
 */
export async function settleUploadKeys(
  capability: Capability,
  input: Record<string, unknown>,
  memberId: string,
): Promise<void> {
  if (capability.source.kind !== "resource") return;
  const keys = Object.entries(capability.source.resource.fields)
    .filter(([name, field]) => field.uploadPurpose && typeof input[name] === "string")
    .map(([name]) => String(input[name]))
    .filter(isUploadKey);
  if (keys.length === 0) return;
  const driver = storageDriver();
  if (!driver.confirm) return;
  const pending = await asService((tx) =>
    tx.query<Pending>(
      `select key, purpose, content_type, size::int as size from app_private.uploads
       where key = any($1::text[]) and owner_id = $2 and status = 'pending'`,
      [keys, memberId],
    ),
  );
  for (const upload of pending) {
    const arrived = await driver.confirm({
      key: upload.key,
      purpose: upload.purpose,
      contentType: upload.content_type,
      size: upload.size,
    });
    if (!arrived) continue;
    await asService((tx) =>
      tx.query(
        "update app_private.uploads set status = 'complete', completed_at = now() where key = $1 and status = 'pending'",
        [upload.key],
      ),
    );
  }
}
