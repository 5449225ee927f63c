/** /photos/:id: candidate photos, public (an <img> sends no bearer token) and cached for good. */
import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { photos } from "../db/schema.ts";
import { fail } from "../http/errors.ts";

export function photoRoutes(deps: Deps) {
  return new Hono<AppEnv>().get("/:id", async (c) => {
    const id = c.req.param("id");
    if (!/^[0-9a-f-]{36}$/.test(id)) fail(404, messages.notFound);
    const row = (await deps.database.db.select().from(photos).where(eq(photos.id, id)).limit(1))[0];
    if (!row) fail(404, messages.notFound);
    return c.body(new Uint8Array(row.data), 200, {
      "Content-Type": row.mime,
      // Ids are never reused, so the bytes behind a URL never change.
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cross-Origin-Resource-Policy": "same-origin",
    });
  });
}
