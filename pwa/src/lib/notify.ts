/** Toasts for actions (docs/product.md, Messages): the server's message when it sent one, else the fallback. */
import { toast } from "sonner";
import { errorMessage } from "./api-error";

export const notifySuccess = (message: string) => toast.success(message);

export const notifyError = (error: unknown, fallback: string) => toast.error(errorMessage(error, fallback));
