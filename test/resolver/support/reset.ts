import { sqlAsService } from "../../support/store";

/**
 * The catalog is shared and outlives a test run on a server database. Tests that resolve fixed
 * ids (fixture ids, seeded titles under a new URL) first remove what an earlier run attached, so
 * they see the same "first resolve" on a reused database as on a fresh one.
 */
export async function forgetResolved(): Promise<void> {
  await sqlAsService(
    `delete from public.catalog_entries c
      where c.source <> 'seed'
        and not exists (select 1 from public.items i where i.song_id = c.id)
        and exists (select 1 from public.catalog_external_ids x where x.entry_id = c.id
                     and (x.value like '9000000%' or x.value like '%Fixture%' or x.value like '%fixture%'
                          or x.value like '00000000-0000-4000-8000-%' or x.value like 'Q9000000%'
                          or x.value in ('9780385533225', 'XXFIX9900001')))`,
  );
  await sqlAsService(
    `delete from public.catalog_external_ids
      where (namespace = 'letterboxd:film' and value = 'the-matrix')
         or (namespace = 'gmaps:cid' and value = $1)`,
    [BigInt("0x8ddca9ee380ef7e0").toString()],
  );
}
