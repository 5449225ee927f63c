/**
 * The login form's checks, split from the page: they bring zod (~24 KB gzip), which /login's
 * first load cannot carry within its 150 KB budget. LoginPage fetches this module when the
 * form is first used; the rules are still the shared ones the API applies.
 */
export { checkUserSchema, loginSchema } from "@evoting/shared";
