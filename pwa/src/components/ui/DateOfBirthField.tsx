import type { ComponentProps } from "react";
import { TextField } from "./Field";

/** 'Date of Birth' as the baseline's forms take it (docs/product.md): 8 digits, YYYYMMDD, a numeric keypad on phones. */
export function DateOfBirthField(props: Omit<ComponentProps<typeof TextField>, "label">) {
  return <TextField label="Date of Birth" inputMode="numeric" autoComplete="off" maxLength={8} placeholder="YYYYMMDD" {...props} />;
}
