/**
 * One page in one of three engines, driven the same way: Chromium and Firefox through
 * puppeteer-core (CDP and WebDriver BiDi), WebKit through WebKitWebDriver (W3C WebDriver
 * classic). The flows in `e2e/engines.e2e.ts` see only this interface, so a flow that passes
 * in one engine runs unchanged in the others. Every call has a time limit: a driver that stops
 * answering fails the test with the call's name instead of hanging the suite.
 */
import { describeQuery, findInPage, type Query } from "./find";

export type EngineName = "chromium" | "firefox" | "webkit";
const ALL: readonly EngineName[] = ["chromium", "firefox", "webkit"];
/**
 * The engines the flows run in: Firefox and WebKit by default, or those named in E2E_ENGINES
 * (`chromium,firefox,webkit`; `none` for none). Chromium's copies of these flows run in the
 * Playwright suite (offline.e2e.ts, election.e2e.ts, chat.e2e.ts, lab-computer.e2e.ts,
 * stations.e2e.ts); driven through puppeteer on a loaded machine its device store has stalled
 * after an offline reload (docs/decisions/0015-three-engines.md), so it runs here when asked.
 */
export const ENGINES: readonly EngineName[] = process.env.E2E_ENGINES
  ? ALL.filter((engine) => process.env.E2E_ENGINES!.split(",").includes(engine))
  : ["firefox", "webkit"];

export const PHONE = { width: 390, height: 844 };

/** A function run in the page; its arguments and result cross as JSON. */
export type PageFunction<A extends unknown[], R> = (...args: A) => R | Promise<R>;

/** What each engine's adapter provides. */
export interface EngineDriver {
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  /** Runs a JavaScript expression in the page; awaits it when it is a promise; JSON result. */
  evaluate(expression: string): Promise<unknown>;
  /** Clicks the first element the query finds (the engine's own pointer input). */
  click(query: Query): Promise<boolean>;
  /** Replaces a field's value by typing (the engine's own key input). */
  type(query: Query, text: string): Promise<boolean>;
  close(): Promise<void>;
}

/** A time limit on one driver call. */
export async function limit<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const CALL_MS = 20_000;
const WAIT_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class EnginePage {
  constructor(
    readonly engine: EngineName,
    readonly baseURL: string,
    private readonly driver: EngineDriver,
  ) {}

  async goto(path: string) {
    const url = new URL(path, this.baseURL).href;
    try {
      await limit(`${this.engine} goto ${path}`, 45_000, this.driver.goto(url));
    } catch (error) {
      // The app's own navigation (after a sign-in, say) can abort the driver's: go again once.
      if (!/ABORTED|aborted|navigation/i.test(String(error))) throw error;
      await limit(`${this.engine} goto ${path} (again)`, 45_000, this.driver.goto(url));
    }
  }

  reload() {
    return limit(`${this.engine} reload`, 45_000, this.driver.reload());
  }

  async path(): Promise<string> {
    return new URL(await limit(`${this.engine} url`, CALL_MS, this.driver.url())).pathname;
  }

  /** Runs `fn` in the page (its source is sent, so it may use only its arguments). */
  evaluate<A extends unknown[], R>(fn: PageFunction<A, R>, ...args: A): Promise<R> {
    return limit(`${this.engine} evaluate`, CALL_MS, this.driver.evaluate(callSource(fn, args))) as Promise<R>;
  }

  /** Polls until `check` returns a truthy value (retrying through navigations). */
  async until<T>(what: string, check: () => Promise<T>, timeoutMs = WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    let last: unknown;
    for (;;) {
      try {
        const value = await check();
        if (value) return value;
      } catch (error) {
        last = error; // a page navigating away mid-check: try again
      }
      if (Date.now() > deadline) {
        const seen = await this.screenText().catch(() => "(page did not answer)");
        throw new Error(`${this.engine}: ${what} not seen within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ""}\npage ${seen}`);
      }
      await sleep(150);
    }
  }

  /** What the page shows, to say where a wait ended up when it fails. */
  private async screenText(): Promise<string> {
    const [path, text] = await Promise.all([this.path(), this.evaluate(() => document.body.innerText.replace(/\s+/g, " ").slice(0, 1500))]);
    return `${path}: ${text}`;
  }

  /** Waits until the query finds a visible element. */
  async waitFor(query: Query, timeoutMs = WAIT_MS): Promise<void> {
    await this.until(describeQuery(query), () => this.find(query), timeoutMs);
  }

  /** Waits until the query finds nothing. */
  async waitForGone(query: Query, timeoutMs = WAIT_MS): Promise<void> {
    await this.until(`${describeQuery(query)} gone`, async () => !(await this.find(query)), timeoutMs);
  }

  async find(query: Query): Promise<boolean> {
    return (await limit(`${this.engine} find`, CALL_MS, this.driver.evaluate(`${findSource(query)} !== null`))) === true;
  }

  /** The text of the element the query finds, or null. */
  async text(query: Query): Promise<string | null> {
    return (await limit(`${this.engine} text`, CALL_MS, this.driver.evaluate(`${findSource(query)}?.textContent ?? null`))) as string | null;
  }

  async click(query: Query, timeoutMs = WAIT_MS) {
    await this.until(`click ${describeQuery(query)}`, () => limit(`${this.engine} click`, CALL_MS, this.driver.click(query)), timeoutMs);
  }

  /**
   * Clicks until `shows` appears: a tap that lands while the page re-renders (a results update
   * arriving at that moment) can miss under load, and a person would tap again.
   */
  async clickFor(query: Query, shows: Query, timeoutMs = WAIT_MS) {
    await this.until(`${describeQuery(shows)} after clicking ${describeQuery(query)}`, async () => {
      if (await this.find(shows)) return true;
      await limit(`${this.engine} click`, CALL_MS, this.driver.click(query));
      const opened = Date.now() + 3_000;
      while (Date.now() < opened) {
        if (await this.find(shows)) return true;
        await sleep(150);
      }
      return false;
    }, timeoutMs);
  }

  async type(query: Query, text: string, timeoutMs = WAIT_MS) {
    await this.until(`type into ${describeQuery(query)}`, () => limit(`${this.engine} type`, CALL_MS, this.driver.type(query, text)), timeoutMs);
  }

  async waitForPath(path: string, timeoutMs = WAIT_MS) {
    await this.until(`path ${path}`, async () => (await this.path()) === path, timeoutMs);
  }

  close() {
    return limit(`${this.engine} close`, CALL_MS, this.driver.close()).catch(() => undefined);
  }
}

/**
 * An expression finding the query's element in the page. Built as source text because the
 * app's CSP forbids eval: the driver's own evaluation is the only way code enters the page.
 */
export function findSource(query: Query): string {
  return inPage(`(${findInPage.toString()})(${JSON.stringify(query)})`);
}

function callSource(fn: (...args: never[]) => unknown, args: unknown[]): string {
  return inPage(`(${fn.toString()})(...${JSON.stringify(args)})`);
}

/** Transpilers that keep function names (tsx, vitest) call a `__name` helper the page lacks. */
function inPage(expression: string): string {
  return `((__name) => ${expression})((fn) => fn)`;
}
