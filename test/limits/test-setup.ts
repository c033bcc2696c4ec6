import { afterEach } from "vitest";

/**
 * Sets environment variables for the current test and restores them after it. undefined removes
 * a variable, so the registry's defaults apply (the suite raises rate limits in vitest.config.ts).
 */
export function useEnv(): (vars: Record<string, string | undefined>) => void {
  const saved = new Map<string, string | undefined>();
  afterEach(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    saved.clear();
  });
  return (vars) => {
    for (const [name, value] of Object.entries(vars)) {
      if (!saved.has(name)) saved.set(name, process.env[name]);
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The spec's rate limits, with the refill slowed where a test must not see it. */
export const SPEC_LIMITS = {
  RATE_LIMIT_CAPACITY: undefined,
  RATE_LIMIT_REFILL_PER_SECOND: undefined,
  RATE_LIMIT_RESOLVER_CAPACITY: undefined,
  RATE_LIMIT_RESOLVER_REFILL_PER_SECOND: undefined,
};
