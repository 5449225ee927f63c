/**
 * A local SMTP server for the mail bench, in its own process so that receiving 10,000
 * messages costs the bench's latency probe nothing: prints `{"port":N}` once, then the running
 * total `{"received":N}` every 200 ms until killed.
 */
import { startTestSmtp } from "../../api/src/test/smtp.ts";

const smtp = await startTestSmtp();
let total = 0;
process.stdout.write(`${JSON.stringify({ port: smtp.port })}\n`);
setInterval(() => {
  // Only the count matters here: the bodies are dropped as they come.
  total += smtp.received.length;
  smtp.received.length = 0;
  process.stdout.write(`${JSON.stringify({ received: total })}\n`);
}, 200);
