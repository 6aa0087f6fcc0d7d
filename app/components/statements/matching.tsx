import { useEffect } from "react";
import { useRevalidator } from "react-router";

/** How often a page with a matching round still running asks the server again (the worker polls every 2 s). */
const MATCHING_POLL_MS = 2_000;

/**
 * While an import's matching round (a job of the queue, decision 042) is still running, the page reloads its data
 * every few seconds, so the result appears without a click. Without JavaScript the page says so and offers a link.
 */
export function useRevalidateWhileMatching(running: boolean): void {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!running || state !== "idle") return;
    const timer = setTimeout(() => void revalidate(), MATCHING_POLL_MS);
    return () => clearTimeout(timer);
  }, [running, state, revalidate]);
}
