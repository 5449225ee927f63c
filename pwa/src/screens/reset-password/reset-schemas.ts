/**
 * The reset forms' checks, split from the page as the sign-in's are (login-schemas.ts): they
 * bring zod, which loads when a form is first used. The rules are the shared ones the API applies.
 */
export { passwordFormSchema, passwordResetRequestSchema } from "@evoting/shared";
