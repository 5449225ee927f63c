/** Opens a page in the named engine at a phone-sized viewport. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EnginePage, PHONE, type EngineName } from "./driver";
import { openPuppeteer } from "./puppeteer";
import { openWebKit } from "./webkit";

export { ENGINES, EnginePage, PHONE, type EngineName } from "./driver";
export type { Query } from "./find";

const PROFILES = join(fileURLToPath(new URL(".", import.meta.url)), "..", ".tmp");

/** An iPhone's Safari, as WebKit tells the page (MiniBrowser's user agent is a Linux one). */
export const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

export async function openEngine(engine: EngineName, baseURL: string, options: { viewport?: typeof PHONE; iPhone?: boolean } = {}): Promise<EnginePage> {
  const viewport = options.viewport ?? PHONE;
  if (options.iPhone && engine !== "webkit") throw new Error("Only WebKit stands in for an iPhone");
  const driver = engine === "webkit" ? await openWebKit(viewport, options.iPhone ? IPHONE_SAFARI : undefined) : await openPuppeteer(engine, PROFILES, viewport);
  return new EnginePage(engine, baseURL, driver);
}
