/** What the voter reads about a verifiable position's credential and ballot. */
export const verifiableText = {
  credentialLabel: "Credential",
  credentialHint: "From your voting slip: 15 letters and digits, like AB1-CD2-EF3-GH4-JK5. You enter it once; this device keeps it until you log out.",
  credentialMissing: "Enter the credential from your voting slip to cast this vote.",
  credentialInvalid: "This credential is not valid: check it against your slip (15 letters and digits, in groups of three; 0, O, I and l are never used).",
  credentialSaved: "Your credential is on this device: your ballot is encrypted here before it is sent.",
  changeCredential: "Change credential",
  keepCredential: "Keep the saved credential",
  scan: "Scan QR code",
  scanHelp: "Point the camera at the QR code on your voting slip.",
  scanFailed: "The camera could not be used: type the credential instead.",
  scanNotCredential: "That QR code holds no credential: scan the one on your voting slip.",
  notReady: "This verifiable ballot is not open yet: it opens once the returning officer locks it.",
  encrypting: "Encrypting your ballot on this device...",
  trackerLabel: "Your ballot tracker",
  trackerHelp: "Find it on the Ballot Box page: if it is there, your ballot was recorded as your device encrypted it. It does not show your choice. Note it down: this device forgets it when you log out.",
};

/** Finds a credential in what a QR code holds (the bare credential, or a text or link containing it). */
export function credentialInText(text: string, normalize: (s: string) => string | null): string | null {
  const whole = normalize(text.trim());
  if (whole) return whole;
  for (const match of text.matchAll(/[1-9A-HJ-NP-Za-km-z]{3}(?:-?[1-9A-HJ-NP-Za-km-z]{3}){4}/g)) {
    const found = normalize(match[0]);
    if (found) return found;
  }
  return null;
}
