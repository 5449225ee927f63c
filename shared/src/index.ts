export * from "./messages.ts";
export * from "./constants.ts";
export * from "./schemas.ts";
export * from "./types.ts";
export * from "./election.ts";
export * from "./results.ts";
export * from "./chat.ts";
export * from "./roles.ts";
