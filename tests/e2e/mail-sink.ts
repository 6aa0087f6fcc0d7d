/**
 * The mail server of the end-to-end run: an SMTP server on loopback that writes every message it receives to a
 * file, so a test can open a link that only the recipient gets (a password reset never shows in the outbox).
 */
import fs from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { e2eMailDir, e2eMailPort } from "./env.ts";

const dir = e2eMailDir();
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
let count = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      count += 1;
      const to = session.envelope.rcptTo.map((r) => r.address).join(",");
      fs.writeFileSync(
        path.join(dir, `${String(count).padStart(6, "0")}.json`),
        JSON.stringify({ to, raw: Buffer.concat(chunks).toString("utf8") }),
      );
      callback();
    });
  },
});
server.listen(e2eMailPort(), "127.0.0.1");
