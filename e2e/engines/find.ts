/**
 * How the cross-engine tests find an element: by role and accessible name, by label, by test
 * id or by text, optionally inside another such element. It runs inside the page, so every
 * engine finds elements the same way whatever its driver protocol offers.
 */
export interface Query {
  role?: "button" | "radio" | "form" | "link" | "dialog" | "alertdialog" | "textbox" | "status";
  /** Accessible name: a string matches exactly (trimmed), a RegExp source as `{ re }`. */
  name?: string | { re: string };
  label?: string;
  testId?: string;
  text?: string | { re: string };
  within?: Query;
}

/** In the page: the first visible element matching the query, or null. Self-contained (serialised). */
export function findInPage(query: Query): Element | null {
  const ROLES: Record<string, string> = {
    button: "button, [role=button], input[type=submit], input[type=button]",
    radio: "input[type=radio], [role=radio]",
    form: "form, [role=form]",
    link: "a[href], [role=link]",
    dialog: "dialog, [role=dialog]",
    alertdialog: "[role=alertdialog]",
    textbox: "input:not([type=radio]):not([type=checkbox]):not([type=submit]), textarea",
    status: "[role=status], output",
  };
  const clean = (s: string | null | undefined) => (s ?? "").replace(/\s+/g, " ").trim();
  const matches = (value: string, want: string | { re: string }) =>
    typeof want === "string" ? clean(value) === want : new RegExp(want.re).test(clean(value));
  const labelText = (el: Element): string => {
    const byIds = el.getAttribute("aria-labelledby");
    if (byIds) return byIds.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
    const aria = el.getAttribute("aria-label");
    if (aria) return aria;
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length > 0) return [...labels].map((l) => l.textContent ?? "").join(" ");
    if (el instanceof HTMLInputElement && (el.type === "submit" || el.type === "button")) return el.value;
    return el.textContent ?? "";
  };
  const visible = (el: Element) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    // A radio styled as a card hides its input; the input still counts when its label shows.
    if (el instanceof HTMLInputElement && el.labels && [...el.labels].some((l) => l.getBoundingClientRect().width > 0)) return true;
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
  };
  const search = (root: ParentNode, q: Query): Element | null => {
    const scope = q.within ? search(root, q.within) : root;
    if (!scope) return null;
    let candidates: Element[];
    if (q.testId) candidates = [...scope.querySelectorAll(`[data-testid="${CSS.escape(q.testId)}"]`)];
    else if (q.role) candidates = [...scope.querySelectorAll(ROLES[q.role]!)];
    else if (q.label) candidates = [...scope.querySelectorAll(ROLES.textbox + ", select, " + ROLES.radio)];
    else candidates = [...scope.querySelectorAll("body *")].filter((el) => el.children.length === 0 || el.childElementCount < el.childNodes.length);
    if (q.label) candidates = candidates.filter((el) => clean(labelText(el)) === q.label);
    if (q.name !== undefined) candidates = candidates.filter((el) => matches(labelText(el), q.name!));
    if (q.text !== undefined) {
      const want = q.text;
      candidates = candidates.filter((el) => (typeof want === "string" ? clean(el.textContent).includes(want) : new RegExp(want.re).test(clean(el.textContent))));
      // The innermost match, not every ancestor that also contains the text.
      if (!q.testId && !q.role) candidates = candidates.filter((el) => !candidates.some((other) => other !== el && el.contains(other)));
    }
    return candidates.find(visible) ?? null;
  };
  return search(document, query);
}

export function describeQuery(q: Query): string {
  const part = [q.role && `role=${q.role}`, q.name && `name=${JSON.stringify(q.name)}`, q.label && `label=${q.label}`, q.testId && `testId=${q.testId}`, q.text && `text=${JSON.stringify(q.text)}`]
    .filter(Boolean)
    .join(" ");
  return q.within ? `${describeQuery(q.within)} >> ${part}` : part;
}
