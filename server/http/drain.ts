import type http from "node:http";

/**
 * Stops `server` taking connections and waits for the requests in flight to finish: idle keep-alive connections
 * are closed now, busy ones once their answer is sent (the app answers with `Connection: close` while
 * draining). After `timeoutMs` whatever is still open is cut. Resolves true when everything finished in time.
 */
export function drainServer(server: http.Server, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve(false);
    }, timeoutMs);
    server.close(() => {
      clearTimeout(timer);
      resolve(true);
    });
    server.closeIdleConnections();
  });
}
