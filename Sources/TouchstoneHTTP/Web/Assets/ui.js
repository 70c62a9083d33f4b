// Views and small UI helpers: which view shows, busy buttons, errors, the banner and the toast, dates and times.

export const $ = (id) => document.getElementById(id);

const TITLES = {
  "view-sign-in": "Sign in",
  "view-sign-up": "Create your account",
  "view-approval": "Check your phone",
  "view-account": "Your account",
};

export function show(viewId) {
  for (const view of document.querySelectorAll("[data-view]")) view.hidden = view.id !== viewId;
  // A view shown anew starts without the messages of its last visit.
  for (const error of $(viewId).querySelectorAll(".field-error")) showError(error, "");
  for (const input of $(viewId).querySelectorAll("input[aria-invalid]")) markInvalid(input, false);
  document.title = `Touchstone — ${TITLES[viewId]}`;
  document.body.dataset.screen = viewId;
  const heading = $(viewId).querySelector("h1");
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
  window.scrollTo(0, 0);
}

export function setBusy(button, busy) {
  button.disabled = busy;
  if (busy) button.setAttribute("aria-busy", "true");
  else button.removeAttribute("aria-busy");
}

export function showError(element, text) {
  element.textContent = text;
  element.hidden = !text;
}

export function showBanner(text) {
  $("banner-text").textContent = text;
  $("banner").hidden = false;
}

export function hideBanner() {
  $("banner").hidden = true;
}

let toastTimer = null;
export function toast(text) {
  const element = $("toast");
  element.textContent = text;
  element.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    element.hidden = true;
  }, 5000);
}

export function markInvalid(input, invalid) {
  if (invalid) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

export const dateFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export function relativeTime(iso) {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return "unknown";
  const seconds = Math.round((time - Date.now()) / 1000);
  const steps = [
    [60, "second"],
    [60, "minute"],
    [24, "hour"],
    [7, "day"],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return unit === "second" ? "just now" : relativeFormat.format(value, unit);
    value = Math.round(value / size);
  }
  return dateFormat.format(new Date(time));
}

/** `ms` as minutes and seconds, `m:ss`. */
export function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
