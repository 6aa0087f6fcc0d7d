import { afterEach, beforeEach, expect, vi, type MockInstance } from "vitest";

/**
 * Every test fails on an unexpected console.error (a React warning, an unhandled rejection someone logged, a
 * library complaining): such output is a bug that passing assertions would hide. A test that provokes one on
 * purpose calls `expectConsoleError()` first and gets the calls to check.
 */
let spy: MockInstance<typeof console.error> | undefined;
let expected = false;

export function expectConsoleError(): MockInstance<typeof console.error> {
  expected = true;
  return spy!;
}

beforeEach(() => {
  expected = false;
  spy = vi.spyOn(console, "error");
});

afterEach(() => {
  const calls = spy?.mock.calls ?? [];
  spy?.mockRestore();
  if (!expected) expect(calls, "console.error was called unexpectedly").toEqual([]);
});
