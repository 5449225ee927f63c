import { asArray, asObject, BeleniosFormatError, GROUP_NAME, parseJson, parseNumber, sha256B64 } from "./group.ts";

/** One homomorphic question (specification 4.9.1). */
export interface Question {
  answers: string[];
  blank: boolean;
  min: number;
  max: number;
  question: string;
}

export interface Election {
  uuid: string;
  name: string;
  description: string;
  publicKey: bigint;
  question: Question;
}

/** The election structure as the tool's `make-election` writes it; the fingerprint hashes this text. */
export function serializeElection(e: Election): string {
  return JSON.stringify({
    version: 1,
    description: e.description,
    name: e.name,
    group: GROUP_NAME,
    public_key: e.publicKey.toString(),
    questions: [
      {
        answers: e.question.answers,
        ...(e.question.blank ? { blank: true } : {}),
        min: e.question.min,
        max: e.question.max,
        question: e.question.question,
      },
    ],
    uuid: e.uuid,
  });
}

/** φ, the election fingerprint every proof and ballot refers to. */
export function electionFingerprint(electionJson: string): string {
  return sha256B64(electionJson);
}

function smallInt(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 1000) {
    throw new BeleniosFormatError(`${what} is not a small integer`);
  }
  return value;
}

/** Reads an election with exactly one homomorphic question in group BELENIOS-2048. */
export function parseElection(text: string): Election {
  const v = asObject(parseJson(text, "The election"), "The election");
  if (v.group !== GROUP_NAME) throw new BeleniosFormatError(`The election's group is not ${GROUP_NAME}`);
  const questions = asArray(v.questions, "questions");
  if (questions.length !== 1) throw new BeleniosFormatError("The election must have exactly one question");
  const q = asObject(questions[0], "question");
  const answers = asArray(q.answers, "answers").map((a) => {
    if (typeof a !== "string") throw new BeleniosFormatError("An answer is not a string");
    return a;
  });
  const min = smallInt(q.min, "min");
  const max = smallInt(q.max, "max");
  if (min > max || max > answers.length) throw new BeleniosFormatError("The question's min and max do not fit its answers");
  if (typeof v.uuid !== "string" || !/^[1-9A-HJ-NP-Za-km-z]{14,}$/.test(v.uuid)) {
    throw new BeleniosFormatError("The election uuid is not a Belenios uuid");
  }
  return {
    uuid: v.uuid,
    name: typeof v.name === "string" ? v.name : "",
    description: typeof v.description === "string" ? v.description : "",
    publicKey: parseNumber(v.public_key, "public_key"),
    question: {
      answers,
      blank: q.blank === true,
      min,
      max,
      question: typeof q.question === "string" ? q.question : "",
    },
  };
}

/** A fresh election uuid like the tool's `setup generate-token`: 14 base-58 characters. */
export function generateUuid(): string {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let out = "";
  const byte = new Uint8Array(1);
  while (out.length < 14) {
    globalThis.crypto.getRandomValues(byte);
    if (byte[0] < 232) out += alphabet[byte[0] % 58];
  }
  return out;
}
