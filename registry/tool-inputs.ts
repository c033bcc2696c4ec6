import type { z } from "zod";
import type { DirectiveSpec, OperationSpec, ResourceSpec, Verb } from "./define.ts";
import type { DirectiveList, OperationList, ResourceList } from "./index.ts";

/**
 * Every tool name and the type of its validated input, derived from the declarations the way
 * capabilities.ts derives the runtime schemas. lib/domain/handlers.ts keys its handler map by
 * these, so a capability without a handler, or a handler reading an input the tool does not
 * have, is a compile error.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

type FieldValue<F> = F extends { schema: infer S extends z.ZodType }
  ? z.output<S> | (F extends { nullable: true } ? null : never)
  : never;
type WritableKeys<Fs> = { [K in keyof Fs]: Fs[K] extends { readOnly: true } ? never : K }[keyof Fs];
type RequiredKeys<Fs> = { [K in WritableKeys<Fs>]: Fs[K] extends { required: true } ? K : never }[WritableKeys<Fs>];

type CreateInput<Fs> = Simplify<
  { [K in RequiredKeys<Fs>]: FieldValue<Fs[K]> } & {
    [K in Exclude<WritableKeys<Fs>, RequiredKeys<Fs>>]?: FieldValue<Fs[K]>;
  }
>;
type PatchInput<R extends ResourceSpec> = R extends { updateInput: infer U extends z.ZodObject }
  ? z.output<U>
  : { [K in WritableKeys<R["fields"]>]?: FieldValue<R["fields"][K]> };

type Filters<R> = R extends { filters: infer F }
  ? { [K in keyof F]?: F[K] extends { schema: infer S extends z.ZodType } ? z.output<S> : never }
  : unknown;
type ById<R, T> = R extends { singleton: true } ? T : Simplify<T & { id: string }>;

export type VerbInput<R extends ResourceSpec, V extends Verb> = V extends "list"
  ? Simplify<{ after?: string; limit?: number } & Filters<R>>
  : V extends "get"
    ? ById<R, Record<never, never>>
    : V extends "create"
      ? CreateInput<R["fields"]>
      : V extends "update"
        ? ById<R, PatchInput<R>>
        : V extends "delete"
          ? { id: string }
          : never;

/** The verbs of one resource as tools: `<toolPrefix>_<verb>` → input. */
export type ResourceTools<R extends ResourceSpec> = {
  [V in R["verbs"][number] as `${R["toolPrefix"]}_${V}`]: VerbInput<R, V>;
};
type OperationTools<O extends OperationSpec> = { [N in O["name"]]: z.output<O["input"]> };
type DirectiveTools<D extends DirectiveSpec> = { [N in D["name"]]: z.output<D["input"]> };

// Distributes over each list's union, so every declaration contributes its own keys.
type Each<U> = U extends ResourceSpec
  ? ResourceTools<U>
  : U extends OperationSpec
    ? OperationTools<U>
    : U extends DirectiveSpec
      ? DirectiveTools<U>
      : never;

export type ToolInputs = Simplify<
  UnionToIntersection<Each<ResourceList[number]> | Each<OperationList[number]> | Each<DirectiveList[number]>>
>;
export type ToolName = keyof ToolInputs & string;
export type ToolInput<T extends ToolName> = ToolInputs[T];
