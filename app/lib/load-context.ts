import type { RouterContextProvider } from "react-router";
import type {} from "#server/http/request-context.ts";

/** The context every middleware, loader and action receives: the request's facts (server/http/request-context.ts) and what middleware set. */
export type AppContext = Readonly<RouterContextProvider>;
