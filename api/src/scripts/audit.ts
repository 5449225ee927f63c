/** `npm run audit`: checks the configured database is consistent; exits 1 when it is not. */
import { openDatabase } from "../db/client.ts";
import { parseEnv } from "../env.ts";
import { auditDatabase } from "../services/audit.ts";

const env = parseEnv();
const database = await openDatabase({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
const report = await auditDatabase(database);
database.close();
console.log(JSON.stringify(report, null, 2));
process.exit(report.ok ? 0 : 1);
