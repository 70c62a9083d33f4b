// Recovery codes: created behind a step-up (removal.js), shown once, copied or downloaded as text, then forgotten.

import { username } from "./session.js";
import { $, showError, toast } from "./ui.js";

// The codes just created, shown once and forgotten when hidden.
let recoveryCodes = null;

/** "N unused recovery codes left." */
export function renderRecoveryRemaining(remaining) {
  const count = Number.isInteger(remaining) ? remaining : 0;
  $("recovery-remaining").textContent =
    count === 0
      ? "You have no unused recovery codes."
      : `${count} unused recovery code${count === 1 ? "" : "s"} left.`;
}

export function showRecoveryCodes(codes) {
  recoveryCodes = codes;
  const items = codes.map((code) => {
    const item = document.createElement("li");
    item.textContent = code;
    return item;
  });
  $("recovery-code-list").replaceChildren(...items);
  $("recovery-codes").hidden = false;
  renderRecoveryRemaining(codes.length);
}

export function hideRecoveryCodes() {
  recoveryCodes = null;
  $("recovery-code-list").replaceChildren();
  $("recovery-codes").hidden = true;
}

function recoveryCodesText() {
  const who = username() ? ` for ${username()}` : "";
  return `Touchstone recovery codes${who} (${window.location.origin})\nEach code works once.\n\n${(recoveryCodes || []).join("\n")}\n`;
}

async function copyRecoveryCodes() {
  if (!recoveryCodes) return;
  try {
    await navigator.clipboard.writeText(recoveryCodesText());
    toast("Recovery codes copied.");
  } catch {
    showError($("recovery-error"), "The browser did not allow copying; select the codes and copy them, or download them.");
  }
}

function downloadRecoveryCodes() {
  if (!recoveryCodes) return;
  const url = URL.createObjectURL(new Blob([recoveryCodesText()], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "touchstone-recovery-codes.txt";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function wireRecovery() {
  $("copy-recovery-codes").addEventListener("click", copyRecoveryCodes);
  $("download-recovery-codes").addEventListener("click", downloadRecoveryCodes);
  $("hide-recovery-codes").addEventListener("click", hideRecoveryCodes);
}
