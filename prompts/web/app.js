// The console's script: theme choice, confirmations, and a diagnosis's progress (Server-Sent Events).
"use strict";
(function () {
  const root = document.documentElement;
  const saved = localStorage.getItem("ivd-theme") || "auto";
  if (saved !== "auto") root.dataset.theme = saved;
  document.addEventListener("DOMContentLoaded", function () {
    const pick = document.getElementById("theme");
    if (pick) {
      pick.value = saved;
      pick.addEventListener("change", function () {
        localStorage.setItem("ivd-theme", pick.value);
        if (pick.value === "auto") delete root.dataset.theme; else root.dataset.theme = pick.value;
      });
    }
    document.querySelectorAll("form[data-confirm]").forEach(function (f) {
      f.addEventListener("submit", function (e) { if (!window.confirm(f.dataset.confirm)) e.preventDefault(); });
    });
    const job = document.getElementById("job");
    if (job && job.dataset.events) {
      const source = new EventSource(job.dataset.events);
      source.addEventListener("state", function (e) {
        const s = JSON.parse(e.data);
        const step = document.getElementById("step");
        // The stage's name in the page's language (data-KEY), else the key itself.
        step.textContent = (s.step && step.dataset[s.step]) || s.step || "…";
        document.getElementById("percent").textContent = s.percent;
        document.getElementById("bar").value = s.percent;
        if (s.status !== "running") { source.close(); window.location.reload(); }
      });
      source.onerror = function () { source.close(); setTimeout(function () { window.location.reload(); }, 2000); };
    }
  });
})();
