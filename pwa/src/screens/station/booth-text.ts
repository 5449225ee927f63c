/** What the voter reads at a polling station's booth about a verifiable position (docs/stations.md). */
export const boothText = {
  verifiableNote: "Verifiable ballot: before it is saved, this device encrypts your choice for this position with the credential from your voting slip.",
  credentialHint:
    "From your voting slip: 15 letters and digits, like AB1-CD2-EF3-GH4-JK5. It encrypts your ballot on this device and is forgotten as soon as the ballot is saved; it is never sent.",
  credentialUnlisted: (title: string) =>
    `This credential is not on the list for ${title}: check it against your voting slip, and if it matches, ask the officer (the slip may be from another election).`,
  notReady: "This verifiable ballot is not open on this device yet: the officer updates the station data while online once the returning officer has locked it.",
  trackersTitle: "Your ballot tracker",
  trackersIntro: "Note it down before you hand the device back: this device forgets it when the officer takes the device back.",
  trackersHelp:
    "Look for it later on the Ballot Box page (Ballot Box in the app's menu, on any device, no sign-in needed): if it is there, your ballot was recorded exactly as this station encrypted it. It does not show your choice. A ballot saved while the station was offline appears once the station delivers it.",
};
