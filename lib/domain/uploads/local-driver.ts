import type { StorageConfig } from "./config.ts";
import type { PresignedPut, StorageDriver } from "./driver.ts";
import type { UploadTarget } from "./keys.ts";
import { putQuery, signPut } from "./local-signature.ts";
import { uploadSigningSecret } from "./signing-secret.ts";

/** The path of the storage route, outside /api/v1, so upload bytes never pass through the API. */
export const LOCAL_UPLOAD_PATH = "/storage/upload";

export function localDriver(config: Extract<StorageConfig, { driver: "local" }>): StorageDriver {
  return {
    name: "local",
    async presignPut(target: UploadTarget): Promise<PresignedPut> {
      const put = {
        key: target.key,
        expires: Math.floor(target.expiresAt.getTime() / 1000),
        contentType: target.contentType,
        size: target.size,
      };
      const signature = signPut(uploadSigningSecret(config.dataDir), put);
      return {
        url: `${config.siteUrl}${LOCAL_UPLOAD_PATH}/${target.key}?${putQuery(put, signature)}`,
        headers: { "Content-Type": target.contentType, "Content-Length": String(target.size) },
      };
    },
  };
}
