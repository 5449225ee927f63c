import { Toaster } from "sonner";
import { TOAST_DURATION_MS, TOAST_VISIBLE } from "@evoting/shared";

/**
 * Toasts top-right, 4 s, 3 visible (docs/product.md, Limits). Styled here rather than with sonner's
 * richColors, whose success colours fail WCAG contrast: dark text on white, a coloured edge.
 */
export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      duration={TOAST_DURATION_MS}
      visibleToasts={TOAST_VISIBLE}
      closeButton
      // Below the 4rem top bar, so a toast never hides the logout or Admin Panel buttons.
      offset={{ top: 76, right: 24 }}
      mobileOffset={{ top: 72, left: 12, right: 12 }}
      toastOptions={{
        classNames: {
          toast: "!rounded-xl !border !border-slate-200 !bg-white !text-slate-900 !shadow-lg !border-l-4",
          title: "!text-sm !font-semibold",
          description: "!text-slate-700",
          success: "!border-l-green-600 [&_[data-icon]]:!text-green-700",
          error: "!border-l-red-600 [&_[data-icon]]:!text-red-700",
          info: "!border-l-blue-600 [&_[data-icon]]:!text-blue-700",
          warning: "!border-l-amber-500 [&_[data-icon]]:!text-amber-700",
          closeButton: "!bg-white !text-slate-700 !border-slate-300",
        },
      }}
    />
  );
}
