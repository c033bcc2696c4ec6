import { UPLOAD_URL_LIFETIME_SECONDS } from "../../../registry/operations/uploads.ts";
import type { ToolHandler } from "../context.ts";
import { storageDriver } from "./driver.ts";

interface Minted {
  key: string;
  expires_at: string;
  expires_epoch: number;
}

/**
 * POST /uploads: the store mints the record (refusing members not on Pro with PDS01), then the
 * driver signs a PUT for exactly that key, type, size and expiry. Signing is local computation,
 * so it may run inside the member transaction.
 */
export const mintUpload: ToolHandler<"uploads_create"> = async ({ tx, input }) => {
  const { purpose, content_type: contentType, size } = input;
  const [row] = await tx.query<{ minted: Minted }>("select app_private.mint_upload($1, $2, $3, $4) as minted", [
    purpose,
    contentType,
    size,
    UPLOAD_URL_LIFETIME_SECONDS,
  ]);
  if (!row) throw new Error("mint_upload returned nothing");
  const { key, expires_at, expires_epoch } = row.minted;
  const expiresAt = new Date(Number(expires_epoch) * 1000);
  const signed = await storageDriver().presignPut({ key, purpose, contentType, size, expiresAt });
  return { url: signed.url, method: "PUT", headers: signed.headers, key, expires_at };
};
