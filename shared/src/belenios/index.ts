export * from "./group.ts";
export * from "./credential.ts";
export * from "./trustee.ts";
export * from "./election.ts";
export * from "./proofs.ts";
export * from "./ballot.ts";
export * from "./tally.ts";
export * from "./archive.ts";
