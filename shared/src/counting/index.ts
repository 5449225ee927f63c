export * from "./types.ts";
export * from "./stv.ts";
export * from "./plurality.ts";
export * from "./referendum.ts";
export * from "./blt.ts";
export { drawLot } from "./lot.ts";
export * from "./recount.ts";
