import fs from "node:fs/promises";
import path from "node:path";
import type { StorageConfig } from "./config.ts";
import type { PresignedPut, StorageDriver } from "./driver.ts";
import type { UploadTarget } from "./keys.ts";
import { putQuery, signGet, signPut } from "./local-signature.ts";
import { uploadSigningSecret } from "./signing-secret.ts";

/** The path of the storage route, outside /api/v1, so upload bytes never pass through the API. */
export const LOCAL_UPLOAD_PATH = "/storage/upload";
/** Signed downloads (exports) of the local driver. */
export const LOCAL_MEDIA_PATH = "/storage/media";

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
    async presignGet(key: string, expiresAt: Date): Promise<string> {
      const get = { key, expires: Math.floor(expiresAt.getTime() / 1000) };
      const signature = signGet(uploadSigningSecret(config.dataDir), get);
      return `${config.siteUrl}${LOCAL_MEDIA_PATH}/${key}?${new URLSearchParams({ expires: String(get.expires), signature })}`;
    },
    async deleteObject(key: string): Promise<void> {
      await fs.rm(path.join(config.dir, key), { force: true });
    },
  };
}
