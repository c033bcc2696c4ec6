import type { Queryable } from "./types.ts";

export interface UnguardedRelation {
  schema: string;
  name: string;
  kind: string;
  problem: string;
}

/**
 * Relations a member could reach without row-level security deciding what they see: in any schema
 * where anon or authenticated has USAGE (computed, not listed, so a new schema is covered the day it
 * is granted), a table or view that grants them anything must be guarded. A table guards itself with
 * RLS; a view only with security_invoker (otherwise it reads as its owner, past every policy); a
 * materialized view or foreign table cannot be guarded at all. Tables granting members nothing
 * (app_private's credentials) are walled by their missing grants, which is the rule there.
 */
export async function unguardedRelations(db: Queryable): Promise<UnguardedRelation[]> {
  return db.query<UnguardedRelation>(`
    with member(role) as (select unnest(array['anon', 'authenticated'])),
    exposed as (
      select n.oid, n.nspname from pg_namespace n
      where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
        and exists (select 1 from member m where has_schema_privilege(m.role, n.oid, 'USAGE'))
    ),
    reachable as (
      select e.nspname as schema, c.relname as name, c.relkind::text as kind, c.relrowsecurity, c.reloptions
      from pg_class c join exposed e on e.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm', 'f')
        and exists (select 1 from member m
          where has_any_column_privilege(m.role, c.oid, 'SELECT, INSERT, UPDATE, REFERENCES')
             or has_table_privilege(m.role, c.oid, 'DELETE, TRUNCATE'))
    )
    select schema, name, kind,
      case
        when kind in ('r', 'p') then 'row level security is off'
        when kind = 'v' then 'view without security_invoker reads as its owner'
        else 'cannot be guarded by row level security'
      end as problem
    from reachable
    where case
      when kind in ('r', 'p') then not relrowsecurity
      when kind = 'v' then not coalesce(reloptions::text[] && array['security_invoker=true', 'security_invoker=on', 'security_invoker=1'], false)
      else true
    end
    order by schema, name`);
}
