// Catalogs: static/i18n/{lang}.json, flat {"key": "text with {params}"}.
// A key missing from the catalog renders as ⟦key⟧, so that tests (and translators) see it.
// Only loadLanguage() and detectLanguage() need a browser: the rest runs under Node as well.

export const LANGUAGES = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];
const STORAGE_KEY = "sh.lang";

let catalog = {};
let current = "en";
const listeners = new Set();

/** The language to use: the remembered choice, else the first match in navigator.languages. */
export function detectLanguage() {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored && LANGUAGES.includes(stored)) return stored;
  } catch { /* storage may be disabled */ }
  const wanted = (navigator.languages && navigator.languages.length)
    ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const match = matchLanguage(tag);
    if (match) return match;
  }
  return "en";
}

/** Map a BCP 47 tag to one of LANGUAGES, or null. */
export function matchLanguage(tag) {
  if (!tag) return null;
  const lower = String(tag).toLowerCase();
  const [base] = lower.split(/[-_]/);
  if (base === "zh") {
    if (/hant|-tw|-hk|-mo|_tw|_hk|_mo/.test(lower)) return "zh-Hant";
    return "zh-Hans";
  }
  if (base === "en") return "en";
  if (base === "ru") return "ru";
  if (base === "vi") return "vi";
  return null;
}

export async function loadLanguage(lang, { remember = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  const [response, talk] = await Promise.all([
    fetch(new URL(`../i18n/${lang}.json`, import.meta.url), { cache: "no-cache" }),
    talkPhrases(lang),
  ]);
  if (!response.ok) throw new Error(`catalog ${lang}: HTTP ${response.status}`);
  const words = { ...talk, ...(await response.json()) };
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* ignore */ }
  }
  return useCatalog(lang, words);
}

/** The table talk's phrases (GET /api/talk/{lang}: the server's talk/phrases, every key
 * `talk.`), merged into the catalog to render bots' lines; none when the server is away (the
 * lines then show their English text's keys as missing, never a wrong language). */
async function talkPhrases(lang) {
  try {
    const response = await fetch(`/api/talk/${encodeURIComponent(lang)}`, { cache: "no-cache" });
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

/** Render with `words` (a parsed catalog) in `lang` from now on; the unit tests load catalogs so. */
export function useCatalog(lang, words) {
  catalog = words;
  current = lang;
  for (const fn of listeners) fn(lang);
  return lang;
}

export function language() { return current; }
export function onLanguageChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }
export function has(key) { return Object.prototype.hasOwnProperty.call(catalog, key); }

/** The text of `key` with {name} placeholders filled from `params`; ⟦key⟧ when missing. */
export function t(key, params) {
  if (!has(key)) return `⟦${key}⟧`;
  const text = String(catalog[key]);
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

/**
 * A text that depends on a number: `key#one`, `key#few`, `key#many`, `key#other`, ... chosen by
 * Intl.PluralRules for this language (English has one/other, Russian one/few/many/other, Chinese
 * and Vietnamese only other). `{count}` is filled in.
 */
export function tn(key, count, params) {
  let rule = "other";
  try { rule = new Intl.PluralRules(current).select(count); } catch { /* other */ }
  const all = { count, ...(params || {}) };
  return has(`${key}#${rule}`) ? t(`${key}#${rule}`, all) : t(`${key}#other`, all);
}

/** The first key of `keys` present in the catalog, rendered; else the last one (marked missing). */
export function tFirst(keys, params) {
  for (const key of keys) if (has(key)) return t(key, params);
  return t(keys[keys.length - 1], params);
}

/** Join a list with the catalog's separator. */
export function list(items) {
  return items.join(has("list.separator") ? catalog["list.separator"] : ", ");
}
