import pg from "pg";
import { e2eBaseDatabaseUrl, e2ePort } from "./env.ts";

/** Drops and recreates the run's database, so each end-to-end run starts empty. */
const name = `ekc_e2e_${e2ePort()}`;
const client = new pg.Client({ connectionString: e2eBaseDatabaseUrl() });
await client.connect();
await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await client.query(`CREATE DATABASE ${name}`);
await client.end();
