import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  raw: string;
}

export interface TestSmtp {
  url: string;
  /** Messages the server accepted (answered 250 to), in order. */
  received: ReceivedMail[];
  /** Recipients to refuse at DATA's end (a 451 each time), for the tries that must fail. */
  refuse: Set<string>;
  /**
   * Recipients whose message is held at DATA's end, unanswered: `onHeld` is called with the message and the server
   * waits. A held message whose client disconnects is dropped, as a mail server drops what it never acknowledged;
   * `release` answers the held messages 250.
   */
  hold: Set<string>;
  onHeld?: (mail: ReceivedMail) => void;
  release(): void;
  close(): Promise<void>;
}

/** A real SMTP server in this process on loopback, as the mail tests use it (no TLS, no authentication). */
export async function startTestSmtp(): Promise<TestSmtp> {
  const held: { session: string; mail: ReceivedMail; answer: () => void }[] = [];
  const smtp: TestSmtp = {
    url: "",
    received: [],
    refuse: new Set(),
    hold: new Set(),
    release() {
      for (const h of held.splice(0)) h.answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (c: Buffer) => (raw += c.toString()));
      stream.on("end", () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address).join(","), raw };
        if (smtp.refuse.has(mail.to)) {
          callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
        } else if (smtp.hold.has(mail.to)) {
          held.push({
            session: session.id,
            mail,
            answer: () => {
              smtp.received.push(mail);
              callback();
            },
          });
          smtp.onHeld?.(mail);
        } else {
          smtp.received.push(mail);
          callback();
        }
      });
    },
    onClose(session) {
      // The client went away before its held message was answered: the message was never accepted.
      for (let i = held.length - 1; i >= 0; i--) if (held[i]!.session === session.id) held.splice(i, 1);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  smtp.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}?ignoreTLS=true`;
  return smtp;
}
