// What the unit tests share: the real messages of one game (messages.json, written by
// capture_messages.py), the client's catalogs, and a deep freeze (a reducer that changed its input
// would throw: ES modules run in strict mode).
import { readFileSync } from "node:fs";

export const STATIC = new URL("../../../src/secret_hitler/web/static/", import.meta.url);
export const messages = JSON.parse(readFileSync(new URL("./messages.json", import.meta.url), "utf8"));

/** The client's catalog of `lang`, parsed. */
export function catalog(lang) {
  return JSON.parse(readFileSync(new URL(`i18n/${lang}.json`, STATIC), "utf8"));
}

export function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A fresh copy of a message (each test gets its own, so that freezing one test's input never
 * reaches another's). */
export const copy = (msg) => JSON.parse(JSON.stringify(msg));
