/** Opens a page in the named engine at a phone-sized viewport. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EnginePage, PHONE, type EngineName } from "./driver";
import { openPuppeteer } from "./puppeteer";
import { openWebKit } from "./webkit";

export { ENGINES, EnginePage, PHONE, type EngineName } from "./driver";
export type { Query } from "./find";

const PROFILES = join(fileURLToPath(new URL(".", import.meta.url)), "..", ".tmp");

export async function openEngine(engine: EngineName, baseURL: string, viewport = PHONE): Promise<EnginePage> {
  const driver = engine === "webkit" ? await openWebKit(viewport) : await openPuppeteer(engine, PROFILES, viewport);
  return new EnginePage(engine, baseURL, driver);
}
